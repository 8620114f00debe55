import { canonicalJson } from '../../core/canonical-json.js';
import { JUDGE_SECTIONS } from '../../model-api/judge-wire.js';

/** A tag of ours written inside a section (with any code) is shown inert: `‹/answer-...>`. */
const OUR_TAG = new RegExp(`<(?=\\s*/?\\s*(?:${JUDGE_SECTIONS.join('|')})\\b)`, 'gi');

/**
 * The text of one section as the judge is shown it: our section tags made inert, so an answer
 * cannot close its section or open another (judge-neutralise.test.ts removes this and sees a
 * gullible judge fooled).
 */
export function neutralise(text: string): string {
  return text.replace(OUR_TAG, '‹');
}

/** Longest tool input and tool result a judge is shown; the rest is cut with a note. */
const MAX_INPUT_CHARS = 600;
const MAX_RESULT_CHARS = 1500;

function cut(text: string, max: number): string {
  return text.length <= max
    ? text
    : `${text.slice(0, max)} [cut: ${max} of ${text.length} characters shown]`;
}

function inputText(input: unknown): string {
  try {
    return cut(canonicalJson(input ?? null), MAX_INPUT_CHARS);
  } catch {
    return '(an input that is not JSON)';
  }
}

/** `1. get_order {"order_id":"ORD1001"} -> allow`, one line per call, in order. */
export function renderToolCalls(
  calls: ReadonlyArray<{ tool: string; input: unknown; decision?: string; isError?: boolean }>,
): string {
  if (calls.length === 0) return '(no tool calls)';
  return calls
    .map((call, index) => {
      const outcome = [call.decision, call.isError ? 'error' : undefined].filter(Boolean);
      const tail = outcome.length > 0 ? ` -> ${outcome.join(', ')}` : '';
      return `${index + 1}. ${call.tool} ${inputText(call.input)}${tail}`;
    })
    .join('\n');
}

type Block = { type?: unknown; text?: unknown; name?: unknown; input?: unknown; content?: unknown };

function blockLines(role: string, block: Block): string[] {
  switch (block.type) {
    case 'text':
      return typeof block.text === 'string' ? [`[${role}] ${block.text}`] : [];
    case 'tool_use':
      return [`[${role} calls a tool] ${String(block.name)} ${inputText(block.input)}`];
    case 'tool_result': {
      const content = block.content;
      const text =
        typeof content === 'string'
          ? content
          : Array.isArray(content)
            ? content
                .map((part: Block) => (typeof part.text === 'string' ? part.text : ''))
                .join('')
            : '';
      return [`[tool result] ${cut(text, MAX_RESULT_CHARS)}`];
    }
    default:
      return [];
  }
}

/** The conversation, one line per text, tool call and tool result (results cut when long). */
export function renderTranscript(messages: readonly unknown[]): string {
  const lines = messages.flatMap((message) => {
    const { role, content } = (message ?? {}) as { role?: unknown; content?: unknown };
    const who = typeof role === 'string' ? role : 'unknown';
    if (typeof content === 'string') return [`[${who}] ${content}`];
    if (!Array.isArray(content)) return [];
    return content.flatMap((block: Block) => blockLines(who, block ?? {}));
  });
  return lines.length > 0 ? lines.join('\n') : '(no transcript)';
}
