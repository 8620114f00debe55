import { createContext, Script } from 'node:vm';

/** A synchronous call stopped at its deadline (see callWithin). */
export class DeadlinePassedError extends Error {
  constructor(readonly timeoutMs: number) {
    super(`ran past ${timeoutMs / 1000} s and was stopped`);
  }
}

const CALL = new Script('call()');
// One context for every call: making one per call costs more than most calls do.
const context = createContext({ call: undefined as (() => unknown) | undefined });

/**
 * `call()`, stopped once it has run `timeoutMs`: vm's timeout interrupts even a synchronous
 * loop (a getter, a Proxy trap, a user's script function), which no timer can. Throws
 * DeadlinePassedError then; what `call` throws passes through.
 */
export function callWithin<T>(call: () => T, timeoutMs: number): T {
  const outer = context.call;
  context.call = call;
  try {
    return CALL.runInContext(context, { timeout: timeoutMs }) as T;
  } catch (error) {
    if ((error as { code?: unknown } | null)?.code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') {
      throw new DeadlinePassedError(timeoutMs);
    }
    throw error;
  } finally {
    context.call = outer;
  }
}
