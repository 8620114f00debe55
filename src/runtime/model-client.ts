import Anthropic from '@anthropic-ai/sdk';
import { HarnessError, ModelApiError } from '../core/errors.js';

export type MessageRequest = Anthropic.MessageCreateParamsNonStreaming;
export type Message = Anthropic.Message;

/** What the model layer reports while it works on one call (the loop writes it to the trace). */
export type ModelEvent =
  | {
      type: 'model_retry';
      model: string;
      /** 1 for the first retry. */
      attempt: number;
      /** The HTTP status, when there was one (none for a connection failure). */
      status?: number;
      error: string;
      /** How long the call waited before retrying (retry-after, else backoff). */
      wait_ms: number;
    }
  | {
      type: 'model_fallback';
      from: string;
      to: string;
      reason: 'overloaded' | 'refusal' | 'unavailable';
    };

export interface ModelCallOptions {
  signal?: AbortSignal;
  /** Called for each retry and fallback of this call. */
  onEvent?: (event: ModelEvent) => void;
}

/** The one thing the loop needs from a model: a request in, a message out. */
export interface ModelClient {
  createMessage(request: MessageRequest, options?: ModelCallOptions): Promise<Message>;
}

/**
 * Wrap an `@anthropic-ai/sdk` client. With `stream`, requests go out as SSE
 * (`messages.stream().finalMessage()`), which is what long live calls want.
 * SDK failures become one-line `ModelApiError`s that say what to check.
 */
export function createAnthropicModel(options: {
  client: Anthropic;
  stream?: boolean;
  /** Extra headers on every request (e.g. to route a shared client's calls to one replay session). */
  headers?: Record<string, string>;
}): ModelClient {
  const { client } = options;
  return {
    async createMessage(request, callOptions) {
      const requestOptions = {
        ...(callOptions?.signal && { signal: callOptions.signal }),
        ...(options.headers && { headers: options.headers }),
      };
      try {
        if (options.stream)
          return await client.messages.stream(request, requestOptions).finalMessage();
        return await client.messages.create(request, requestOptions);
      } catch (error) {
        throw toModelApiError(error, client.baseURL);
      }
    },
  };
}

export function toModelApiError(error: unknown, baseURL: string): ModelApiError {
  if (error instanceof ModelApiError) return error;
  if (error instanceof Anthropic.AuthenticationError) {
    return new ModelApiError(`authentication failed (401) at ${baseURL}: check ANTHROPIC_API_KEY`, {
      cause: error,
      status: 401,
    });
  }
  if (error instanceof Anthropic.APIConnectionError) {
    // Our own fetch wrapper refused the response (e.g. a simulator met while recording live): say that.
    const ours = harnessCause(error);
    if (ours) return new ModelApiError(ours.message, { cause: error });
    const root = rootCause(error);
    const cause = root ? `: ${root}` : '';
    return new ModelApiError(
      `cannot reach the Messages API at ${baseURL}${cause}; check ANTHROPIC_BASE_URL and the network`,
      { cause: error },
    );
  }
  if (error instanceof Anthropic.APIError) {
    const body = error.error as { error?: { type?: string; message?: string } } | undefined;
    const detail = body?.error?.message ?? error.message;
    const type = body?.error?.type ? ` ${body.error.type}` : '';
    const status = error.status ?? 0;
    return new ModelApiError(`Messages API error ${status}${type}: ${detail}`, {
      cause: error,
      status,
    });
  }
  const message = error instanceof Error ? error.message : String(error);
  return new ModelApiError(`model call failed: ${message}`, { cause: error });
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

function harnessCause(error: Error): HarnessError | undefined {
  let current: unknown = error.cause;
  for (let depth = 0; depth < 5 && current instanceof Error; depth += 1) {
    if (current instanceof HarnessError) return current;
    current = current.cause;
  }
  return undefined;
}
