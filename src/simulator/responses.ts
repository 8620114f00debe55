import { z } from 'zod';
import {
  answerTurn,
  type OpenAIResult,
  openAIError,
  parseOpenAIRequest,
  partsText,
} from './openai-answer.js';
import type { Turn } from './policy.js';
import type { RequestMessage } from './request.js';
import type { RespondOptions } from './respond.js';
import { makeId } from './rng.js';

type Item = Record<string, unknown>;

const ItemSchema = z.looseObject({ type: z.string().optional() });
const ResponsesRequestSchema = z.looseObject({
  model: z.string().min(1),
  input: z.union([z.string(), z.array(ItemSchema)]),
  instructions: z.string().nullish(),
  tools: z.array(z.looseObject({ type: z.string(), name: z.string().optional() })).optional(),
  stream: z.boolean().nullish(),
});
type ResponsesRequest = z.infer<typeof ResponsesRequestSchema>;

/** What the server sends for a Responses request: a JSON body, or its SSE events. */
export interface ResponsesSimResult extends OpenAIResult<unknown> {
  /** SSE events in order (`event:` is each data's `type`). */
  events?: Item[];
}

export interface ResponsesOptions extends RespondOptions {
  /**
   * The output items answered so far, by id: what an `item_reference` in a later request
   * names (the Vercel AI SDK sends them for items of an earlier answer, as the API stores them).
   */
  items?: Map<string, Item>;
}

/**
 * Answer one OpenAI `POST /v1/responses` request, without HTTP: the same policies and model
 * scripts as the Messages API and Chat Completions, read from the request's `instructions` and
 * `input` items (messages, function calls and their outputs, references to earlier items).
 */
export function respondResponses(
  body: unknown,
  headers: Record<string, string>,
  options: ResponsesOptions = {},
): ResponsesSimResult {
  const parsed = parseOpenAIRequest(ResponsesRequestSchema, body, headers);
  if ('refused' in parsed) return parsed.refused;
  const { request } = parsed;
  const items = options.items ?? new Map<string, Item>();
  const resolved = resolveReferences(request, items);
  if (typeof resolved === 'string') return openAIError(400, resolved);
  const { stream: _stream, ...content } = request;
  const answer = answerTurn(toMessagesRequest(request, resolved), parsed.seed, content, options);
  if ('refused' in answer) return answer.refused;
  const response = buildResponse(request.model, answer.turn, answer.key, answer.inputTokens);
  for (const item of response.output) items.set(item.id as string, item);
  const result: ResponsesSimResult = answer.success(response);
  if (request.stream === true) {
    result.headers['content-type'] = 'text/event-stream; charset=utf-8';
    result.events = toResponseEvents(response);
  }
  return result;
}

/** A fixed creation time: the same request always gets byte-identical answers. */
const CREATED = 1_767_225_600;

function buildResponse(model: string, turn: Turn, key: string, inputTokens: number) {
  const text = turn.blocks.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('');
  const output: Item[] = [];
  if (text !== '' || turn.blocks.every((block) => block.type === 'text')) {
    output.push({
      type: 'message',
      id: makeId('msg_', `${key}#message`, 24),
      status: 'completed',
      role: 'assistant',
      content: [{ type: 'output_text', text, annotations: [] }],
    });
  }
  turn.blocks.forEach((block, index) => {
    if (block.type !== 'tool_use') return;
    output.push({
      type: 'function_call',
      id: makeId('fc_', `${key}#item#${index}`, 24),
      call_id: makeId('call_', `${key}#tool#${index}`, 24),
      name: block.name,
      arguments: JSON.stringify(block.input),
      status: 'completed',
    });
  });
  const outputTokens = Math.ceil(JSON.stringify(output).length / 4);
  return {
    id: makeId('resp_', `${key}#response`, 24),
    object: 'response' as const,
    created_at: CREATED,
    status: 'completed' as const,
    error: null,
    incomplete_details: null,
    model,
    output,
    usage: {
      input_tokens: inputTokens,
      input_tokens_details: { cached_tokens: 0 },
      output_tokens: outputTokens,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: inputTokens + outputTokens,
    },
  };
}

