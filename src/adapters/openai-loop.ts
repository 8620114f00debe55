import { callWithRetries } from '../model-api/retry-call.js';
import type { AdapterTool, AgentContext } from './types.js';

/** What the OpenAI agents (Chat Completions, Responses) share: the loop's limits and each call's retries. */
export interface OpenAILoopOptions {
  system?: string | ((context: AgentContext) => string);
  tools: readonly AdapterTool[];
  /** Model calls per run (default 8). */
  maxSteps?: number;
  /** SSE streaming instead of one JSON body. */
  stream?: boolean;
  /**
   * Retries of a model call that failed in a way worth retrying (default 4), as this
   * runtime's model layer retries them: 408, 409, 429, 5xx or `x-should-retry: true`, an
   * answer that is not one of its API (or not in the format asked for), a body or stream
   * cut off, an error sent inside a stream, a host not reached. Waits (the
   * server's retry-after, else backoff) go through the context's `retryClock`: real time
   * while recording against a live API, the run's clock otherwise.
   */
  maxRetries?: number;
  /**
   * The deadline of one model call (one attempt), headers and body, in ms. Default: the
   * context's `modelTimeoutMs` (`--model-timeout`), else 600 000 (10 minutes). A call past it
   * is retried like a dropped connection.
   */
  timeoutMs?: number;
}

/** Where one call goes and how long it may take: the context's fetch, base URL, key and signal. */
export interface CallTarget {
  fetch: typeof fetch;
  baseURL: string;
  apiKey: string;
  signal: AbortSignal;
  timeoutMs?: number;
}

/**
 * One model call of an OpenAI agent's loop, through the context's fetch and base URL, retried
 * as the options say, its waits on the context's retry clock.
 */
export function retriedCall<T>(
  context: AgentContext,
  options: Pick<OpenAILoopOptions, 'maxRetries' | 'timeoutMs'>,
  call: (target: CallTarget) => Promise<T>,
): Promise<T> {
  const timeoutMs = options.timeoutMs ?? context.modelTimeoutMs;
  const target: CallTarget = {
    fetch: context.fetch,
    baseURL: context.baseURL,
    apiKey: context.apiKey,
    signal: context.signal,
    ...(timeoutMs !== undefined && { timeoutMs }),
  };
  return callWithRetries(() => call(target), {
    clock: context.retryClock ?? context.clock,
    model: context.model,
    signal: context.signal,
    ...(options.maxRetries !== undefined && { maxRetries: options.maxRetries }),
  });
}

/** The tools as OpenAI function tools: `flat` for the Responses API, nested under `function` for Chat Completions. */
export function functionTools(tools: readonly AdapterTool[]) {
  return tools.map((tool) => ({
    name: tool.name,
    ...(tool.description && { description: tool.description }),
    parameters: tool.parameters,
  }));
}
