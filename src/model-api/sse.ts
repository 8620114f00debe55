import { z } from 'zod';

/**
 * The one SSE reader and writer of the project: the recording tape and the Chat Completions
 * client read streams with parseSseEvents; replay, the simulator and the test servers write
 * them with formatSseEvent, so what is written reads back as it came.
 */

/** One server-sent event: its `event:` name (`message` when the stream sent none) and its `data:`, parsed as JSON when it is JSON. */
export const SseEventSchema = z.object({ event: z.string().min(1), data: z.unknown() }).strict();
export type SseEvent = z.infer<typeof SseEventSchema>;

/** Is this `content-type` an SSE stream's? For a model API only a hint (its request decides); for any other API, how the tape reads its answer. */
export function isEventStream(contentType: string | null | undefined): boolean {
  return contentType?.toLowerCase().includes('text/event-stream') === true;
}

/**
 * Parse a complete `text/event-stream` body into events. `data:` is stored parsed
 * (the Messages API always sends JSON); unparseable data stays a string. Comments
 * (`: ...`) and blocks without data are skipped; `ping` and `error` events are kept.
 */
export function parseSseEvents(text: string): SseEvent[] {
  const events: SseEvent[] = [];
  for (const block of text.replaceAll('\r\n', '\n').split('\n\n')) {
    let event = 'message';
    const data: string[] = [];
    for (const line of block.split('\n')) {
      if (line === '' || line.startsWith(':')) continue;
      const colon = line.indexOf(':');
      const field = colon < 0 ? line : line.slice(0, colon);
      const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
      if (field === 'event') event = value;
      else if (field === 'data') data.push(value);
    }
    if (data.length > 0) events.push({ event, data: parseData(data.join('\n')) });
  }
  return events;
}

/**
 * One event on the wire, `event: X\ndata: JSON\n\n`. `event:` is left out for the default
 * `message` type (Chat Completions streams only `data:`), and data that is a string (`[DONE]`,
 * data that was not JSON) goes out as it is.
 */
export function formatSseEvent(event: SseEvent): string {
  const data = typeof event.data === 'string' ? event.data : JSON.stringify(event.data);
  return `${event.event === 'message' ? '' : `event: ${event.event}\n`}data: ${data}\n\n`;
}

/** The events as a response body, one chunk per event, as the API streamed them. */
export function sseStream(events: readonly SseEvent[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let index = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      const next = events[index++];
      if (!next) return controller.close();
      controller.enqueue(encoder.encode(formatSseEvent(next)));
    },
  });
}

function parseData(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
