import { errorMessage, ToolTimeoutError } from '../core/errors.js';
import { createKeyedQueue, idempotencyKeyFor, type WriteLog } from './idempotency.js';
import type { PermissionPolicy } from './permissions.js';
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
  type LateOutcome,
  timedOutWriteMessage,
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
  /** The approver may answer `'defer'`: the outcome is marked `deferred` (the run can pause). */
  canDefer?: boolean;
}

export interface ToolOutcome {
  record: ToolCallRecord;
  /** The tool_result block for the model; every call gets one, denied or not. */
  result: { type: 'tool_result'; tool_use_id: string; content: string; is_error?: boolean };
  /** The approver deferred the decision (the reason a human is asked); nothing was executed. */
  deferred?: string;
}

export interface ToolPipeline {
  readonly tools: readonly ToolDefinition[];
  run(call: ToolCall, run: RunState): Promise<ToolOutcome>;
  /** Independent calls of one turn run in parallel; outcomes come back in call order. */
  runAll(calls: readonly ToolCall[], run: RunState): Promise<ToolOutcome[]>;
}

/**
 * The fixed-order tool pipeline: lookup -> validate -> PreToolUse hooks ->
 * permission -> execute with timeout -> PostToolUse hooks -> truncation.
 * Any gate can stop the call; the stop becomes an is_error tool_result the model can act on.
 */
export function createToolPipeline(options: ToolPipelineOptions): ToolPipeline {
  const byName = new Map(options.tools.map((tool) => [tool.name, tool]));
  const oneWriteAtATime = createKeyedQueue();

  async function run(call: ToolCall, state: RunState): Promise<ToolOutcome> {
    const started = state.clock.now();
    const tool = byName.get(call.name);
    const finish = (
      decision: Decision,
      content: string,
      isError: boolean,
      extra: { replayed?: boolean; deferred?: string } = {},
    ): ToolOutcome => {
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
      };
    };

    if (!tool) {
      const known = [...byName.keys()].join(', ');
      return finish('unknown', `Unknown tool '${call.name}'. Available tools: ${known}.`, true);
    }

    let input = call.input;
    let args = input as Record<string, unknown>;
    if (options.validate) {
      const checked = validateInput(tool, input);
      if (!checked.ok) return finish('invalid', checked.message, true);
      args = checked.args;
    }

    for (const hook of options.hooks?.preToolUse ?? []) {
      const verdict = await hook({ ...call, input }, state);
      if (verdict?.decision === 'deny') {
        return finish(
          'hook_deny',
          `Blocked: ${verdict.reason ?? `a hook refused ${tool.name}`}`,
          true,
        );
      }
      if (verdict?.updatedInput !== undefined) {
        input = verdict.updatedInput;
        const checked = options.validate ? validateInput(tool, input) : undefined;
        if (checked && !checked.ok) return finish('invalid', checked.message, true);
        args = checked?.ok ? checked.args : (input as Record<string, unknown>);
      }
    }

    let permission: PermissionDecision | undefined;
    if (options.permissions) {
      permission = options.permissions.decide(tool.name, args, state);
      if (permission.effect === 'deny') {
        return finish(
          'deny',
          `Permission denied: ${permission.reason}. This call was not executed; do not retry it. Tell the user what you can and cannot do.`,
          true,
        );
      }
    }

    const writeKey =
      tool.effect === 'write' && options.writes ? idempotencyKeyFor(tool, args, state) : undefined;
    /** PostToolUse hooks see everything that came from the tool: its output or its failure text. */
    const postToolUse = async (value: string) => {
      let output = value;
      for (const hook of options.hooks?.postToolUse ?? [])
        output = await hook({ ...call, input }, output, state);
      return output;
    };
    const respond = async (decision: Decision, value: string, replayed?: boolean) => {
      let output = await postToolUse(value);
      if (options.truncateAt !== undefined) output = truncateResult(output, options.truncateAt);
      return finish(decision, output, false, replayed ? { replayed } : {});
    };

    return oneWriteAtATime(writeKey, async () => {
      const recorded = writeKey === undefined ? undefined : options.writes?.get(writeKey);
      // Already executed (before a crash, or earlier in this run): the same answer, no second write.
      if (recorded) return respond(recorded.decision, recorded.output, true);
      // Started before without a recorded outcome (timed out, interrupted): never run it twice.
      const unresolved = writeKey === undefined ? undefined : options.writes?.unresolved(writeKey);
      if (unresolved) {
        return finish('outcome_unknown', unknownOutcomeMessage(tool.name, unresolved), true);
      }

      let decision: Decision = 'allow';
      if (permission?.effect === 'ask') {
        if (state.mode === 'unattended' || !options.approver) {
          return finish(
            'ask_denied',
            `${tool.name} needs a human's approval (${permission.reason}) and ${state.mode === 'unattended' ? 'this run is unattended' : 'no one can approve it'}, so it was not executed. Tell the user a human agent will follow up.`,
            true,
          );
        }
        const answer = await options.approver({ ...call, input }, permission.reason);
        if (answer === 'defer') {
          return options.canDefer
            ? finish('ask_denied', `${tool.name} is waiting for a human's approval.`, true, {
                deferred: permission.reason,
              })
            : finish(
                'ask_denied',
                `${tool.name} needs a human's approval (${permission.reason}) and no one can approve it now, so it was not executed. Tell the user a human agent will follow up.`,
                true,
              );
        }
        if (!answer) {
          return finish(
            'ask_denied',
            `The user declined ${tool.name}; it was not executed. Use another approach.`,
            true,
          );
        }
        decision = 'ask_approved';
      }

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
      await attempt?.intend();
      const executed = await execute(tool, args, state, options.timeouts ?? false, key);
      if (executed.kind === 'timeout' && attempt) {
        attempt.settleLate(executed.late);
        return finish('timeout', timedOutWriteMessage(tool.name, executed.ms), true);
      }
      if (executed.kind === 'timeout') {
        return finish(
          'timeout',
          `${tool.name} timed out after ${executed.ms} ms and was cancelled; the downstream system is not responding. Do not retry now; tell the user and suggest trying again later.`,
          true,
        );
      }
      if (executed.kind === 'failed') {
        await attempt?.failed();
        // The error text is the tool's too (e.g. 'card 6222... was declined'): hooks mask it.
        return finish(
          'failed',
          await postToolUse(`${tool.name} failed: ${executed.message}`),
          true,
        );
      }

      const text = resultText(executed.value);
      // A write that ran is logged even when its result cannot be shown: it must not run again.
      await attempt?.done(text.ok ? text.text : `(the write was made, but ${text.reason})`);
      if (!text.ok) return finish('failed', `${tool.name} failed: ${text.reason}`, true);
      return respond(decision, text.text);
    });
  }

  return {
    tools: options.tools,
    run,
    runAll: (calls, state) =>
      Promise.all(calls.map((call, index) => run(call, inBatch(state, calls.slice(0, index))))),
  };
}

