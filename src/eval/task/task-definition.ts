import type { RunResult } from '../../runtime/run-agent.js';
import type { Approver, RunMode, RunStats, ToolCallRecord } from '../../runtime/types.js';
import type { Policy } from '../../simulator/policy.js';
import type { Floor } from '../trial/trial-record.js';
import type { AgentSpec } from './agent-spec.js';

/** What a task's checks see: the run, as the harness produced it. */
export interface TrialRun {
  answer: string;
  result: RunResult;
  stats: RunStats;
  toolCalls: readonly ToolCallRecord[];
  variant: string;
  trial: number;
}

export interface TaskDefinition {
  agent: AgentSpec;
  id: string;
  title: string;
  prompt: string;
  /** Defaults to every variant of the agent. */
  variants?: readonly string[];
  /** Minimums the gate enforces, e.g. `{ variant: 'upgraded', passAt1: 0.6 }`. */
  floors?: Floor[];
  mode?: RunMode;
  approver?: Approver;
  /** The offline model for `record --simulated`; overrides the agent's. */
  modelScript?: Policy;
  /**
   * Code assertions with vitest `expect`; a thrown assertion fails the trial. A check may also
   * be a predicate: returning `false` (or a promise of it) fails the trial, `true` or nothing
   * passes it, and any other value errors it (a broken check is not a verdict).
   */
  check(run: TrialRun): void | boolean | Promise<void> | Promise<boolean>;
}
