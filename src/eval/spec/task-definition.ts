import type { RunResult } from '../../runtime/run-agent.js';
import type { Approver, RunMode, RunStats, ToolCallRecord } from '../../runtime/types.js';
import type { Policy } from '../../simulator/policy.js';
import type { AgentSpec } from './agent-spec.js';
import type { CaseSource, EvalCase } from './cases.js';
import type { JudgeCheck } from './judge.js';
import type { Score, ScoreRecord } from './score.js';
import type { Floor } from './trial-record.js';

/** What a task's checks see: the run, as the harness produced it. */
export interface TrialRun {
  answer: string;
  result: RunResult;
  stats: RunStats;
  toolCalls: readonly ToolCallRecord[];
  variant: string;
  trial: number;
  /**
   * Record a score in 0..1 for this trial (a trajectory match, a similarity): kept even when an
   * assertion after it fails. The trial fails when a score is below its threshold (default 1).
   */
  score(value: Score | number, options?: Partial<Score>): ScoreRecord;
  /** The dataset case this trial ran (a task over `cases`): its input, expected values and metadata. */
  case?: EvalCase;
}

export interface TaskDefinition {
  agent: AgentSpec;
  id: string;
  title: string;
  /**
   * What the agent is asked. A task over `cases` takes each case's `input` (text), or makes the
   * prompt of a case with a function: `prompt: (testCase) => ...`.
   */
  prompt?: string | ((testCase: EvalCase) => string);
  /**
   * A dataset: the task runs once per case (and variant and trial), each case with its own
   * cassettes (fixtures/<task>/<variant>/<case>/trial-<n>.json). Inline cases, or a committed
   * `.jsonl`, `.csv`, `.yaml` or `.json` file (a path from the project root, or a file URL).
   */
  cases?: CaseSource;
  /** Defaults to every variant of the agent. */
  variants?: readonly string[];
  /** Minimums the gate enforces, e.g. `{ variant: 'upgraded', passAt1: 0.6 }`. */
  floors?: Floor[];
  mode?: RunMode;
  approver?: Approver;
  /** The offline model for `record --simulated`; overrides the agent's. */
  modelScript?: Policy;
  /** Model-graded checks (defineJudge): the trial passes only when each judge's majority says pass. */
  judges?: readonly JudgeCheck[];
  /**
   * Code assertions with vitest `expect`; a thrown assertion fails the trial. A check may also
   * be a predicate: returning `false` (or a promise of it) fails the trial, `true` or nothing
   * passes it. It may return a score (or several), `{ score, threshold }`: the trial fails when
   * one is below its threshold. Any other value errors it (a broken check is not a verdict).
   */
  check(
    run: TrialRun,
  ): void | boolean | CheckScores | Promise<void> | Promise<boolean> | Promise<CheckScores>;
}

/** Scores in 0..1 a check may return, one or several. */
export type CheckScores = Score | readonly Score[];
