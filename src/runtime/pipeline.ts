import { errorMessage } from '../core/errors.js';
import { holdsMaskedSecret } from '../core/redact.js';
import { hookTimeoutMs } from './hook-deadline.js';
import type { FactOf } from './journal/records.js';
import { toCallRecord, toolResultBlock } from './journal/run-view.js';
import { checkPermission, HARNESS_FAULT } from './pipeline-guards.js';
import { runPreToolUse } from './pre-tool-use.js';
import { inBatch } from './run-state-view.js';
import { runTool } from './run-tool.js';
import type { CallContext, Done, Finish, ToolOutcome, ToolPipelineOptions } from './tool-call.js';
import type { PermissionDecision, RunState, ToolCall, ToolDefinition } from './types.js';
import { validateInput } from './validate.js';
import { durableWrite } from './write-call.js';
import { createKeyedLock } from './write-key.js';

export type { ToolOutcome, ToolPipelineOptions } from './tool-call.js';

export interface ToolPipeline {
  readonly tools: readonly ToolDefinition[];
  /** Never rejects: user code that throws becomes a failed tool_result, a failed journal `fatal`. */
  run(call: ToolCall, run: RunState, index: number): Promise<ToolOutcome>;
  /**
   * Runs the calls at `indices` of one turn (all of them, or those a resumed run still owes).
   * Independent calls run in parallel; outcomes come back in the order of `indices`.
   */
  runAll(
    turn: readonly ToolCall[],
    indices: readonly number[],
    run: RunState,
  ): Promise<ToolOutcome[]>;
}

/**
 * The fixed-order tool pipeline: lookup -> validate -> PreToolUse hooks -> permission ->
 * approval -> execute with timeout -> PostToolUse hooks -> truncation. Any gate can stop the
 * call; the stop becomes an is_error tool_result the model can act on. So does user code that
 * throws or answers what it may not (a hook, a schema, a permission policy, an approver, an
 * idempotency key, a tool's result): the call fails closed, naming it.
 */
export function createToolPipeline(options: ToolPipelineOptions): ToolPipeline {
  const pipeline: Pipeline = {
    options,
    byName: new Map(options.tools.map((tool) => [tool.name, tool])),
    hookDeadline: { timeoutMs: hookTimeoutMs(options.hooks), signal: options.signal },
    keyLock: createKeyedLock(),
  };
  const run = (call: ToolCall, state: RunState, index: number) =>
    runCall(pipeline, call, state, index);
  return {
    tools: options.tools,
    run,
    runAll: (turn, indices, state) =>
      Promise.all(
        indices.map((index) => run(turn[index]!, inBatch(state, turn.slice(0, index)), index)),
      ),
  };
}

/** What every call of one pipeline shares. */
interface Pipeline {
  options: ToolPipelineOptions;
  byName: ReadonlyMap<string, ToolDefinition>;
  hookDeadline: CallContext['hookDeadline'];
  keyLock: CallContext['keyLock'];
}

async function runCall(
  pipeline: Pipeline,
  call: ToolCall,
  state: RunState,
  index: number,
): Promise<ToolOutcome> {
  const started = state.clock.now();
  const tool = pipeline.byName.get(call.name);
  const finish: Finish = (decision, content, isError, extra = {}) => {
    const fact: FactOf<'result'> = {
      type: 'result',
      step: state.step,
      index,
      decision,
      content,
      isError,
      ms: state.clock.now() - started,
      ...(tool && { effect: tool.effect }),
      ...(extra.write && { write: extra.write }),
    };
    const record = { ...fact, seq: 0, at: '' };
    return {
      kind: 'result',
      fact,
      record: toCallRecord(call, record),
      result: toolResultBlock(call, record),
      ...(extra.fatal !== undefined && { fatal: extra.fatal }),
    };
  };
  const held: { release?: () => void } = {};
  try {
    const known = [...pipeline.byName.keys()].join(', ');
    const ended = tool
      ? await gated(pipeline, { tool, call, state, index, finish, held })
      : finish('unknown', `Unknown tool '${call.name}'. Available tools: ${known}.`, true);
    if (ended.kind !== 'result') return ended;
    return await recorded(pipeline, call, ended);
  } catch (error) {
    // User code is caught where it is called; what gets here is the journal or a bug in the
    // pipeline itself, and whether a write ran is not known: stop the run, naming the cause.
    const cause = errorMessage(error);
    const name = tool?.name ?? call.name;
    return finish(
      'failed',
      `${name} could not be completed: the harness failed (${cause}).`,
      true,
      {
        fatal: `the tool pipeline failed on ${name}: ${cause}`,
      },
    );
  } finally {
    held.release?.();
  }
}

