import { formatSseEvent } from '../../model-api/sse.js';
import type { HostileHandler } from '../../runtime/testing/hostile-api.js';

/** A valid Chat Completions answer; `choice` and `extra` replace its parts. */
export function completion(
  choice: Record<string, unknown> = {},
  extra: Record<string, unknown> = {},
) {
  return {
    id: 'chatcmpl-1',
    object: 'chat.completion',
    created: 1,
    model: 'gpt-test',
    choices: [
      {
        index: 0,
        message: { role: 'assistant', content: 'hello' },
        finish_reason: 'stop',
        ...choice,
      },
    ],
    usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
    ...extra,
  };
}

/** The event that ends a Chat Completions stream. */
const DONE = { event: 'message', data: '[DONE]' };

/**
 * A Chat Completions stream: `data:` lines only, `[DONE]` last unless `done` is false; `cut`
 * destroys the socket after the chunks instead of ending the response.
 */
export const chunks =
  (data: unknown[], options: { done?: boolean; cut?: boolean } = {}): HostileHandler =>
  (response) => {
    response.writeHead(200, { 'content-type': 'text/event-stream' });
    for (const item of data) response.write(formatSseEvent({ event: 'message', data: item }));
    if (options.cut) return void setImmediate(() => response.destroy());
    if (options.done !== false) response.write(formatSseEvent(DONE));
    response.end();
  };

export const delta = (fields: Record<string, unknown>, finishReason: string | null = null) => ({
  id: 'chatcmpl-1',
  object: 'chat.completion.chunk',
  choices: [{ index: 0, delta: fields, finish_reason: finishReason }],
});

/** A whole Chat Completions stream as text: `data:` chunks, `data: [DONE]` last. */
export function chatStreamText(data: readonly unknown[]): string {
  return [...data.map((item) => ({ event: 'message', data: item })), DONE]
    .map(formatSseEvent)
    .join('');
}

/** The chunks of a complete streamed answer `text`, usage last. */
export const chatStreamOf = (text = 'hello') => [
  delta({ role: 'assistant', content: '' }),
  delta({ content: text }),
  delta({}, 'stop'),
  { id: 'chatcmpl-1', choices: [], usage: { prompt_tokens: 10, completion_tokens: 5 } },
];
