import type Anthropic from '@anthropic-ai/sdk';
import { addUsage, anthropicUsage, emptyUsage } from '../model-api/token-usage.js';
import { runAdapterTool, systemOf } from './run-adapter-tool.js';
import type { AdapterTool, AgentAdapter, AgentContext, AgentToolCall } from './types.js';

export interface AnthropicToolLoopOptions {
  system?: string | ((context: AgentContext) => string);
  tools: readonly AdapterTool[];
  /** Model calls per run (default 8). */
  maxSteps?: number;
  maxTokens?: number;
}

/**
 * The seeds' `agent.py` loop, hand-written on `@anthropic-ai/sdk` without this runtime:
 * call the model, run the tool_use blocks, send the tool_results, until it stops asking.
 * The only harness-evals part is the client: `baseURL` and `fetch` from the context.
 *
 * @example
 * defineAgent({ suite: 'ops', variants: ['v1'], provider: 'anthropic',
 *   run: createAnthropicToolLoop({ system: 'You are...', tools: [statusTool] }) });
 */
export function createAnthropicToolLoop(options: AnthropicToolLoopOptions): AgentAdapter {
  const byName = new Map(options.tools.map((tool) => [tool.name, tool]));
  return async (context) => {
    // Loaded by the first run, not by importing the package (a replay of other agents never needs it).
    const { default: Anthropic } = await import('@anthropic-ai/sdk');
    const client = new Anthropic({
      apiKey: context.apiKey,
      baseURL: context.baseURL,
      fetch: context.fetch,
      maxRetries: 0,
    });
    const system = systemOf(options.system, context);
    const messages: Anthropic.MessageParam[] = [{ role: 'user', content: context.prompt }];
    const toolCalls: AgentToolCall[] = [];
    const usage = emptyUsage();
    for (let step = 0; step < (options.maxSteps ?? 8); step++) {
      const response = await client.messages.create(
        {
          model: context.model,
          max_tokens: options.maxTokens ?? 1024,
          ...(system && { system }),
          tools: options.tools.map((tool) => ({
            name: tool.name,
            ...(tool.description && { description: tool.description }),
            input_schema: tool.parameters as Anthropic.Tool.InputSchema,
          })),
          messages,
        },
        { signal: context.signal },
      );
      addUsage(usage, anthropicUsage(response.usage));
      messages.push({ role: 'assistant', content: response.content });
      if (response.stop_reason !== 'tool_use') {
        const answer = response.content
          .map((block) => (block.type === 'text' ? block.text : ''))
          .join('');
        return { answer, toolCalls, usage };
      }
      const results: Anthropic.ToolResultBlockParam[] = [];
      for (const block of response.content) {
        if (block.type !== 'tool_use') continue;
        const outcome = await runAdapterTool(
          byName,
          block.name,
          block.input as Record<string, unknown>,
          context,
        );
        toolCalls.push(outcome.record);
        results.push({
          type: 'tool_result',
          tool_use_id: block.id,
          content: outcome.text,
          is_error: outcome.isError,
        });
      }
      messages.push({ role: 'user', content: results });
    }
    return { answer: '', toolCalls, usage, status: 'max_steps' };
  };
}
