import { existsSync } from 'node:fs';
import type { RunResult } from '../../runtime/run-agent.js';
import type { EvalCase } from '../spec/cases.js';
import { withoutStaleLabels } from '../spec/human-labels.js';
import { type JudgmentRecord, reasoningOf } from '../spec/judgment.js';
import type { ScoreRecord } from '../spec/score.js';
import type { EvalSettings } from '../spec/settings.js';
import type { TaskDefinition } from '../spec/task-definition.js';
import type { TrialRecord } from '../spec/trial-record.js';
import { judgeRerecordCommand } from '../trial/rerecord.js';
import { simulatorSeed } from '../trial/simulator-seed.js';
import { promptOf } from '../trial/trial-driver.js';
import { judgeCassettePath } from './judge-cassette.js';
import type { JudgeMode, JudgeTrialResult } from './judge-trial.js';
import { type CheckVerdict, runCheck } from './run-check.js';

export interface GradeInput {
  task: TaskDefinition;
  variant: string;
  trial: number;
  settings: EvalSettings;
  /** The trial's record before grading (its run finished). */
  record: TrialRecord;
  run: RunResult;
  /** The agent's cassette was recorded in this run (not replayed). */
  agentRecorded: boolean;
  /** The dataset case, for a task over cases: its judges ask about it, its check gets it. */
  testCase?: EvalCase;
}

export interface Graded {
  record: TrialRecord;
  /** A stale or missing judge cassette: the test is skipped with this message. */
  skip?: string;
  /** What fails the test: an assertion, a broken check, a low score, a judge's fail or error. */
  error?: unknown;
}

/** The judge hash of a trial whose judge was asked live and not recorded: never the same as another. */
export const UNRECORDED_JUDGE = 'unrecorded';

function judgeModeOf(input: GradeInput, file: string): JudgeMode {
  const { settings } = input;
  if (settings.mode !== 'record') return settings.judge.mode;
  // Recording: the judge is recorded with a new agent recording, with --judge-only, and when
  // missing; --missing-only keeps a judge cassette whose agent cassette was kept too.
  const keep = settings.missingOnly && !input.agentRecorded && !settings.judge.only;
  return keep && existsSync(file) ? 'replay' : 'record';
}

async function runJudges(input: GradeInput): Promise<JudgeTrialResult> {
  const { task, variant, trial, settings, run, testCase } = input;
  const judges = task.judges ?? [];
  if (judges.length === 0) return { judgments: [] };
  // Loaded when a task judges: a run without judges never loads the judge stack.
  const { judgeTrial } = await import('./judge-trial.js');
  const caseId = testCase?.id;
  const file = judgeCassettePath(settings.fixturesDir, task.id, variant, trial, caseId);
  return judgeTrial(
    judges,
    {
      prompt: promptOf(input),
      answer: run.answer,
      toolCalls: run.toolCalls,
      messages: run.messages,
    },
    {
      mode: judgeModeOf(input, file),
      context: {
        file,
        label: { suite: task.agent.suite, task: task.id, variant, trial, case: caseId },
        rerecordCommand: judgeCommandOf(input),
      },
      models: settings.judge.models,
      samples: settings.judge.samples,
      source: settings.mode === 'record' && settings.judge.offline ? 'simulator' : settings.source,
      ...(settings.judge.offline === 'script' && { scriptOnly: true }),
      variant,
      trial,
      seed: simulatorSeed({ task: task.id, variant, trial, ...(caseId && { case: caseId }) }),
    },
  );
}

/** The judges answer offline: recording --simulated, --judge-simulated or --judge-script; else as the agent was recorded. */
function judgeSimulated({ settings, record }: GradeInput): boolean {
  return settings.mode === 'record'
    ? settings.source === 'simulator' || settings.judge.offline !== undefined
    : record.source === 'simulator';
}

/** The command that records this trial's judge alone, with the judge settings of this run. */
function judgeCommandOf(input: GradeInput): string {
  const { task, variant, trial, testCase, settings } = input;
  return judgeRerecordCommand(
    { task: task.id, variant, trial, case: testCase?.id },
    judgeSimulated(input),
    settings.judge,
  );
}

/**
 * A recording whose judge calls were not written (an API error, no verdict, a timeout, a
 * missing key, a credential in an answer): the line says what was kept, what was not, and the
 * command that records the judge alone. The old judge cassette, if any, is as it was.
 */
