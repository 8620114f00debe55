import { errorMessage } from '../core/errors.js';
import { redactText } from '../core/redact.js';
import { valueKind } from '../core/value-kind.js';
import { callHook, type HookDeadline } from './hook-deadline.js';
import type {
  ApprovalAnswer,
  PermissionDecision,
  PostToolUseHook,
  PreToolUseResult,
  RunState,
  ToolCall,
} from './types.js';

/**
 * Checks on what user code hands the tool pipeline (hooks, permission policies, approvers).
 * User code is untrusted in the same way a tool is: a throw or an answer it may not give is a
 * broken callback, and the call it was asked about fails closed.
 */

/** The text the model reads when a harness callback, not its call, stopped a call. */
export const HARNESS_FAULT =
  'This is a fault in the harness, not in your call: do not retry it; tell the user what you could not do.';

/** `PreToolUse hook 2 (guardWrites)`: its position in the list, and its name when it has one. */
export function hookLabel(kind: 'PreToolUse' | 'PostToolUse', hook: unknown, index: number) {
  let name = '';
  try {
    const own = (hook as { name?: unknown }).name;
    if (typeof own === 'string') name = own;
  } catch {
    // A Proxy around a function may throw on `name`; the position is enough.
  }
  return `${kind} hook ${index + 1}${name ? ` (${name})` : ''}`;
}

export const PRE_TOOL_USE_SHAPES =
  "A PreToolUse hook returns nothing to let the call through, { decision: 'deny', reason?: string } to refuse it, or { updatedInput: { ...arguments } } to change its arguments";

export type PreToolUseVerdict =
  | { kind: 'pass' }
  | { kind: 'deny'; reason: string | undefined }
  | { kind: 'update'; input: Record<string, unknown> }
  | { kind: 'broken'; problem: string };

/** A PreToolUse hook's answer, checked: anything but the documented shapes is `broken`. */
export function readPreToolUse(verdict: PreToolUseResult | null | unknown): PreToolUseVerdict {
  // null reads as "nothing to say", as undefined does.
  if (verdict === undefined || verdict === null) return { kind: 'pass' };
  if (typeof verdict !== 'object' || Array.isArray(verdict)) {
    return { kind: 'broken', problem: `it returned ${valueKind(verdict)}` };
  }
  try {
    const { decision, reason, updatedInput } = verdict as Record<string, unknown>;
    if (decision !== undefined && decision !== 'deny') {
      const shown = typeof decision === 'string' ? `'${decision}'` : valueKind(decision);
      return { kind: 'broken', problem: `it returned decision ${shown}` };
    }
    if (reason !== undefined && typeof reason !== 'string') {
      return { kind: 'broken', problem: `its reason is ${valueKind(reason)}, not text` };
    }
    if (decision === 'deny') return { kind: 'deny', reason };
    if (updatedInput === undefined) return { kind: 'pass' };
    if (updatedInput === null || typeof updatedInput !== 'object' || Array.isArray(updatedInput)) {
      return {
        kind: 'broken',
        problem: `its updatedInput is ${valueKind(updatedInput)}, not an object of arguments`,
      };
    }
    return { kind: 'update', input: updatedInput as Record<string, unknown> };
  } catch (error) {
    return { kind: 'broken', problem: `reading its answer threw: ${errorMessage(error)}` };
  }
}

/** A permission decision with a known effect and a text reason, or why the policy is broken. */
export function checkPermission(
  decide: () => PermissionDecision,
): { ok: true; decision: PermissionDecision } | { ok: false; problem: string } {
  try {
    const decision = decide();
    const effect = (decision as Partial<PermissionDecision> | undefined)?.effect;
    if (effect !== 'allow' && effect !== 'ask' && effect !== 'deny') {
      const shown = typeof effect === 'string' ? `'${effect}'` : valueKind(effect);
      return { ok: false, problem: `the permission policy answered effect ${shown}` };
    }
    const reason = typeof decision.reason === 'string' ? decision.reason : 'no reason given';
    return { ok: true, decision: { ...decision, effect, reason } };
  } catch (error) {
    return { ok: false, problem: `the permission check threw: ${errorMessage(error)}` };
  }
}

/** An approver's answer: only `true` approves; anything unexpected is a broken approver. */
export async function askApprover(
  ask: () => Promise<ApprovalAnswer>,
): Promise<ApprovalAnswer | { problem: string }> {
  try {
    const answer: unknown = await ask();
    if (answer === true || answer === false || answer === 'defer') return answer;
    return { problem: `the approver answered ${valueKind(answer)}, not true, false or 'defer'` };
  } catch (error) {
    return { problem: `asking for approval failed: ${errorMessage(error)}` };
  }
}

/**
 * The text after every PostToolUse hook, or which hook broke and how (it threw, answered no
 * text, or did not answer by its deadline). A broken hook's text is not used at all: it may
 * have been the hook that masks the output.
 */
export async function runPostToolUse(
  hooks: readonly PostToolUseHook[],
  deadline: HookDeadline,
  call: ToolCall,
  value: string,
  run: RunState,
): Promise<{ ok: true; text: string } | { ok: false; problem: string }> {
  let output = value;
  for (const [index, hook] of hooks.entries()) {
    const label = hookLabel('PostToolUse', hook, index);
    const shown = output;
    const called = await callHook(label, deadline, run, (view) => hook(call, shown, view));
    if (called.kind === 'timeout') return { ok: false, problem: called.problem };
    if (called.kind === 'threw') {
      // Its error text may quote what it was masking.
      const thrown = redactText(errorMessage(called.error));
      return { ok: false, problem: `${label} threw: ${thrown}` };
    }
    const next: unknown = called.answer;
    if (typeof next !== 'string') {
      return { ok: false, problem: `${label} returned ${valueKind(next)}, not the text to show` };
    }
    output = next;
  }
  return { ok: true, text: output };
}
