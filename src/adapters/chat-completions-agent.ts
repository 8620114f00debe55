import { callWithRetries } from '../model-api/retry-call.js';
import {
  type ChatMessage,
  type ChatToolCall,
  createChatCompletion,
} from './chat-completions-client.js';
import { runAdapterTool, systemOf } from './run-adapter-tool.js';
import {
  type AdapterTool,
  type AgentAdapter,
  type AgentContext,
  type AgentToolCall,
  addUsage,
  emptyUsage,
} from './types.js';

export interface ChatCompletionsAgentOptions {
  system?: string | ((context: AgentContext) => string);
  tools: readonly AdapterTool[];
  /** Model calls per run (default 8). */
  maxSteps?: number;
  /** SSE streaming instead of one JSON body. */
  stream?: boolean;
  maxTokens?: number;
  /**
   * Retries of a model call that failed in a way worth retrying (default 4), as this
   * runtime's model layer retries them: 408, 409, 429, 5xx or `x-should-retry: true`, an
   * answer that is not a chat completion (or not in the format asked for), a body or stream
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

/**
 * A tool loop against any OpenAI-compatible Chat Completions endpoint (seed 001's client:
 * local and hosted open models), with plain fetch. Use it as an agent's `run`, or read it as
 * the shape your own loop needs: every request through `context.fetch` to `context.baseURL`.
 *
 * @example
 * defineAgent({ suite: 'helpdesk', variants: ['v1'], provider: 'openai',
 *   run: createChatCompletionsAgent({ system: 'You are...', tools: [lookupTool] }) });
 */
export function createChatCompletionsAgent(options: ChatCompletionsAgentOptions): AgentAdapter {
  const byName = new Map(options.tools.map((tool) => [tool.name, tool]));
  return async (context) => {
    const system = systemOf(options.system, context);
    const messages: ChatMessage[] = [
      ...(system ? [{ role: 'system' as const, content: system }] : []),
      { role: 'user', content: context.prompt },
    ];
    const tools = options.tools.map((tool) => ({
      type: 'function' as const,
      function: {
        name: tool.name,
        ...(tool.description && { description: tool.description }),
        parameters: tool.parameters,
      },
    }));
    const toolCalls: AgentToolCall[] = [];
    let usage = emptyUsage();
    const timeoutMs = options.timeoutMs ?? context.modelTimeoutMs;
    for (let step = 0; step < (options.maxSteps ?? 8); step++) {
      const request = {
        fetch: context.fetch,
        baseURL: context.baseURL,
        apiKey: context.apiKey,
        signal: context.signal,
        ...(timeoutMs !== undefined && { timeoutMs }),
        body: {
          model: context.model,
          messages,
          ...(tools.length > 0 && { tools }),
          ...(options.maxTokens && { max_tokens: options.maxTokens }),
          ...(options.stream && { stream: true }),
        },
      };
      const result = await callWithRetries(() => createChatCompletion(request), {
        clock: context.retryClock ?? context.clock,
        model: context.model,
        signal: context.signal,
        ...(options.maxRetries !== undefined && { maxRetries: options.maxRetries }),
      });
      usage = addUsage(usage, result.usage);
      messages.push(result.message);
      const calls = result.message.tool_calls ?? [];
      if (calls.length === 0) {
        return { answer: result.message.content ?? '', toolCalls, usage };
      }
      for (const call of calls) {
        const outcome = await runTool(byName, call, context);
        toolCalls.push(outcome.record);
        messages.push({ role: 'tool', tool_call_id: call.id, content: outcome.text });
      }
    }
    return { answer: '', toolCalls, usage, status: 'max_steps' };
  };
}

async function runTool(
  byName: ReadonlyMap<string, AdapterTool>,
  call: ChatToolCall,
  context: AgentContext,
): Promise<{ text: string; record: AgentToolCall }> {
  const name = call.function.name;
  let input: unknown;
  try {
    input = JSON.parse(call.function.arguments || '{}');
  } catch {
    input = undefined;
  }
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    const text = `error: arguments of ${name} are not a JSON object: send one`;
    return { text, record: { name, input: {}, isError: true } };
  }
  return runAdapterTool(byName, name, input as Record<string, unknown>, context);
}
