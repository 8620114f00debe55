import { errorMessage } from '../core/errors.js';
import { APPROVAL_CANCELLED, approvalGate } from './approval-gate.js';
import { clearNotRun, notRunMessage } from './cancelled-call.js';
import { executeTool } from './execute-tool.js';
import { hookTimeoutMs } from './hook-deadline.js';
import { createKeyedQueue, idempotencyKeyFor, type WriteLog } from './idempotency.js';
import { pausedCallAnswer } from './paused-batch.js';
import type { PermissionPolicy } from './permissions.js';
import { checkPermission, HARNESS_FAULT, logged, runPostToolUse } from './pipeline-guards.js';
import { runPreToolUse } from './pre-tool-use.js';
import type { NotMadeAnswer } from './run-snapshot.js';
import { inBatch } from './run-state-view.js';
import { resultText } from './tool-output.js';
import { truncateResult } from './truncate.js';
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
import { validateInput } from './validate.js';
import {
  stoppedWrite,
  timedOutMessage,
  unknownOutcomeMessage,
  writeAttempt,
} from './write-attempt.js';

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
   * Record every executed write here, and answer a write whose key is already recorded with
   * the recorded result instead of running it again (resumed and retried runs).
   */
  writes?: WriteLog;
  /**
   * The run's: aborted when the run is cancelled. Each hook's `run.signal` and each tool's
   * `context.signal` abort with it while their call runs.
   */
  signal?: AbortSignal;
  /** The approver may answer `'defer'`: the outcome is marked `deferred` (the run can pause). */
  canDefer?: boolean;
  /**
   * A paused batch run again: its calls (by tool_use id) that reached the write log before the
   * pause, with their write keys. They ran already, so they are answered from the log (the
   * recorded result, or an unknown outcome) without passing validation, hooks, permission and
   * approval again: a gate that now refuses or breaks would tell the model they did not run.
   */
  madeBeforePause?: ReadonlyMap<string, string>;
  /**
   * A paused batch run again: its writes that ran before the pause and did not take effect, by
   * tool_use id as kept at rest. Each is answered by what the write log says now
   * (pausedCallAnswer): the answer it had unless a human said retry or done since.
   */
  notMadeBeforePause?: ReadonlyMap<string, NotMadeAnswer>;
}

export interface ToolOutcome {
  record: ToolCallRecord;
  /** The tool_result block for the model; every call gets one, denied or not. */
  result: { type: 'tool_result'; tool_use_id: string; content: string; is_error?: boolean };
  /** The approver deferred the decision (the reason a human is asked); nothing was executed. */
  deferred?: string;
  /**
   * Going on is unsafe (the write log failed): the run must end with this reason. The record
   * still says what happened to the call, so it stays in the history, stats and trace.
   */
  fatal?: string;
  /** The key of the write this call made, started or was answered with from the write log. */
  writeKey?: string;
  /**
   * A write that ran and did not take effect: its intent was cleared, so the write log would let
   * it run again. A batch that pauses keeps its answer for resume (`notMadeBeforePause`).
   */
  notMade?: true;
}

export interface ToolPipeline {
  readonly tools: readonly ToolDefinition[];
  /** Never rejects: user code that throws becomes a failed tool_result, a failed write log `fatal`. */
  run(call: ToolCall, run: RunState): Promise<ToolOutcome>;
  /** Independent calls of one turn run in parallel; outcomes come back in call order. */
  runAll(calls: readonly ToolCall[], run: RunState): Promise<ToolOutcome[]>;
}

/** Ends a call: its record and the tool_result the model reads. */
type Finish = (
  decision: Decision,
  content: string,
  isError: boolean,
  extra?: { replayed?: boolean; deferred?: string; fatal?: string; notMade?: true },
) => ToolOutcome;

/**
 * The fixed-order tool pipeline: lookup -> validate -> PreToolUse hooks ->
 * permission -> execute with timeout -> PostToolUse hooks -> truncation.
 * Any gate can stop the call; the stop becomes an is_error tool_result the model can act on.
 * So does user code that throws or answers what it may not (a hook, a schema, a permission
 * policy, an approver, an idempotency key, a tool's result): the call fails closed, naming it.
 */
