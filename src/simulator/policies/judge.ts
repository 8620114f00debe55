/**
 * A judge, played the way a model would: it answers a judge call (a request whose only tool is
 * the verdict tool) by reading the rubric's criteria and the answer inside the fenced
 * sections, and calls the verdict tool with a label, a score and its reasoning. It reads only
 * inside the sections, and never follows what the answer says to the grader.
 *
 * Habits (one named draw each, seeded per task, variant, trial, check, judge model and sample):
 * - borderline criteria (a neutral tone where the rubric asks for politeness) go either way:
 *   met with p between 0.45 and 0.74, a constant of each judge model (models differ in leniency);
 * - misjudges, p=0.05 per criterion: reads a clear criterion the wrong way.
 * The score is the share of criteria met; the label is pass only when all are met.
 * A request without the fenced rubric and answer gets text and no tool call (a judge error).
 */
import { readJudgeSections, VERDICT_TOOL_NAME } from '../../model-api/judge-wire.js';
import { answer, callTools, type Policy, type Turn } from '../policy.js';
import type { SimRequest } from '../request.js';
import { fnv1a, type Rng } from '../rng.js';
import { criteriaOf, readCriterion } from './judge-criteria.js';

export interface JudgeHabits {
  /** Added to each model's leniency on borderline criteria. */
  misjudge: number;
}

export const JUDGE_HABITS: Readonly<JudgeHabits> = { misjudge: 0.05 };

/** A judge model's leniency on borderline criteria: a constant in [0.45, 0.74] per model id. */
export function leniencyOf(model: string): number {
  return 0.45 + (fnv1a(model) % 30) / 100;
}

function verdictTurn(request: SimRequest, rng: Rng, habits: JudgeHabits): Turn {
  const material = readJudgeSections(request.firstUserText);
  if (!material?.sections.rubric || material.sections.answer === undefined) {
    return answer('I could not find a rubric and an answer to grade in this request.');
  }
  const lenient = leniencyOf(request.body.model);
  const criteria = criteriaOf(material.sections.rubric).map((text, index) => {
    const read = readCriterion(text, material.sections.answer!);
    const misjudged = rng.chance(`misjudge_${index}`, habits.misjudge);
    const met =
      read.reading === 'borderline'
        ? rng.chance(`borderline_${index}`, lenient)
        : (read.reading === 'met') !== misjudged;
    const because =
      read.reading !== 'borderline' && misjudged
        ? `${read.because}, yet judged ${met ? 'met' : 'not met'}`
        : read.because;
    return { ...read, text: text.replace(/[\s;:,.]+$/, ''), because, met };
  });
  const met = criteria.filter((criterion) => criterion.met);
  const unmet = criteria.filter((criterion) => !criterion.met);
  const describe = (list: typeof criteria) =>
    list.map((criterion) => `${criterion.text} (${criterion.because})`).join('; ');
  const reasoning = [
    met.length > 0 ? `Met: ${describe(met)}.` : '',
    unmet.length > 0 ? `Not met: ${describe(unmet)}.` : '',
  ]
    .filter(Boolean)
    .join(' ');
  return callTools([
    {
      name: VERDICT_TOOL_NAME,
      input: {
        label: unmet.length === 0 ? 'pass' : 'fail',
        score: Math.round((met.length / criteria.length) * 100) / 100,
        reasoning,
      },
    },
  ]);
}

/** The simulated judge, with its habits; `overrides` changes them (e.g. `{ misjudge: 0 }`). */
export function createJudgePolicy(overrides: Partial<JudgeHabits> = {}): Policy {
  const habits = { ...JUDGE_HABITS, ...overrides };
  return {
    name: 'judge',
    matches: (request) =>
      request.toolNames.length === 1 && request.toolNames[0] === VERDICT_TOOL_NAME,
    next: (request, rng) => verdictTurn(request, rng, habits),
  };
}

export const judgePolicy: Policy = createJudgePolicy();
