/**
 * Errors split by who is at fault. Every message names the thing and the fix.
 * What the *model* should see is a tool result, never one of these.
 */
export type ErrorCode =
  | 'config'
  | 'fixture_missing'
  | 'fixture_stale'
  | 'fixture_corrupt'
  | 'fixture_exhausted'
  | 'fixture_leftover'
  | 'fixture_secret'
  | 'model_api'
  | 'tool_timeout'
  | 'secret_leak'
  | 'usage'
  | 'checkpoint_missing'
  | 'checkpoint_corrupt'
  | 'checkpoint_version'
  | 'checkpoint_conflict'
  | 'run_locked';

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

/** A cassette that is missing, stale, corrupt, exhausted, has leftover exchanges or holds a credential. */
export class FixtureError extends HarnessError {}

/** The Messages API (or whatever stands at ANTHROPIC_BASE_URL) failed. */
export class ModelApiError extends HarnessError {
  readonly status: number | undefined;
  constructor(message: string, options?: { cause?: unknown; status?: number }) {
    super('model_api', message, options);
    this.status = options?.status;
  }
}

export class ToolTimeoutError extends HarnessError {
  constructor(tool: string, timeoutMs: number) {
    super('tool_timeout', `${tool} timed out after ${timeoutMs} ms`);
  }
}

/** A credential was about to be written to disk. */
export class SecretLeakError extends HarnessError {
  constructor(message: string) {
    super('secret_leak', message);
  }
}

export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
