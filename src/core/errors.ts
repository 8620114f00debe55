/**
 * Errors split by who is at fault. Every message names the thing and the fix.
 * What the *model* should see is a tool result, never one of these.
 */
export type ErrorCode =
  | 'config'
  | 'task_input'
  | 'fixture_missing'
  | 'fixture_stale'
  | 'fixture_corrupt'
  | 'fixture_exhausted'
  | 'fixture_leftover'
  | 'fixture_secret'
  | 'fixture_edited'
  | 'model_api'
  | 'tool_timeout'
  | 'write_not_made'
  | 'hook_timeout'
  | 'call_ended'
  | 'secret_leak'
  | 'usage'
  | 'journal_missing'
  | 'journal_corrupt'
  | 'journal_format'
  | 'journal_conflict'
  | 'journal_write'
  | 'run_locked'
  | 'run_lock_invalid'
  | 'trace_exists'
  | 'trace_write'
  | 'network_refused'
  | 'recording_bypassed'
  | 'stray_timers';

export class HarnessError extends Error {
  readonly code: ErrorCode;
  constructor(code: ErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
    this.name = new.target.name;
  }
}

/** A bad option, flag, rule or file supplied by the user. */
export class ConfigError extends HarnessError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('config', message, options);
  }
}

/**
 * A file a task names is missing, empty or names what does not exist (a judge's rubric, a
 * human-labels file): bad input, which `npm run eval` reports on one line with exit 2.
 */
export class TaskInputError extends HarnessError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('task_input', message, options);
  }
}

/** A cassette that is missing, stale, corrupt, exhausted, has leftover exchanges or holds a credential. */
export class FixtureError extends HarnessError {}

/**
 * How a model call failed when there is no HTTP status to say it: the host could not be
 * reached, the answer was not a Messages API message, its body was cut off, the whole call
 * outlived its deadline, or a Chat Completions stream sent an error after its 200.
 */
export type ModelFailureKind =
  | 'unreachable'
  | 'malformed_response'
  | 'cut_response'
  | 'deadline'
  | 'stream_error';

/** The Messages API (or whatever stands at ANTHROPIC_BASE_URL) failed. */
export class ModelApiError extends HarnessError {
  /** The HTTP status, or the one an error sent inside a 200 stream stands for (overloaded_error: 529). */
  readonly status: number | undefined;
  readonly kind: ModelFailureKind | undefined;
  /** The answer's headers, when the error was an answer (the retry layer reads x-should-retry and retry-after from them). */
  readonly headers: Pick<Headers, 'get'> | undefined;
  constructor(
    message: string,
    options?: {
      cause?: unknown;
      status?: number;
      kind?: ModelFailureKind;
      headers?: Pick<Headers, 'get'>;
    },
  ) {
    super('model_api', message, options);
    this.status = options?.status;
    this.kind = options?.kind;
    this.headers = options?.headers;
  }
}

export class ToolTimeoutError extends HarnessError {
  constructor(tool: string, timeoutMs: number) {
    super('tool_timeout', `${tool} timed out after ${timeoutMs} ms`);
  }
}

/** The brand of a WriteNotMadeError: the same symbol in every copy of this package. */
const WRITE_NOT_MADE: unique symbol = Symbol.for('harness-evals.WriteNotMadeError');

/**
 * Thrown by a write tool to say that its write certainly did not take effect: it aborted before
 * sending, or it checked with the downstream system. A write that fails once its signal aborted
 * (its timeout, the run's cancellation) is otherwise left with an unknown outcome for a human;
 * with this error its intent is cleared, and the model is told that it did not take effect.
 * Only the error the tool throws counts, not one in the `cause` of another: whatever wrapped it
 * may have failed after a write. Recognised across copies of the package (`isWriteNotMade`).
 * A tool that makes two writes (refund, then notify) converts one thrown after its first write
 * took effect into another error: that write was made, and its intent must stay.
 *
 * @example
 * execute: async ({ amount }, { signal }) => {
 *   if (signal.aborted) throw new WriteNotMadeError('the charge was not sent');
 *   return bank.charge(amount, { signal });
 * }
 */
export class WriteNotMadeError extends HarnessError {
  declare readonly [WRITE_NOT_MADE]: true;
  constructor(message: string, options?: { cause?: unknown }) {
    super('write_not_made', message, options);
  }
}
// On the prototype, not enumerable: `{ ...error }` or `Object.assign(wrapper, error)` does not
// copy it, so a wrapper (which may have failed after a write) is not taken for the tool's word.
Object.defineProperty(WriteNotMadeError.prototype, WRITE_NOT_MADE, { value: true });

/** A WriteNotMadeError of this copy of the package or of another (by its brand); never throws. */
export function isWriteNotMade(thrown: unknown): boolean {
  try {
    return (
      typeof thrown === 'object' &&
      thrown !== null &&
      (thrown as { [WRITE_NOT_MADE]?: unknown })[WRITE_NOT_MADE] === true
    );
  } catch {
    // A Proxy may throw on any read: it is not proof that nothing was written.
    return false;
  }
}

/** What a hook past its deadline is told and reported as: the hook, the deadline and the fix. */
export function hookTimeoutProblem(hook: string, timeoutMs: number): string {
  return `${hook} did not answer within ${timeoutMs} ms (make it answer sooner, or raise hooks.timeoutMs)`;
}

/** At a hook's deadline: its signal's reason, and what its own waits on the run clock reject with. */
export class HookTimeoutError extends HarnessError {
  constructor(hook: string, timeoutMs: number) {
    super('hook_timeout', hookTimeoutProblem(hook, timeoutMs));
  }
}

/**
 * What a wait on a tool's or hook's clock rejects with once its call has ended: code it left
 * running cannot move the run's time. `clocks` names the clock as the user code sees it.
 */
export class CallEndedError extends HarnessError {
  /** `startedAfter`: the wait began after the call ended (a clock kept for a later call). */
  constructor(userCode: string, clocks: string, startedAfter = false) {
    super(
      'call_ended',
      startedAfter
        ? `a wait on a clock kept from an earlier call of ${userCode}: ${clocks} belong to one call and end with it, so keep no clock across calls; wait on the clock of the call that is running`
        : `the call of ${userCode} had ended: its waits on ${clocks} end with it, so code it left running cannot move the run's time (await every wait before returning)`,
    );
  }
}

/** A credential was about to be written to disk. */
export class SecretLeakError extends HarnessError {
  constructor(message: string) {
    super('secret_leak', message);
  }
}

/**
 * A readable message for anything that was thrown, and never a throw itself: an Error's
 * message, a string, an object's `message` or its JSON (`Object.create(null)`, `{code: 1}`),
 * or what kind of value it was.
 */
export function errorMessage(thrown: unknown): string {
  try {
    if (thrown instanceof Error) return thrown.message || `${thrown.name} without a message`;
    if (typeof thrown === 'string') return thrown.trim() || 'an empty error message';
    if (thrown === undefined || thrown === null) return `it threw ${thrown} (no error message)`;
    if (typeof thrown === 'object') {
      const message = (thrown as { message?: unknown }).message;
      if (typeof message === 'string' && message.trim() !== '') return message.trim();
      const json = JSON.stringify(thrown);
      return json && json !== '{}' ? `it threw ${json}` : 'it threw an object without a message';
    }
    return `it threw ${String(thrown)}`;
  } catch {
    return 'it threw a value that cannot be read';
  }
}
