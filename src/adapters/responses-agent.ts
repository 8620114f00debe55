import { addUsage, emptyUsage } from '../model-api/token-usage.js';
import { functionTools, type OpenAILoopOptions, retriedCall } from './openai-loop.js';
import { createResponse, type ResponseItem } from './responses-client.js';
import { runJsonArgumentsTool, systemOf } from './run-adapter-tool.js';
import type { AgentAdapter, AgentToolCall } from './types.js';

export interface ResponsesAgentOptions extends OpenAILoopOptions {
  maxOutputTokens?: number;
}

/**
 * A tool loop on the OpenAI Responses API (`POST /responses`) with plain fetch: the shape the
 * `openai` SDK's `responses.create` and the Vercel AI SDK's default `openai(model)` speak. It
 * sends the whole conversation each turn (`store: false`, no `previous_response_id`), so a
 * recording replays without server state. Use it as an agent's `run` with `provider: 'openai'`.
 *
 * @example
 * defineAgent({ suite: 'helpdesk', variants: ['v1'], provider: 'openai',
 *   run: createResponsesAgent({ system: 'You are...', tools: [lookupTool] }) });
 */
export function createResponsesAgent(options: ResponsesAgentOptions): AgentAdapter {
  const byName = new Map(options.tools.map((tool) => [tool.name, tool]));
  return async (context) => {
    const instructions = systemOf(options.system, context);
    const input: ResponseItem[] = [{ role: 'user', content: context.prompt }];
    const tools = functionTools(options.tools).map((fn) => ({ type: 'function' as const, ...fn }));
    const toolCalls: AgentToolCall[] = [];
    const usage = emptyUsage();
    for (let step = 0; step < (options.maxSteps ?? 8); step++) {
      const body = {
        model: context.model,
        input: [...input],
        ...(instructions && { instructions }),
        ...(tools.length > 0 && { tools }),
        ...(options.maxOutputTokens && { max_output_tokens: options.maxOutputTokens }),
        ...(options.stream && { stream: true }),
        store: false,
      };
      const result = await retriedCall(context, options, (target) =>
        createResponse({ ...target, body }),
      );
      addUsage(usage, result.usage);
      input.push(...result.output);
      if (result.calls.length === 0) return { answer: result.text, toolCalls, usage };
      for (const call of result.calls) {
        const outcome = await runJsonArgumentsTool(byName, call.name, call.arguments, context);
        toolCalls.push(outcome.record);
        input.push({ type: 'function_call_output', call_id: call.call_id, output: outcome.text });
      }
    }
    return { answer: '', toolCalls, usage, status: 'max_steps' };
  };
}
