import type { Block } from './transcript-model.js';

/** A turn's answer as the agent sent it back: the request's messages and its index among them. */
export interface SentBack {
  messages: readonly Block[];
  at: number;
}

/**
 * Where each turn's answer was sent back, so its calls get the results that follow it there.
 * `keys[i]` names exchange i's tool calls (undefined: none); `keyOf` names an assistant message
 * of a request the same way. Turn i's answer is in the first later request holding an assistant
 * message with its key, the last such message there (an earlier turn that reused the ids comes
 * before it). Not simply the next request: another conversation (a summarizer, a sub-agent) may
 * come in between. One pass over the requests, ids compared, never whole histories.
 */
export function sentBackAnswers(
  requests: ReadonlyArray<readonly Block[]>,
  keys: ReadonlyArray<string | undefined>,
  keyOf: (message: Block) => string | undefined,
): Array<SentBack | undefined> {
  const wanted = new Set(keys);
  // Per key, the requests that hold it in order, each with its last such message.
  const holders = new Map<string, Array<{ request: number; at: number }>>();
  requests.forEach((messages, request) => {
    messages.forEach((message, at) => {
      if (message.role !== 'assistant') return;
      const key = keyOf(message);
      if (key === undefined || !wanted.has(key)) return;
      const found = holders.get(key) ?? [];
      if (found.at(-1)?.request === request) found.pop();
      found.push({ request, at });
      holders.set(key, found);
    });
  });
  // Turns come in order, so each key's list is read once from where the last turn left it.
  const next = new Map<string, number>();
  return keys.map((key, turn) => {
    if (key === undefined) return undefined;
    const found = holders.get(key) ?? [];
    let index = next.get(key) ?? 0;
    while (index < found.length && (found[index]?.request ?? 0) <= turn) index += 1;
    next.set(key, index);
    const holder = found[index];
    const messages = holder && requests[holder.request];
    return holder && messages ? { messages, at: holder.at } : undefined;
  });
}
