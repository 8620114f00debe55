import { z } from 'zod';
import { answerTurn, type OpenAIResult, parseOpenAIRequest, partsText } from './openai-answer.js';
import type { Turn } from './policy.js';
import type { RequestMessage } from './request.js';
import type { RespondOptions } from './respond.js';
import { makeId } from './rng.js';

const ChatRequestSchema = z.looseObject({
  model: z.string().min(1),
  messages: z
    .array(
      z.looseObject({
        role: z.enum(['system', 'developer', 'user', 'assistant', 'tool']),
        content: z.unknown().optional(),
        tool_calls: z
          .array(
            z.looseObject({
              id: z.string(),
              function: z.looseObject({ name: z.string(), arguments: z.string() }),
            }),
          )
          .optional(),
        tool_call_id: z.string().optional(),
      }),
    )
    .min(1, 'at least one message is required'),
  tools: z.array(z.looseObject({ function: z.looseObject({ name: z.string() }) })).optional(),
  stream: z.boolean().optional(),
  stream_options: z.looseObject({ include_usage: z.boolean().optional() }).optional(),
});
type ChatRequest = z.infer<typeof ChatRequestSchema>;

/** What the server sends for a Chat Completions request: a JSON body, or SSE `data:` chunks. */
export interface ChatSimResult extends OpenAIResult<unknown> {
  /** `data:` payloads in order, the last one `[DONE]`. */
  chunks?: string[];
}

/**
 * Answer one OpenAI-compatible `POST /v1/chat/completions` request, without HTTP: the same
 * policies and model scripts as the Messages API, read from the chat messages.
 */
export function respondChat(
  body: unknown,
  headers: Record<string, string>,
  options: RespondOptions = {},
): ChatSimResult {
  const parsed = parseOpenAIRequest(ChatRequestSchema, body, headers);
  if ('refused' in parsed) return parsed.refused;
  const chat = parsed.request;
  const { stream: _stream, stream_options: _options, ...content } = chat;
  const answer = answerTurn(toMessagesRequest(chat), parsed.seed, content, options);
  if ('refused' in answer) return answer.refused;
  const completion = buildCompletion(chat, answer.turn, answer.key, answer.inputTokens);
  const result: ChatSimResult = answer.success(completion);
  if (chat.stream === true) {
    result.headers['content-type'] = 'text/event-stream; charset=utf-8';
    result.chunks = toChunks(completion, chat.stream_options?.include_usage === true);
  }
  return result;
}

interface Completion {
  id: string;
  object: 'chat.completion';
  created: number;
  model: string;
  choices: Array<{
    index: 0;
    message: {
      role: 'assistant';
      content: string | null;
      tool_calls?: Array<{
        id: string;
        type: 'function';
        function: { name: string; arguments: string };
      }>;
    };
    finish_reason: 'stop' | 'tool_calls';
  }>;
  usage: {
    prompt_tokens: number;
    completion_tokens: number;
    total_tokens: number;
    prompt_tokens_details: { cached_tokens: number };
  };
}

/** A fixed creation time: the same request always gets byte-identical answers. */
const CREATED = 1_767_225_600;

function buildCompletion(chat: ChatRequest, turn: Turn, key: string, promptTokens: number) {
  const text = turn.blocks.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('');
  const calls = turn.blocks.flatMap((block, index) =>
    block.type === 'tool_use'
      ? [
          {
            id: makeId('call_', `${key}#tool#${index}`, 24),
            type: 'function' as const,
            function: { name: block.name, arguments: JSON.stringify(block.input) },
          },
        ]
      : [],
  );
  const outputChars =
    text.length + calls.reduce((sum, call) => sum + call.function.arguments.length, 0);
  const completionTokens = Math.ceil(outputChars / 4) + 8;
  const completion: Completion = {
    id: makeId('chatcmpl-', `${key}#completion`, 24),
    object: 'chat.completion',
    created: CREATED,
    model: chat.model,
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: text === '' && calls.length > 0 ? null : text,
          ...(calls.length > 0 && { tool_calls: calls }),
        },
        finish_reason: calls.length > 0 ? 'tool_calls' : 'stop',
      },
    ],
    usage: {
      prompt_tokens: promptTokens,
      completion_tokens: completionTokens,
      total_tokens: promptTokens + completionTokens,
      prompt_tokens_details: { cached_tokens: 0 },
    },
  };
  return completion;
}

/** The chunks an OpenAI-compatible server streams for a completion. */
function toChunks(completion: Completion, includeUsage: boolean): string[] {
  const choice = completion.choices[0]!;
  const base = {
    id: completion.id,
    object: 'chat.completion.chunk',
    created: completion.created,
    model: completion.model,
  };
  const chunk = (delta: unknown, finishReason: string | null = null) =>
    JSON.stringify({ ...base, choices: [{ index: 0, delta, finish_reason: finishReason }] });
  const chunks = [chunk({ role: 'assistant', content: '' })];
  const text = choice.message.content ?? '';
  for (let start = 0; start < text.length; start += 24) {
    chunks.push(chunk({ content: text.slice(start, start + 24) }));
  }
  for (const [index, call] of (choice.message.tool_calls ?? []).entries()) {
    chunks.push(chunk({ tool_calls: [{ index, ...call }] }));
  }
  chunks.push(chunk({}, choice.finish_reason));
  if (includeUsage) chunks.push(JSON.stringify({ ...base, choices: [], usage: completion.usage }));
  chunks.push('[DONE]');
  return chunks;
}

/** Chat messages as the Messages API shape the policies read (tool results become user turns). */
function toMessagesRequest(chat: ChatRequest) {
  const system: string[] = [];
  const messages: RequestMessage[] = [];
  for (const message of chat.messages) {
    const text = partsText(message.content);
    if (message.role === 'system' || message.role === 'developer') system.push(text);
    else if (message.role === 'user') messages.push({ role: 'user', content: text });
    else if (message.role === 'assistant') {
      messages.push({
        role: 'assistant',
        content: [
          ...(text ? [{ type: 'text', text }] : []),
          ...(message.tool_calls ?? []).map((call) => ({
            type: 'tool_use',
            id: call.id,
            name: call.function.name,
            input: parseArguments(call.function.arguments),
          })),
        ],
      });
    } else {
      const result = { type: 'tool_result', tool_use_id: message.tool_call_id, content: text };
      const last = messages.at(-1);
      if (last?.role === 'user' && Array.isArray(last.content)) last.content.push(result);
      else messages.push({ role: 'user', content: [result] });
    }
  }
  return {
    model: chat.model,
    max_tokens: 4096,
    messages,
    ...(system.length > 0 && { system: system.join('\n') }),
    tools: (chat.tools ?? []).map((tool) => ({ name: tool.function.name })),
  };
}

function parseArguments(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