/** The events the API streams for a response, each numbered. */
function toResponseEvents(response: ReturnType<typeof buildResponse>): Item[] {
  const events: Item[] = [];
  const emit = (event: Item) => events.push({ ...event, sequence_number: events.length });
  const pending = { ...response, status: 'in_progress', output: [], usage: null };
  emit({ type: 'response.created', response: pending });
  emit({ type: 'response.in_progress', response: pending });
  response.output.forEach((item, output_index) => {
    const item_id = item.id;
    if (item.type === 'function_call') {
      emit({
        type: 'response.output_item.added',
        output_index,
        item: { ...item, arguments: '', status: 'in_progress' },
      });
      for (const delta of pieces(item.arguments as string))
        emit({ type: 'response.function_call_arguments.delta', item_id, output_index, delta });
      emit({
        type: 'response.function_call_arguments.done',
        item_id,
        output_index,
        arguments: item.arguments,
      });
    } else {
      const text = ((item.content as Item[])[0]?.text as string) ?? '';
      const part = { type: 'output_text', text: '', annotations: [] };
      emit({
        type: 'response.output_item.added',
        output_index,
        item: { ...item, content: [], status: 'in_progress' },
      });
      emit({ type: 'response.content_part.added', item_id, output_index, content_index: 0, part });
      for (const delta of pieces(text))
        emit({
          type: 'response.output_text.delta',
          item_id,
          output_index,
          content_index: 0,
          delta,
          logprobs: [],
        });
      emit({
        type: 'response.output_text.done',
        item_id,
        output_index,
        content_index: 0,
        text,
        logprobs: [],
      });
      emit({
        type: 'response.content_part.done',
        item_id,
        output_index,
        content_index: 0,
        part: { ...part, text },
      });
    }
    emit({ type: 'response.output_item.done', output_index, item });
  });
  emit({ type: 'response.completed', response });
  return events;
}

/** Text in 24-character deltas, as a model streams it. */
function pieces(text: string): string[] {
  const parts: string[] = [];
  for (let start = 0; start < text.length; start += 24) parts.push(text.slice(start, start + 24));
  return parts;
}

/** The input items with each `item_reference` replaced by the item it names, or why one names none. */
function resolveReferences(
  request: ResponsesRequest,
  items: ReadonlyMap<string, Item>,
): Item[] | string {
  if (typeof request.input === 'string') return [{ role: 'user', content: request.input }];
  const resolved: Item[] = [];
  for (const item of request.input) {
    if (item.type !== 'item_reference') {
      resolved.push(item);
      continue;
    }
    const found = typeof item.id === 'string' ? items.get(item.id) : undefined;
    if (!found) return `Item with id '${String(item.id)}' not found.`;
    resolved.push(found);
  }
  return resolved;
}

/** The Responses input as the Messages API shape the policies read (outputs become tool results). */
function toMessagesRequest(request: ResponsesRequest, input: readonly Item[]) {
  const system: string[] = request.instructions ? [request.instructions] : [];
  const messages: RequestMessage[] = [];
  const assistant = (): unknown[] => {
    const last = messages.at(-1);
    if (last?.role === 'assistant' && Array.isArray(last.content)) return last.content;
    const content: unknown[] = [];
    messages.push({ role: 'assistant', content: content as RequestMessage['content'] });
    return content;
  };
  for (const item of input) {
    const type = item.type ?? 'message';
    if (type === 'function_call') {
      assistant().push({
        type: 'tool_use',
        id: item.call_id,
        name: item.name,
        input: parseArguments(item.arguments),
      });
    } else if (type === 'function_call_output') {
      const result = {
        type: 'tool_result',
        tool_use_id: item.call_id,
        content: partsText(item.output),
      };
      const last = messages.at(-1);
      if (last?.role === 'user' && Array.isArray(last.content)) last.content.push(result);
      else messages.push({ role: 'user', content: [result] });
    } else if (type === 'message') {
      const text = partsText(item.content);
      if (item.role === 'system' || item.role === 'developer') system.push(text);
      else if (item.role === 'assistant') assistant().push({ type: 'text', text });
      else messages.push({ role: 'user', content: text });
    }
  }
  return {
    model: request.model,
    max_tokens: 4096,
    messages: messages.length > 0 ? messages : [{ role: 'user' as const, content: '' }],
    ...(system.length > 0 && { system: system.join('\n') }),
    tools: (request.tools ?? []).flatMap((tool) =>
      tool.type === 'function' && tool.name ? [{ name: tool.name }] : [],
    ),
  };
}

function parseArguments(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}
