import type { TapedResponse } from '../../replay/cassette.js';

/** One tool call as the model asked for it and as the harness answered it. */
export interface TranscriptToolCall {
  name: string;
  /** The call's id as the API gave it (tool_use id, tool_calls id, call_id), when it has one. */
  id?: string;
  /** The input as JSON text. */
  input: string;
  /** The harness's decision label from the trace (allow, deny, timeout, ...), when traced. */
  decision?: string;
  ms?: number;
  /** The tool_result text exactly as the model saw it (truncation and timeout notices included). */
  result?: string;
  isError?: boolean;
}

export type TranscriptBlock =
  | { kind: 'text'; text: string }
  | { kind: 'thinking'; text: string }
  | { kind: 'tool'; call: TranscriptToolCall };

/** One model call: what the assistant said and did, with its tokens and recorded latency. */
export interface TranscriptTurn {
  step: number;
  stopReason: string | null;
  blocks: TranscriptBlock[];
  tokens: { input: number; output: number; cacheRead: number; cacheWrite: number };
  latencyMs: number;
  /** An error response (status and message) instead of a message. */
  error?: string;
}

/** A trial's conversation, decoded from its cassette (plus decisions and timings from its trace). */
export interface Transcript {
  system: string;
  user: string;
  turns: TranscriptTurn[];
  finalAnswer: string;
}

/** A JSON object of a cassette, read field by field. */
export type Block = Record<string, unknown>;

/** Content as text: a string, or the `text` of its parts (Messages API blocks, Chat Completions parts). */
export function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((block: unknown) =>
      typeof block === 'object' && block !== null && typeof (block as Block).text === 'string'
        ? ((block as Block).text as string)
        : '',
    )
    .filter((text) => text !== '')
    .join('\n');
}

/** The text of the last turn: what the trial answered. */
export function finalAnswerOf(turns: readonly TranscriptTurn[]): string {
  return (turns.at(-1)?.blocks ?? [])
    .flatMap((block) => (block.kind === 'text' ? [block.text] : []))
    .join('\n');
}

/** An error answer as a turn shows it: `HTTP 429: {...}`, the body's `error` when it has one. */
export function httpErrorText(response: TapedResponse): string {
  const body = 'events' in response ? response.events.map((event) => event.data) : response.body;
  const said =
    (typeof body === 'object' && body !== null && !Array.isArray(body)
      ? (body as Block).error
      : undefined) ??
    body ??
    {};
  return `HTTP ${response.status}: ${JSON.stringify(said)}`;
}
