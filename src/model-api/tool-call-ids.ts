import { hasCallId } from './chat-completion-check.js';

/** A message of the request, as far as its tool-call ids go. */
export interface SentMessage {
  role: string;
  tool_calls?: ReadonlyArray<{ id?: unknown }>;
  tool_call_id?: unknown;
}

/**
 * Some OpenAI-compatible servers (sglang, some GLM and StepFun streams) send tool calls without
 * an id. Each such call (id missing, null or empty) gets `call_<n>`: n counts the tool calls of
 * the request's messages (`sent`) before it, so a later turn's calls do not repeat an earlier
 * turn's ids (a backend may require ids unique across the conversation). `call_<n>_<k>` when a
 * real id of the message or of the request is that already, so every tool message answers one
 * call. Deterministic: the same request and answer get the same ids, so a recorded cassette
 * replays to the same ids and the same next request.
 */
export function withCallIds<T extends { id?: unknown }>(
  calls: readonly T[],
  sent: readonly SentMessage[] = [],
): Array<T & { id: string }> {
  const earlier = sent.flatMap((message) => message.tool_calls ?? []);
  const taken = new Set(
    [...earlier, ...calls, ...sent.map((message) => ({ id: message.tool_call_id }))]
      .filter(hasCallId)
      .map((call) => call.id),
  );
  return calls.map((call, index) => {
    if (hasCallId(call)) return call as T & { id: string };
    const n = earlier.length + index;
    let id = `call_${n}`;
    for (let k = 1; taken.has(id); k += 1) id = `call_${n}_${k}`;
    taken.add(id);
    return { ...call, id };
  });
}
