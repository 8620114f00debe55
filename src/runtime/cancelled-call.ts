import { logged } from './pipeline-guards.js';
import type { WriteAttempt } from './write-attempt.js';

/**
 * The tool_result of a call the run was cancelled before (decision `cancelled`): its tool was
 * not called. Checked before a write's intent is logged (nothing to clear) and again right
 * before the call (executeTool); a write whose signal aborts once it started stays unknown.
 */
export function notRunMessage(tool: string): string {
  return `${tool} was not run: the run was cancelled before it started, so it did not take effect. If it is still needed when the run goes on, call it again.`;
}

/**
 * The run was cancelled between the write's intent and its call: it certainly did not run,
 * so its intent is cleared rather than left for a human. Answers the run's end (`fatal`) when
 * the log cannot record that: the intent stays, an unknown outcome for a human to resolve.
 */
export async function clearNotRun(
  tool: string,
  attempt: WriteAttempt | undefined,
  writeKey: string | undefined,
): Promise<{ fatal?: string }> {
  const problem = await logged(() => attempt?.notRun());
  if (problem === undefined) return {};
  return {
    fatal: `the run was cancelled before ${tool} ran, and the write log could not record that write ${writeKey} did not take effect: ${problem}; it is left with an unknown outcome for a human to resolve`,
  };
}
