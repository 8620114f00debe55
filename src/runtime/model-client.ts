import Anthropic from '@anthropic-ai/sdk';
import { ModelApiError } from '../core/errors.js';

export type MessageRequest = Anthropic.MessageCreateParamsNonStreaming;
export type Message = Anthropic.Message;

/** The one thing the loop needs from a model: a request in, a message out. */
export interface ModelClient {
  createMessage(request: MessageRequest, options?: { signal?: AbortSignal }): Promise<Message>;
}

/**
 * Wrap an `@anthropic-ai/sdk` client. With `stream`, requests go out as SSE
 * (`messages.stream().finalMessage()`), which is what long live calls want.
 * SDK failures become one-line `ModelApiError`s that say what to check.
 */
export function createAnthropicModel(options: {
  client: Anthropic;
  stream?: boolean;
}): ModelClient {
  const { client } = options;
  return {
    async createMessage(request, callOptions) {
      const requestOptions = callOptions?.signal ? { signal: callOptions.signal } : {};
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
    const cause = error.cause instanceof Error ? `: ${error.cause.message}` : '';
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