/** The run as one call of a batch sees it: everything live from `state`, plus its predecessors. */
function inBatch(state: RunState, earlierInBatch: readonly ToolCall[]): RunState {
  // A prototype link, not a copy: getters such as `step` stay live.
  return Object.create(state, { earlierInBatch: { value: earlierInBatch, enumerable: true } });
}

type Executed =
  | { kind: 'ok'; value: unknown }
  | { kind: 'failed'; message: string }
  | { kind: 'timeout'; ms: number; late: LateOutcome };

async function execute(
  tool: ToolDefinition,
  args: Record<string, unknown>,
  state: RunState,
  enforceTimeout: boolean,
  idempotencyKey: string | undefined,
): Promise<Executed> {
  const controller = new AbortController();
  const timeoutMs = enforceTimeout ? tool.timeoutMs : undefined;
  // On a virtual clock a tool doing real I/O would lose the race to its own timeout: time
  // stands still while it works, and moves while it sleeps on the clock it is given.
  const hold = timeoutMs === undefined ? undefined : state.clock.hold?.();
  const clock = hold?.clock ?? state.clock;
  const work = (async () =>
    tool.execute(args as never, {
      signal: controller.signal,
      clock,
      // A prototype link, not a copy: getters such as `step` stay live.
      run: hold ? Object.create(state, { clock: { value: clock, enumerable: true } }) : state,
      ...(idempotencyKey !== undefined && { idempotencyKey }),
    }))().then(
    (value): Executed => ({ kind: 'ok', value }),
    (error: unknown): Executed => ({ kind: 'failed', message: errorMessage(error) }),
  );
  if (timeoutMs === undefined) return work;

  const timer = new AbortController();
  const timeout = state.clock.sleep(timeoutMs, timer.signal).then(
    (): Executed => ({ kind: 'timeout', ms: timeoutMs, late: work as LateOutcome }),
    (): Executed => ({ kind: 'failed', message: 'timer cancelled' }),
  );
  // Held work that has not settled after its timeout in real time (a hung connection, a
  // promise that never settles) stops holding: the clock moves to the deadline, it times out.
  const realDeadline = hold && setTimeout(() => hold.release(), timeoutMs);
  const outcome = await Promise.race([work, timeout]);
  clearTimeout(realDeadline);
  hold?.release();
  if (outcome.kind === 'timeout') {
    // Cancel the tool, not abandon it: its signal fires and its own waits end.
    controller.abort(new ToolTimeoutError(tool.name, timeoutMs));
  } else {
    timer.abort(TIMER_NOT_NEEDED);
  }
  return outcome;
}

/** A shared abort reason: `abort()` without one builds a DOMException, stack and all, per call. */
const TIMER_NOT_NEEDED = new Error('the tool settled before its timeout');
