import type { HookDeadline } from './hook-deadline.js';
import type { FactOf } from './journal/records.js';
import type { RunJournal } from './journal/run-journal.js';
import type { ToolResultBlock } from './journal/run-view.js';
import type { PermissionPolicy } from './permissions.js';
import type {
  Approver,
  Decision,
  Hooks,
  PermissionDecision,
  RunState,
  ToolCall,
  ToolCallRecord,
  ToolDefinition,
} from './types.js';
import type { KeyedLock } from './write-key.js';

/** The tool pipeline's shapes: its options, how a call ends, and one call's context. */

/** What a harness turns on around the same tools. Anything left out is off (the baseline). */
export interface ToolPipelineOptions {
  tools: readonly ToolDefinition[];
  /** Validate input with the tool's zod schema before anything else sees it. */
  validate?: boolean;
  hooks?: Hooks;
  /** Without a policy every call is allowed. */
  permissions?: Pick<PermissionPolicy, 'decide'>;
  /** Asked on `ask` in interactive runs; without one, `ask` is refused. */
  approver?: Approver;
  /** Enforce each tool's `timeoutMs` (cancelling the tool through its signal). */
  timeouts?: boolean;
  /** Keep at most this many characters of a result, with a notice. */
  truncateAt?: number;
  /**
   * The run's journal: every result is appended to it. A durable one also keeps approvals (so
   * `later` can pause the run) and write-ahead intents, and answers a write whose key was made
   * or started before from what it recorded instead of running it again.
   */
  journal?: RunJournal;
  /**
   * The run's: aborted when the run is cancelled. Each hook's `run.signal` and each tool's
   * `context.signal` abort with it while their call runs.
   */
  signal?: AbortSignal;
}

/** How one call ended: with its result, waiting for a human, or not run (the run was cancelled). */
export type ToolOutcome =
  | {
      kind: 'result';
      record: ToolCallRecord;
      /** The tool_result block for the model; every call that ends gets one, denied or not. */
      result: ToolResultBlock;
      /** The result as journaled (or as it would have been, when `fatal`). */
      fact: FactOf<'result'>;
      /** Going on is unsafe (the journal failed): the run must end with this reason. */
      fatal?: string;
    }
  /** A human decides later (durable runs): nothing ran, the run pauses. */
  | { kind: 'later'; reason: string }
  /** The run was cancelled before the call ran (or while it ran, and it did nothing). */
  | { kind: 'not_run' };

/** A call that ended with a result (before it is recorded, too). */
export type Done = Extract<ToolOutcome, { kind: 'result' }>;

export type WriteFields = NonNullable<FactOf<'result'>['write']>;

export type Finish = (
  decision: Decision,
  content: string,
  isError: boolean,
  extra?: { write?: WriteFields; fatal?: string },
) => Done;

/** One call past its permission check. */
export interface CallContext {
  tool: ToolDefinition;
  call: ToolCall;
  state: RunState;
  index: number;
  /** The input after the PreToolUse hooks (what the approver sees). */
  input: unknown;
  /** The arguments the tool runs with (validated when the harness validates). */
  args: Record<string, unknown>;
  permission: PermissionDecision | undefined;
  options: ToolPipelineOptions;
  finish: Finish;
  keyLock: KeyedLock;
  hookDeadline: HookDeadline;
  /** A write's key, held until its result is recorded. */
  held: { release?: () => void };
}
