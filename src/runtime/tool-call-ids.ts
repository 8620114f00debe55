/** Does this Chat Completions tool call carry an id of its own (a non-empty string)? */
export function hasCallId(call: { id?: unknown }): call is { id: string } {
  return typeof call.id === 'string' && call.id !== '';
}

/**
 * Some OpenAI-compatible servers (sglang, some GLM and StepFun streams) send tool calls without
 * an id. Each such call (id missing, null or empty) gets `call_<index>`, its position in the
 * message, or `call_<index>_<n>` when a real id of the message is that already, so every tool
 * message answers one call. Deterministic: a recorded answer replays to the same ids, and so
 * to the same next request.
 */
export function withCallIds<T extends { id?: unknown }>(
  calls: readonly T[],
): Array<T & { id: string }> {
  const taken = new Set(calls.filter(hasCallId).map((call) => call.id));
  return calls.map((call, index) => {
    if (hasCallId(call)) return call as T & { id: string };
    let id = `call_${index}`;
    for (let n = 1; taken.has(id); n += 1) id = `call_${index}_${n}`;
    taken.add(id);
    return { ...call, id };
  });
}
