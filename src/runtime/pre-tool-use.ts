import { errorMessage } from '../core/errors.js';
import { callHook, type HookDeadline } from './hook-deadline.js';
import {
  HARNESS_FAULT,
  hookLabel,
  PRE_TOOL_USE_SHAPES,
  readPreToolUse,
} from './pipeline-guards.js';
import type { PreToolUseHook, RunState, ToolCall } from './types.js';

export interface PreToolUseRun<Stop> {
  hooks: readonly PreToolUseHook[];
  deadline: HookDeadline;
  call: ToolCall;
  state: RunState;
  /** The call refused with this tool_result text. */
  deny: (content: string) => Stop;
  /** A hook changed the input: a stop when the new input is refused (validation). */
  updated: (input: unknown) => Stop | undefined;
}

/**
 * Runs the PreToolUse hooks in order, each on the input the hooks before it left. Resolves to
 * the input to run with, or to the stop of the first hook that refused, broke or timed out (a
 * broken hook may have been the one that stops this call).
 */
export async function runPreToolUse<Stop>(
  run: PreToolUseRun<Stop>,
): Promise<{ input: unknown } | { stop: Stop }> {
  const { call, state, deny } = run;
  let input = call.input;
  for (const [index, hook] of run.hooks.entries()) {
    const label = hookLabel('PreToolUse', hook, index);
    const asked = { ...call, input };
    const called = await callHook(label, run.deadline, state, (view) => hook(asked, view));
    if (called.kind === 'timeout') {
      return {
        stop: deny(
          `${call.name} was not executed: ${called.problem}, so the call is refused. ${HARNESS_FAULT}`,
        ),
      };
    }
    const verdict: ReturnType<typeof readPreToolUse> =
      called.kind === 'threw'
        ? { kind: 'broken', problem: `it threw: ${errorMessage(called.error)}` }
        : readPreToolUse(called.answer);
    if (verdict.kind === 'deny') {
      return { stop: deny(`Blocked: ${verdict.reason ?? `a hook refused ${call.name}`}`) };
    }
    if (verdict.kind === 'broken') {
      return {
        stop: deny(
          `${call.name} was not executed: ${label} is broken (${verdict.problem}). ${PRE_TOOL_USE_SHAPES}. ${HARNESS_FAULT}`,
        ),
      };
    }
    if (verdict.kind === 'update') {
      input = verdict.input;
      const stop = run.updated(input);
      if (stop !== undefined) return { stop };
    }
  }
  return { input };
}