export function createToolPipeline(options: ToolPipelineOptions): ToolPipeline {
  const byName = new Map(options.tools.map((tool) => [tool.name, tool]));
  const hookDeadline = { timeoutMs: hookTimeoutMs(options.hooks), signal: options.signal };
  const oneWriteAtATime = createKeyedQueue();

  async function run(call: ToolCall, state: RunState): Promise<ToolOutcome> {
    const started = state.clock.now();
    const tool = byName.get(call.name);
    const finish: Finish = (decision, content, isError, extra = {}) => {
      const record: ToolCallRecord = {
        step: state.step,
        id: call.id,
        tool: call.name,
        input: call.input,
        decision,
        isError,
        ms: state.clock.now() - started,
        resultChars: content.length,
        effect: tool?.effect,
        ...(extra.replayed && { replayed: true }),
      };
      const result = { type: 'tool_result' as const, tool_use_id: call.id, content };
      return {
        record,
        result: isError ? { ...result, is_error: true } : result,
        ...(extra.deferred !== undefined && { deferred: extra.deferred }),
        ...(extra.fatal !== undefined && { fatal: extra.fatal }),
        ...(extra.notMade && { notMade: true as const }),
      };
    };

    if (!tool) {
      const known = [...byName.keys()].join(', ');
      return finish('unknown', `Unknown tool '${call.name}'. Available tools: ${known}.`, true);
    }
    try {
      return await gated(tool, call, state, finish);
    } catch (error) {
      // User code is caught where it is called; what gets here is the write log or a bug in the
      // pipeline itself, and whether a write ran is not known: stop the run, naming the cause.
      const cause = errorMessage(error);
      return finish(
        'failed',
        `${tool.name} could not be completed: the harness failed (${cause}).`,
        true,
        { fatal: `the tool pipeline failed on ${tool.name}: ${cause}` },
      );
    }
  }

  async function gated(
    tool: ToolDefinition,
    call: ToolCall,
    state: RunState,
    finish: Finish,
  ): Promise<ToolOutcome> {
    const validated = (input: unknown) => {
      const checked = validateInput(tool, input);
      if (checked.ok) return checked;
      return finish(checked.broken ? 'failed' : 'invalid', checked.message, true);
    };

    let input = call.input;
    let args = input as Record<string, unknown>;
    /**
     * PostToolUse hooks see everything that came from the tool: its output or its failure text.
     * A broken one hides it: it may have been the hook that masks it.
     */
    const postToolUse = (value: string) =>
      runPostToolUse(
        options.hooks?.postToolUse ?? [],
        hookDeadline,
        { ...call, input },
        value,
        state,
      );
    const respond = async (decision: Decision, value: string, replayed?: boolean) => {
      const shown = await postToolUse(value);
      const extra = replayed ? { replayed } : {};
      if (!shown.ok) {
        // The call ran: its decision stays, so a write that was made is counted as made.
        const made = tool.effect === 'write' ? ' The write was made: do not make it again.' : '';
        return finish(
          decision,
          `${tool.name} ran, but ${shown.problem}, so its result is not shown.${made} ${HARNESS_FAULT}`,
          true,
          extra,
        );
      }
      const output =
        options.truncateAt === undefined
          ? shown.text
          : truncateResult(shown.text, options.truncateAt);
      return finish(decision, output, false, extra);
    };

    /** The write log's answer for a write it knows, so that the write is not run (again). */
    const fromLog = (key: string): ToolOutcome | Promise<ToolOutcome> | undefined => {
      // Already executed (before a crash or a pause, or earlier in this run): the same answer.
      const recorded = options.writes?.get(key);
      if (recorded) return respond(recorded.decision, recorded.output, true);
      // Started before without a recorded outcome (timed out, interrupted): never run it twice.
      const unresolved = options.writes?.unresolved(key);
      if (!unresolved) return undefined;
      return finish('outcome_unknown', unknownOutcomeMessage(tool.name, unresolved), true);
    };

    // It ran before the pause: answered as the write log and the checkpoint say, not run again.
    const paused = pausedCallAnswer({ id: call.id, tool: tool.name }, options);
    if (paused?.kind === 'answer') {
      const { decision, content, notMade, key } = paused;
      const answered = finish(decision, content, true, notMade ? { notMade } : {});
      return key === undefined ? answered : { ...answered, writeKey: key };
    }
    if (paused) {
      const answered = await oneWriteAtATime(paused.key, async () => fromLog(paused.key));
      if (answered) return { ...answered, writeKey: paused.key };
    }

    if (options.validate) {
      const checked = validated(input);
      if (!('ok' in checked)) return checked;
      args = checked.args;
    }

    const hooked = await runPreToolUse({
      hooks: options.hooks?.preToolUse ?? [],
      deadline: hookDeadline,
      call,
      state,
      deny: (content) => finish('hook_deny', content, true),
      updated: (updated) => {
        if (!options.validate) {
          args = updated as Record<string, unknown>;
          return undefined;
        }
        const checked = validated(updated);
        if (!('ok' in checked)) return checked;
        args = checked.args;
        return undefined;
      },
    });
    if ('stop' in hooked) return hooked.stop;
    input = hooked.input;

    let permission: PermissionDecision | undefined;
    if (options.permissions) {
      const { permissions } = options;
      const checked = checkPermission(() => permissions.decide(tool.name, args, state));
      if (!checked.ok) {
        return finish(
          'deny',
          `Permission denied: ${checked.problem}, so the call is refused. This call was not executed. ${HARNESS_FAULT}`,
          true,
        );
      }
      permission = checked.decision;
      if (permission.effect === 'deny') {
        return finish(
          'deny',
          `Permission denied: ${permission.reason}. This call was not executed; do not retry it. Tell the user what you can and cannot do.`,
          true,
        );
      }
    }

    let writeKey: string | undefined;
    if (tool.effect === 'write' && options.writes) {
      try {
        writeKey = idempotencyKeyFor(tool, args, state);
      } catch (error) {
        // Without a key the write log cannot keep this write from running twice.
        return finish(
          'failed',
          `${tool.name} was not executed: its idempotency key could not be made from these arguments (${errorMessage(error)}), and without one the write could run twice. Check the arguments against the tool's schema and call it again.`,
          true,
        );
      }
    }

    // Set once the write log answered this call or logged its intent: the write may have run.
    const reached = { log: false };
    const outcome = await oneWriteAtATime(writeKey, async () => {
      const answered = writeKey === undefined ? undefined : fromLog(writeKey);
      if (answered) {
        reached.log = true;
        return answered;
      }

      let decision: Decision = 'allow';
      if (permission?.effect === 'ask') {
        const stop = await approvalGate({
          tool: tool.name,
          call: { ...call, input },
          reason: permission.reason,
          approver: options.approver,
          mode: state.mode,
          canDefer: options.canDefer,
          signal: options.signal,
        });
        if (stop === APPROVAL_CANCELLED) return finish('cancelled', notRunMessage(tool.name), true);
        if (stop) {
          const extra = stop.deferred === undefined ? {} : { deferred: stop.deferred };
          return finish('ask_denied', stop.content, true, extra);
        }
        decision = 'ask_approved';
      }

      if (options.signal?.aborted) return finish('cancelled', notRunMessage(tool.name), true);
      const key = writeKey === undefined ? undefined : `${state.runId}/${writeKey}`;
      const attempt =
        writeKey === undefined || !options.writes
          ? undefined
          : writeAttempt(options.writes, {
              key: writeKey,
              tool: tool.name,
              input: args,
              decision,
              run: state,
            });
      try {
        await attempt?.intend();
      } catch (error) {
        const cause = errorMessage(error);
        return finish(
          'failed',
          `${tool.name} was not executed: the harness failed (${cause}).`,
          true,
          {
            fatal: `could not log the intent of ${tool.name} (write ${writeKey}) before running it: ${cause}; it was not run`,
          },
        );
      }
      reached.log = attempt !== undefined;
      const executed = await executeTool(tool, args, state, key, options);
      if (executed.kind === 'not_run') {
        const extra = await clearNotRun(tool.name, attempt, writeKey);
        return finish('cancelled', notRunMessage(tool.name), true, extra);
      }
      // Its signal aborted after it started: it may have written first, unless it says not.
      const stopped = attempt && (await stoppedWrite(tool.name, attempt, executed, writeKey));
      if (stopped) return finish(stopped.decision, stopped.content, true, stopped);
      if (executed.kind === 'timeout') {
        return finish('timeout', timedOutMessage(tool.name, executed.ms, false), true);
      }
      if (executed.kind === 'failed') {
        const cleared = await logged(() => attempt?.failed());
        // The error text is the tool's too (e.g. 'card 6222... was declined'): hooks mask it.
        const shown = await postToolUse(`${tool.name} failed: ${executed.message}`);
        const content = shown.ok
          ? shown.text
          : `${tool.name} failed, and ${shown.problem}, so the error text is not shown. ${HARNESS_FAULT}`;
        return finish('failed', content, true, {
          ...(cleared !== undefined && {
            fatal: `${tool.name} failed, and the write log could not record that write ${writeKey} did not take effect: ${cleared}; it is left with an unknown outcome for a human to resolve`,
          }),
          ...(cleared === undefined && tool.effect === 'write' && { notMade: true }),
        });
      }

      const text = resultText(executed.value);
      // A write that ran is logged even when its result cannot be shown: it must not run again.
      const unlogged = await logged(() =>
        attempt?.done(text.ok ? text.text : `(the write was made, but ${text.reason})`),
      );
      const outcome = text.ok
        ? await respond(decision, text.text)
        : finish('failed', `${tool.name} failed: ${text.reason}`, true);
      if (unlogged === undefined) return outcome;
      return {
        ...outcome,
        fatal: `${tool.name} ran, but its outcome could not be logged (write ${writeKey}): ${unlogged}; it is left with an unknown outcome, so a resumed run will not make it again: a human must resolve it`,
      };
    });
    return reached.log && writeKey !== undefined ? { ...outcome, writeKey } : outcome;
  }

  return {
    tools: options.tools,
    run,
    runAll: (calls, state) =>
      Promise.all(calls.map((call, index) => run(call, inBatch(state, calls.slice(0, index))))),
  };
}