/** Appends the result (before a write's key is let go); a failed append makes it fatal. */
async function recorded(pipeline: Pipeline, call: ToolCall, done: Done): Promise<ToolOutcome> {
  try {
    await pipeline.options.journal?.append(done.fact);
  } catch (error) {
    const ran = done.fact.write ? ' (the write ran: a resume takes its outcome as unknown)' : '';
    const cause = `could not record the result of ${call.name}${ran}: ${errorMessage(error)}`;
    return { ...done, fatal: done.fatal ?? cause };
  }
  return done;
}

type Gated = Pick<CallContext, 'tool' | 'call' | 'state' | 'index' | 'finish' | 'held'>;

/** Validation, PreToolUse hooks and the permission check; then the call runs. */
async function gated(pipeline: Pipeline, context: Gated): Promise<ToolOutcome> {
  const { options } = pipeline;
  const { tool, call, state, finish } = context;
  let args: Record<string, unknown> = {};
  /** Takes `input` as the arguments, validated when the harness validates; a stop when invalid. */
  const take = (input: unknown): Done | undefined => {
    const checked = options.validate
      ? validateInput(tool, input)
      : { ok: true as const, args: input as Record<string, unknown> };
    if (!checked.ok) return finish(checked.broken ? 'failed' : 'invalid', checked.message, true);
    args = checked.args;
    return undefined;
  };
  // A resumed call whose arguments held a credential: the journal kept it masked. (A run
  // without a durable journal never reads arguments back, so it skips the check.)
  if (options.journal?.durable && holdsMaskedSecret(call.input)) {
    return finish(
      'invalid',
      `${tool.name} was not run: its arguments hold a masked credential of this run, not the value that was sent, so they cannot be used. Do not send credentials to tools; tell the user what you could not do.`,
      true,
    );
  }
  const invalid = take(call.input);
  if (invalid) return invalid;
  const hooked = await runPreToolUse({
    hooks: options.hooks?.preToolUse ?? [],
    deadline: pipeline.hookDeadline,
    call,
    state,
    deny: (content) => finish('hook_deny', content, true),
    updated: take,
  });
  // A hook cut off by the run's cancel (it threw its reason) did not judge the call: not run.
  if ('stop' in hooked) return options.signal?.aborted ? { kind: 'not_run' } : hooked.stop;
  const permission = permitted(options, tool, args, state, finish);
  if ('stop' in permission) return permission.stop;
  const called: CallContext = {
    ...context,
    input: hooked.input,
    args,
    permission: permission.decision,
    options,
    keyLock: pipeline.keyLock,
    hookDeadline: pipeline.hookDeadline,
  };
  return tool.effect === 'write' && options.journal?.durable
    ? durableWrite(called)
    : runTool(called);
}

/** The policy's decision (none without a policy), or the call's end on a deny or a broken policy. */
function permitted(
  options: ToolPipelineOptions,
  tool: ToolDefinition,
  args: Record<string, unknown>,
  state: RunState,
  finish: Finish,
): { decision: PermissionDecision | undefined } | { stop: Done } {
  if (!options.permissions) return { decision: undefined };
  const { permissions } = options;
  const checked = checkPermission(() => permissions.decide(tool.name, args, state));
  if (checked.ok && checked.decision.effect !== 'deny') return { decision: checked.decision };
  const why = checked.ok
    ? `${checked.decision.reason}. This call was not executed; do not retry it. Tell the user what you can and cannot do.`
    : `${checked.problem}, so the call is refused. This call was not executed. ${HARNESS_FAULT}`;
  return { stop: finish('deny', `Permission denied: ${why}`, true) };
}
