import type { Anthropic } from '@anthropic-ai/sdk';

/** A Messages API stream event, as its `data:` carries it. */
export type MessageStreamEvent = Anthropic.RawMessageStreamEvent | { type: 'ping' };

/** Split text into small pieces, the way a streamed response arrives. */
function chunks(text: string, size: number): string[] {
  const pieces: string[] = [];
  for (let start = 0; start < text.length; start += size)
    pieces.push(text.slice(start, start + size));
  return pieces;
}

/**
 * The event sequence the Messages API streams for a message: message_start (empty
 * content, output_tokens 1), ping, per block content_block_start / _delta / _stop,
 * message_delta (stop_reason, final usage), message_stop.
 */
export function toSseEvents(message: Anthropic.Message): MessageStreamEvent[] {
  const events: MessageStreamEvent[] = [
    {
      type: 'message_start',
      message: {
        ...message,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { ...message.usage, output_tokens: 1 },
      },
    },
    { type: 'ping' },
  ];
  for (const [index, block] of message.content.entries()) {
    if (block.type === 'text') {
      events.push({ type: 'content_block_start', index, content_block: { ...block, text: '' } });
      for (const text of chunks(block.text, 24)) {
        events.push({ type: 'content_block_delta', index, delta: { type: 'text_delta', text } });
      }
    } else if (block.type === 'tool_use') {
      events.push({ type: 'content_block_start', index, content_block: { ...block, input: {} } });
      for (const partial_json of ['', ...chunks(JSON.stringify(block.input), 16)]) {
        events.push({
          type: 'content_block_delta',
          index,
          delta: { type: 'input_json_delta', partial_json },
        });
      }
    }
    events.push({ type: 'content_block_stop', index });
  }
  const { usage } = message;
  events.push(
    {
      type: 'message_delta',
      delta: {
        stop_reason: message.stop_reason,
        stop_sequence: message.stop_sequence,
        stop_details: null,
        container: null,
      },
      usage: {
        input_tokens: usage.input_tokens,
        output_tokens: usage.output_tokens,
        cache_creation_input_tokens: usage.cache_creation_input_tokens,
        cache_read_input_tokens: usage.cache_read_input_tokens,
        server_tool_use: null,
        output_tokens_details: null,
      },
    },
    { type: 'message_stop' },
  );
  return events;
}
