import { callWithin } from '../core/bounded-call.js';
import { ConfigError } from '../core/errors.js';
import { readJudgeSections, VERDICT_TOOL_NAME, type Verdict } from '../model-api/judge-wire.js';
import { plainCopy, scriptDeadlineMs, scriptProblemOf } from './model-script.js';
import { callTools, type Policy } from './policy.js';
import type { SimRequest } from './request.js';
import { createRng, type Rng } from './rng.js';

/** What a judge script sees of a judge call: the sections of the material, and who is asked. */
export interface JudgeScriptRequest {
  rubric: string;
  /** The task's prompt. */
  task: string;
  answer: string;
  reference?: string;
  /** The agent's tool calls as the judge is shown them, one per line. */
  toolCalls?: string;
  transcript?: string;
  /** The judge model asked (`claude-sonnet-5`, or the model of an OpenAI-compatible judge). */
  model: string;
  /** task/variant/trial/judge/check/model/sample: draws from `random` are seeded by it. */
  seed: string;
}

const isJudgeCall = (request: SimRequest) =>
  request.toolNames.length === 1 && request.toolNames[0] === VERDICT_TOOL_NAME;

/**
 * An offline judge for your own judged checks: `record --simulated` (and `eval --rescore
 * --simulated`) serve it for the judge's calls, so judged tasks record with no key. Set it as
 * `modelScript` of defineJudge. Return undefined when it has no verdict: recording then fails.
 *
 * @example
 * export const politeJudge = defineJudgeScript({
 *   respond: ({ answer }) => /sorry|please/i.test(answer)
 *     ? { label: 'pass', score: 1, reasoning: 'courteous' }
 *     : { label: 'fail', score: 0, reasoning: 'no courtesy words' } });
 */
export function defineJudgeScript(options: {
  name?: string;
  respond: (request: JudgeScriptRequest, random: Rng) => Verdict | undefined;
}): Policy {
  if (typeof options?.respond !== 'function') {
    throw new ConfigError('defineJudgeScript needs respond: (request, random) => verdict');
  }
  const name = options.name ?? 'judge-script';
  const verdicts = new WeakMap<SimRequest, Verdict | undefined>();
  // Why a call got no verdict (by seed: each sample has its own), for the judge's error line.
  const problems = new Map<string, string>();
  const verdictOf = (request: SimRequest) => {
    if (!verdicts.has(request)) {
      const read = readJudgeSections(request.firstUserText);
      const { rubric, task, answer, reference, transcript } = read?.sections ?? {};
      const ask = () =>
        read && rubric !== undefined && answer !== undefined
          ? options.respond(
              {
                rubric,
                task: task ?? '',
                answer,
                ...(reference !== undefined && { reference }),
                ...(read.sections['tool-calls'] !== undefined && {
                  toolCalls: read.sections['tool-calls'],
                }),
                ...(transcript !== undefined && { transcript }),
                model: request.body.model,
                seed: request.seed,
              },
              createRng(request.seed, request.assistantTurns),
            )
          : undefined;
      let verdict: Verdict | undefined;
      try {
        // Run, and its verdict read, under the model call deadline: a loop is stopped.
        verdict = callWithin(() => plainCopy(ask()) as Verdict | undefined, scriptDeadlineMs());
      } catch (error) {
        problems.set(request.seed, scriptProblemOf(error));
      }
      verdicts.set(request, verdict);
    }
    return verdicts.get(request);
  };
  return {
    name,
    matches: (request) => isJudgeCall(request) && verdictOf(request) !== undefined,
    next: (request) => callTools([{ name: VERDICT_TOOL_NAME, input: { ...verdictOf(request) } }]),
    problemFor: (seed) => {
      const problem = problems.get(seed);
      return problem && `judge script '${name}' ${problem}`;
    },
  };
}
