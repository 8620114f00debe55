import type { JudgmentRecord } from '../../spec/judgment.js';
import type { ScoreRecord } from '../../spec/score.js';
import type { TrialRecord } from '../../spec/trial-record.js';
import { OURS, type PlanAttributes, type PlanEvent } from './span-plan.js';

/** The GenAI conventions' evaluation event: one per check, score and judged check of a trial. */
export const EVALUATION_EVENT = 'gen_ai.evaluation.result';

/** The evaluation name of the task's own checks (its assertions): the trial's verdict. */
export const CHECKS_EVALUATION = 'checks';

function evaluation(
  name: string,
  fields: { value?: number | null; label: string; explanation?: string | undefined },
  content: boolean,
  extra: PlanAttributes = {},
): PlanAttributes {
  return {
    'gen_ai.evaluation.name': name,
    ...(typeof fields.value === 'number' && { 'gen_ai.evaluation.score.value': fields.value }),
    'gen_ai.evaluation.score.label': fields.label,
    // Why a check failed quotes the answer, so it is content.
    ...(content &&
      fields.explanation &&
      fields.explanation !== '' && { 'gen_ai.evaluation.explanation': fields.explanation }),
    ...extra,
  };
}

/** The trial's checks: pass or fail, or how it ended when it was not counted. */
function checksEvaluation(record: TrialRecord, content: boolean): PlanAttributes {
  const counted = record.outcome === 'passed' || record.outcome === 'failed';
  const label = record.outcome === 'passed' ? 'pass' : counted ? 'fail' : record.outcome;
  return evaluation(
    CHECKS_EVALUATION,
    {
      ...(counted && { value: record.outcome === 'passed' ? 1 : 0 }),
      label,
      explanation: record.messages.join('\n'),
    },
    content,
  );
}

function scoreEvaluation(score: ScoreRecord, content: boolean): PlanAttributes {
  return evaluation(
    score.name,
    { value: score.value, label: score.passed ? 'pass' : 'fail', explanation: score.message },
    content,
    { [`${OURS}.evaluation.source`]: score.source, [`${OURS}.threshold`]: score.threshold },
  );
}

function judgmentEvaluation(judgment: JudgmentRecord, content: boolean): PlanAttributes {
  const reasons = judgment.samples.flatMap((sample) => sample.reasoning ?? sample.error ?? []);
  return evaluation(
    judgment.check,
    { value: judgment.score, label: judgment.verdict, explanation: reasons.join('\n---\n') },
    content,
    {
      [`${OURS}.evaluation.source`]: 'judge',
      [`${OURS}.threshold`]: judgment.threshold,
      [`${OURS}.judge.models`]: judgment.models,
      [`${OURS}.judge.votes.pass`]: judgment.votes.pass,
      [`${OURS}.judge.votes.fail`]: judgment.votes.fail,
      ...(judgment.human && { [`${OURS}.judge.human_label`]: judgment.human }),
    },
  );
}

/**
 * A trial's results as `gen_ai.evaluation.result` events: its checks' verdict, each score a
 * check returned, and each judged check (its majority, score and votes). A judged check's mean
 * score is in its judgment, not twice.
 */
export function evaluationEvents(
  record: TrialRecord,
  timeMs: number,
  content: boolean,
): PlanEvent[] {
  const judged = new Set((record.judgments ?? []).map((judgment) => judgment.check));
  const scores = (record.scores ?? []).filter(
    (score) => !(score.source === 'judge' && judged.has(score.name)),
  );
  const stale = record.outcome === 'stale' || record.outcome === 'missing';
  return [
    ...(stale ? [] : [checksEvaluation(record, content)]),
    ...scores.map((score) => scoreEvaluation(score, content)),
    ...(record.judgments ?? []).map((judgment) => judgmentEvaluation(judgment, content)),
  ].map((attributes) => ({ name: EVALUATION_EVENT, timeMs, attributes }));
}
