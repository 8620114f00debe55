import { approvalGate } from './approval-gate.js';
import { approvalHash, whatChanged } from './approval-value.js';
import { executeTool } from './execute-tool.js';
import { HARNESS_FAULT, runPostToolUse } from './pipeline-guards.js';
import type { CallContext, Done, ToolOutcome, WriteFields } from './tool-call.js';
import { resultText } from './tool-output.js';
import { truncateResult } from './truncate.js';
import type { Decision } from './types.js';

/**
 * Approval, then execution with its timeout, then PostToolUse hooks and truncation. (A write of
 * a durable run goes through its key instead: write-call.ts.)
 */
export async function runTool(context: CallContext): Promise<ToolOutcome> {
  const decision = await approval(context);
  if (typeof decision !== 'string') return decision;
  return execute(context, decision);
}

/**
 * `allow` / `ask_approved`, or how the call ends without running. The human answers one value
 * (approval-value.ts): a yes kept for another value (hooks or the store changed it since) does
 * not run this one, which goes back to waiting, saying what changed.
 */
export async function approval(
  context: CallContext,
  key?: string,
): Promise<Decision | ToolOutcome> {
  const { permission, options, state, tool, index, finish } = context;
  if (permission?.effect !== 'ask') return 'allow';
  const { journal } = options;
  const open = journal?.view.open;
  const value = { tool: tool.name, input: context.input, ...(key !== undefined && { key }) };
  const hash = approvalHash(value);
  const prior = open?.step === state.step ? open.approvals[index] : undefined;
  const changed = prior && prior.hash !== hash ? whatChanged(prior.value, value) : undefined;
  const verdict = await approvalGate({
    call: { ...context.call, input: context.input },
    reason: changed ? `${permission.reason}; ${changed}` : permission.reason,
    approver: options.approver,
    mode: state.mode,
    signal: options.signal,
    recorded: changed ? undefined : prior?.answer,
    asked: prior !== undefined,
    record:
      journal?.durable === true
        ? (answer) =>
            journal.append({
              type: 'approval',
              step: state.step,
              index,
              answer,
              reason: permission.reason,
              hash,
              value,
              ...(changed && { changed }),
            })
        : undefined,
  });
  if (verdict.kind === 'yes') return 'ask_approved';
  if (verdict.kind === 'stop') return finish('ask_denied', verdict.content, true);
  if (verdict.kind === 'later') return { kind: 'later', reason: permission.reason };
  return { kind: 'not_run' };
}

/** Runs the tool (unless the run was cancelled first) and shapes what it did into a result. */
async function execute(context: CallContext, decision: Decision): Promise<ToolOutcome> {
  const { tool, args, state, options, finish } = context;
  if (options.signal?.aborted) return { kind: 'not_run' };
  const executed = await executeTool(tool, args, state, undefined, options);
  if (executed.kind === 'not_run') return { kind: 'not_run' };
  if (executed.kind === 'timeout') {
    return finish(
      'timeout',
      `${tool.name} timed out after ${executed.ms} ms and was cancelled; the downstream system is not responding. Do not retry now; tell the user and suggest trying again later.`,
      true,
    );
  }
  if (executed.kind === 'failed') {
    // Cut off by the run's cancel: it did nothing the model needs to hear of; resume runs it.
    if (options.signal?.aborted) return { kind: 'not_run' };
    return failed(context, executed.message);
  }
  const text = resultText(executed.value);
  if (!text.ok) return finish('failed', `${tool.name} failed: ${text.reason}`, true);
  return respond(context, decision, text.text);
}

/** The tool's failure text, which is the tool's too ('card 6222... was declined'): hooks mask it. */
export async function failed(
  context: CallContext,
  message: string,
  write?: WriteFields,
): Promise<Done> {
  const { tool, finish } = context;
  const shown = await postToolUse(context, `${tool.name} failed: ${message}`);
  const content = shown.ok
    ? shown.text
    : `${tool.name} failed, and ${shown.problem}, so the error text is not shown. ${HARNESS_FAULT}`;
  return finish('failed', content, true, write ? { write } : {});
}

/**
 * What the model is shown of a tool's output: after every PostToolUse hook, truncated. A broken
 * hook hides it: it may have been the hook that masks it.
 */
export async function respond(
  context: CallContext,
  decision: Decision,
  output: string,
  write?: WriteFields,
): Promise<Done> {
  const { tool, options, finish } = context;
  const extra = write ? { write } : {};
  const shown = await postToolUse(context, output);
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
  const text =
    options.truncateAt === undefined ? shown.text : truncateResult(shown.text, options.truncateAt);
  return finish(decision, text, false, extra);
}

function postToolUse(context: CallContext, value: string) {
  const { options, call, input, state, hookDeadline } = context;
  return runPostToolUse(
    options.hooks?.postToolUse ?? [],
    hookDeadline,
    { ...call, input },
    value,
    state,
  );
}
