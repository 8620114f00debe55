import { addUsage, emptyUsage } from '../model-api/token-usage.js';
import { type ChatMessage, createChatCompletion } from './chat-completions-client.js';
import { functionTools, type OpenAILoopOptions, retriedCall } from './openai-loop.js';
import { runJsonArgumentsTool, systemOf } from './run-adapter-tool.js';
import type { AgentAdapter, AgentToolCall } from './types.js';

export interface ChatCompletionsAgentOptions extends OpenAILoopOptions {
  maxTokens?: number;
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
    const tools = functionTools(options.tools).map((fn) => ({
      type: 'function' as const,
      function: fn,
    }));
    const toolCalls: AgentToolCall[] = [];
    const usage = emptyUsage();
    for (let step = 0; step < (options.maxSteps ?? 8); step++) {
      const body = {
        model: context.model,
        messages,
        ...(tools.length > 0 && { tools }),
        ...(options.maxTokens && { max_tokens: options.maxTokens }),
        ...(options.stream && { stream: true }),
      };
      const result = await retriedCall(context, options, (target) =>
        createChatCompletion({ ...target, body }),
      );
      addUsage(usage, result.usage);
      messages.push(result.message);
      const calls = result.message.tool_calls ?? [];
      if (calls.length === 0) {
        return { answer: result.message.content ?? '', toolCalls, usage };
      }
      for (const call of calls) {
        const outcome = await runJsonArgumentsTool(
          byName,
          call.function.name,
          call.function.arguments,
          context,
        );
        toolCalls.push(outcome.record);
        messages.push({ role: 'tool', tool_call_id: call.id, content: outcome.text });
      }
    }
    return { answer: '', toolCalls, usage, status: 'max_steps' };
  };
}
