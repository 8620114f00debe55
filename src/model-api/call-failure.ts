import { ModelApiError } from '../core/errors.js';
import { redactForDisplay } from '../core/redact.js';
import { maskSecretValues, maskValue } from '../core/secret-values.js';
import { shownUrl } from '../core/shown-url.js';
import { escapeForTerminal } from '../core/terminal-text.js';

/** A model API as error messages name it: what it is and where its base URL is set. */
export interface ModelApiName {
  /** e.g. `the Messages API`. */
  name: string;
  /** The environment variable that points at it. */
  baseUrlVariable: string;
  /** What that variable should point at. */
  expected: string;
}

export const MESSAGES_API: ModelApiName = {
  name: 'the Messages API',
  baseUrlVariable: 'ANTHROPIC_BASE_URL',
  expected: 'the Messages API',
};

export const CHAT_COMPLETIONS_API: ModelApiName = {
  name: 'the Chat Completions API',
  baseUrlVariable: 'OPENAI_BASE_URL',
  expected: 'an OpenAI-compatible Chat Completions API',
};

export const RESPONSES_API: ModelApiName = {
  name: 'the Responses API',
  baseUrlVariable: 'OPENAI_BASE_URL',
  expected: 'the OpenAI Responses API',
};

/**
 * The failures of a model call that both clients (model-client.ts for the Messages API, the
 * Chat Completions adapter) report alike, with a kind the retry policy retries.
 */
export function malformedAnswer(
  api: ModelApiName,
  baseURL: string,
  problem: string,
  cause?: unknown,
): ModelApiError {
  return new ModelApiError(
    `malformed response from ${api.name} at ${shownUrl(baseURL)}: ${problem}; check that ${api.baseUrlVariable} points at ${api.expected} (a gateway or proxy may have answered)`,
    { kind: 'malformed_response', ...(cause !== undefined && { cause }) },
  );
}

export function cutAnswer(
  api: ModelApiName,
  baseURL: string,
  cut: string,
  cause: unknown,
): ModelApiError {
  return new ModelApiError(
    `the connection to ${api.name} at ${shownUrl(baseURL)} was cut before the response was complete (${cut}); check the network or the gateway in between`,
    { cause, kind: 'cut_response' },
  );
}

export function unreachableApi(api: ModelApiName, baseURL: string, cause: unknown): ModelApiError {
  const root = rootCause(cause);
  return new ModelApiError(
    `cannot reach ${api.name} at ${shownUrl(baseURL)}${root ? `: ${root}` : ''}; check ${api.baseUrlVariable} and the network`,
    { cause, kind: 'unreachable' },
  );
}

/** undici's "terminated" (the socket closed while the body was read), with its root cause. */
export function cutCause(error: unknown): string | undefined {
  let current: unknown = error;
  // The SDK's stream wraps it in an AnthropicError; a JSON body throws it as it is.
  for (let depth = 0; depth < 4 && current instanceof Error; depth += 1) {
    if (current instanceof TypeError && current.message === 'terminated') {
      const root = current.cause instanceof Error ? current.cause.message : undefined;
      return root ? `terminated: ${root}` : 'terminated';
    }
    current = current.cause;
  }
  return undefined;
}

/** The innermost cause with a system error code (ECONNREFUSED, ENOTFOUND...), else its message. */
function rootCause(error: unknown): string | undefined {
  let current: unknown = error;
  let found: string | undefined;
  for (let depth = 0; depth < 5 && current instanceof Error; depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') found = `${code} ${current.message}`.trim();
    current = current.cause;
  }
  return (
    found ??
    (error instanceof Error && error.cause instanceof Error ? error.cause.message : undefined)
  );
}

/** A call past its deadline (call-deadline.ts): `fix` names the flag or option that changes it. */
export function deadlineError(
  api: ModelApiName,
  baseURL: string,
  timeoutMs: number,
  fix: string,
): ModelApiError {
  return new ModelApiError(
    `no complete answer from ${api.name} at ${shownUrl(baseURL)} within ${timeoutMs / 1000} s (the deadline covers the whole call, headers and body); raise it with HARNESS_MODEL_TIMEOUT=SECONDS (${fix})`,
    { kind: 'deadline' },
  );
}

/** How much of a server's text an error message quotes. */
const QUOTED_CHARS = 300;

/**
 * Text a server sent (an error body, an error inside a stream), fit to quote in an error
 * message that reaches traces, reports and the terminal: the key the call sent and every
 * credential masked (a server may echo the request, Authorization header included), then cut
 * to 300 characters, then every control character shown as an inert escape.
 */
export function serverText(text: string, apiKey: string): string {
  // Only the head is worked on (a body of megabytes costs the regexes seconds, or the stack),
  // with room for whatever masking removes before the cut: a value straddling the cut of the
  // head lies far beyond the 300 characters quoted.
  const head = text.slice(0, SCANNED_CHARS);
  // Exact values first, as redact.ts does: registered keys under their own names
  // (ANTHROPIC_API_KEY), then the call's own, then credential and card shapes, which would
  // otherwise mask part of a key and leave the rest.
  const masked = redactForDisplay(maskValue(maskSecretValues(head), apiKey, 'API key'));
  return escapeForTerminal(masked.slice(0, QUOTED_CHARS));
}

/** How much of a server's text is masked before the first QUOTED_CHARS are quoted. */
const SCANNED_CHARS = 64 * 1024;
