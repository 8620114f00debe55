import {
  blocksOf,
  type MessagesRequest,
  MessagesRequestSchema,
  type RequestMessage,
} from './request.js';

export type Validation = { ok: true; body: MessagesRequest } | { ok: false; message: string };

/** Validate a request body the way the Messages API does, with its style of messages. */
export function validateRequest(body: unknown): Validation {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return { ok: false, message: 'The request body is not a JSON object' };
  }
  const parsed = MessagesRequestSchema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue?.path.map(String).join('.') ?? '';
    const missing = issue !== undefined && valueAt(body, issue.path) === undefined;
    return { ok: false, message: `${field}: ${missing ? 'Field required' : issue?.message}` };
  }
  const pairing = checkToolPairing(parsed.data.messages);
  return pairing === undefined ? { ok: true, body: parsed.data } : { ok: false, message: pairing };
}

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let value = root;
  for (const key of path) {
    if (typeof value !== 'object' || value === null) return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

/**
 * The API's rule: every assistant tool_use needs a tool_result in the very next user
 * message, and every tool_result needs a tool_use in the message just before it.
 */
function checkToolPairing(messages: readonly RequestMessage[]): string | undefined {
  for (const [index, message] of messages.entries()) {
    const next = messages[index + 1];
    if (message.role === 'assistant') {
      const ids = idsOf(message, 'tool_use', 'id');
      const answered = next?.role === 'user' ? idsOf(next, 'tool_result', 'tool_use_id') : [];
      const unanswered = ids.filter((id) => !answered.includes(id));
      if (unanswered.length > 0) {
        return (
          `messages.${index + 1}: \`tool_use\` ids were found without \`tool_result\` blocks ` +
          `immediately after: ${unanswered.join(', ')}. Each \`tool_use\` block must have a ` +
          'corresponding `tool_result` block in the next message.'
        );
      }
    } else {
      const previous = messages[index - 1];
      const offered = previous?.role === 'assistant' ? idsOf(previous, 'tool_use', 'id') : [];
      const orphans = idsOf(message, 'tool_result', 'tool_use_id').filter(
        (id) => !offered.includes(id),
      );
      if (orphans.length > 0) {
        return (
          `messages.${index}.content: unexpected \`tool_use_id\` found in \`tool_result\` ` +
          `blocks: ${orphans.join(', ')}. Each \`tool_result\` block must have a corresponding ` +
          '`tool_use` block in the previous message.'
        );
      }
    }
  }
  return undefined;
}

function idsOf(message: RequestMessage, type: string, key: string): string[] {
  return blocksOf(message)
    .filter((block) => block.type === type)
    .map((block) => String(block[key]));
}