function judgeNotRecorded(input: GradeInput, graded: Graded, reason: string): Graded {
  const kept = input.agentRecorded
    ? `the agent's cassette ${input.record.fixture} was recorded and is kept; `
    : '';
  const message = `${kept}the judge's calls were not recorded, nothing written for them (${reason}); record only the judge: ${judgeCommandOf(input)}`;
  return {
    record: {
      ...graded.record,
      outcome: 'judge_error',
      messages: [message, ...graded.record.messages],
    },
    error: new Error(message),
  };
}

/** The judged checks' mean scores, beside the check's own. */
function judgeScores(judgments: readonly JudgmentRecord[]): ScoreRecord[] {
  return judgments.flatMap((judgment) =>
    judgment.score === null || judgment.verdict === 'error'
      ? []
      : [
          {
            name: judgment.check,
            value: judgment.score,
            threshold: judgment.threshold,
            passed: judgment.verdict === 'pass',
            source: 'judge' as const,
          },
        ],
  );
}

/**
 * Grade one trial whose run finished: the task's check (assertions, a predicate, scores), then
 * every judged check, always (a failed check still gets judged, so judge agreement and mean
 * scores see every trial). The outcome: stale or missing when the judge cassette is; errored
 * when the check is broken; failed on a failed assertion, a score below its threshold or a
 * judge's fail; judge_error when the check passed but a judge gave no usable verdict.
 */
export async function gradeTrial(input: GradeInput): Promise<Graded> {
  const scores: ScoreRecord[] = [];
  const checked = await runCheck(input, scores);
  const judged = await runJudges(input);
  // A label keyed to a cassette this trial did not run on is stale: not compared.
  judged.judgments = withoutStaleLabels(judged.judgments, input.task.judges ?? [], input.record);
  const allScores = [...scores, ...judgeScores(judged.judgments)];
  const judgeCassetteHash =
    judged.judgments.length === 0 ? undefined : (judged.hash ?? UNRECORDED_JUDGE);
  const record: TrialRecord = {
    ...input.record,
    ...(judgeCassetteHash !== undefined && { judgeCassetteHash }),
    ...(allScores.length > 0 && { scores: allScores }),
    ...(judged.judgments.length > 0 && { judgments: judged.judgments }),
  };
  if (judged.problem) {
    const outcome = judged.problem.code === 'fixture_missing' ? 'missing' : 'stale';
    const message = judged.problem.message;
    // The report builds the command that re-records the judge alone from this.
    return {
      record: { ...record, outcome, messages: [message], staleCassette: 'judge' },
      skip: message,
    };
  }
  const decided = decide(record, checked, scores, judged);
  return judged.unrecorded === undefined
    ? decided
    : judgeNotRecorded(input, decided, judged.unrecorded);
}

function decide(
  record: TrialRecord,
  checked: CheckVerdict,
  scores: readonly ScoreRecord[],
  judged: JudgeTrialResult,
): Graded {
  if (checked.outcome === 'errored') {
    const message = checked.messages[0]!;
    return {
      record: { ...record, outcome: 'errored', messages: checked.messages },
      error: checked.error ?? new Error(message),
    };
  }
  const low = scores
    .filter((score) => !score.passed)
    .map(
      (score) =>
        `score '${score.name}' ${score.value.toFixed(2)} does not pass${score.message ? `: ${score.message}` : ` (threshold ${score.threshold.toFixed(2)})`}`,
    );
  const judgeErrors = judged.judgments.flatMap((judgment) =>
    judgment.samples.flatMap((sample) =>
      sample.error === undefined
        ? []
        : [`judge '${judgment.check}' (${sample.model}, sample ${sample.sample}): ${sample.error}`],
    ),
  );
  const fails = judged.judgments
    .filter((judgment) => judgment.verdict === 'fail')
    .map((judgment) => {
      const reason = reasoningOf(judgment);
      return `judge '${judgment.check}' says fail (${judgment.votes.pass} of ${judgment.votes.pass + judgment.votes.fail} votes pass; a tie is a fail)${reason ? `: ${reason}` : ''}`;
    });
  const failures = [...checked.messages, ...low, ...fails];
  if (checked.outcome === 'failed' || low.length > 0 || fails.length > 0) {
    return {
      record: { ...record, outcome: 'failed', messages: [...failures, ...judgeErrors] },
      error: checked.error ?? new Error(failures[0]),
    };
  }
  if (judgeErrors.length > 0) {
    return {
      record: { ...record, outcome: 'judge_error', messages: judgeErrors },
      error: new Error(judgeErrors[0]),
    };
  }
  return { record: { ...record, outcome: 'passed', messages: [] } };
}
