import { errorMessage } from '../../core/errors.js';
import type { RunResult } from '../../runtime/run-agent.js';
import { quotedValue } from '../spec/assertion-text.js';
import type { EvalCase } from '../spec/cases.js';
import { isScoreLike, type ScoreRecord, toScoreRecord } from '../spec/score.js';
import type { TaskDefinition, TrialRun } from '../spec/task-definition.js';

/** What the task's own check said, before any judge. */
export interface CheckVerdict {
  outcome: 'passed' | 'failed' | 'errored';
  messages: string[];
  error?: unknown;
}

/** A score of the trial, refused when the check already has one of that name (n would count it twice). */
function addScore(scores: ScoreRecord[], score: ScoreRecord): void {
  if (scores.some((other) => other.name === score.name)) {
    throw new TypeError(
      `a second score named '${score.name}': name each score of a trial once ({ name: '...' })`,
    );
  }
  scores.push(score);
}

/** What the check returned: nothing or true passes, false fails, scores are recorded, else broken. */
function readReturn(returned: unknown, scores: ScoreRecord[]): CheckVerdict {
  if (returned === undefined || returned === true) return { outcome: 'passed', messages: [] };
  if (returned === false) return { outcome: 'failed', messages: ['the check returned false'] };
  const list = Array.isArray(returned) ? returned : [returned];
  if (list.length > 0 && list.every(isScoreLike)) {
    try {
      for (const score of list) addScore(scores, toScoreRecord(score));
      return { outcome: 'passed', messages: [] };
    } catch (error) {
      return { outcome: 'errored', messages: [`the check returned ${errorMessage(error)}`] };
    }
  }
  return {
    outcome: 'errored',
    messages: [
      `the check returned ${describeValue(returned)}: return nothing (assert with expect), true or false, or a score { score, threshold }`,
    ],
  };
}

function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value === 'string') return `'${quotedValue(value)}' (text)`;
  if (typeof value === 'number' || typeof value === 'bigint') return `${value} (a number)`;
  return `a value of type ${typeof value}`;
}

/**
 * Run the task's check on a finished run: its assertions, its return (nothing, a verdict,
 * scores) and the scores it records with `run.score`, which land in `scores` as they come.
 */
export async function runCheck(
  input: {
    task: TaskDefinition;
    run: RunResult;
    variant: string;
    trial: number;
    testCase?: EvalCase;
  },
  scores: ScoreRecord[],
): Promise<CheckVerdict> {
  const { run, variant, trial, testCase } = input;
  const trialRun: TrialRun = {
    answer: run.answer,
    result: run,
    stats: run.stats,
    toolCalls: run.toolCalls,
    variant,
    trial,
    ...(testCase && { case: testCase }),
    score: (value, options) => {
      const record = toScoreRecord(value, options);
      addScore(scores, record);
      return record;
    },
  };
  let returned: unknown;
  try {
    returned = await input.task.check(trialRun);
  } catch (error) {
    const assertion = error instanceof Error && error.name === 'AssertionError';
    return {
      outcome: assertion ? 'failed' : 'errored',
      messages: [errorMessage(error)],
      error,
    };
  }
  return readReturn(returned, scores);
}
