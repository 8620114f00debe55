import type { Transcript, TranscriptBlock, TranscriptTurn } from '../../transcript/transcript.js';
import type { PlanAttributes } from './span-plan.js';

/**
 * The GenAI semantic conventions' content attributes (opt-in there, `--otel-content` here),
 * as the JSON the conventions define for messages: `{ role, parts: [{ type, content }] }`.
 * Every string the exporter sends is redacted like the reports (export-trace.ts), these too.
 */
type Part =
  | { type: 'text'; content: string }
  | { type: 'reasoning'; content: string }
  | { type: 'tool_call'; id?: string; name: string; arguments: unknown };

function partOf(block: TranscriptBlock): Part {
  if (block.kind === 'text') return { type: 'text', content: block.text };
  if (block.kind === 'thinking') return { type: 'reasoning', content: block.text };
  const { call } = block;
  return {
    type: 'tool_call',
    ...(call.id !== undefined && { id: call.id }),
    name: call.name,
    arguments: parsedOrText(call.input),
  };
}

function parsedOrText(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** A chat span's answer: `gen_ai.output.messages`. */
export function turnContent(turn: TranscriptTurn): PlanAttributes {
  const message = {
    role: 'assistant',
    parts: turn.blocks.map(partOf),
    ...(turn.stopReason !== null && { finish_reason: turn.stopReason }),
  };
  return { 'gen_ai.output.messages': JSON.stringify([message]) };
}

/** The agent span's instructions, the user's prompt and the final answer. */
export function conversationContent(transcript: Transcript): PlanAttributes {
  const text = (content: string) => [{ type: 'text', content }];
  return {
    ...(transcript.system !== '' && {
      'gen_ai.system_instructions': JSON.stringify(text(transcript.system)),
    }),
    'gen_ai.input.messages': JSON.stringify([{ role: 'user', parts: text(transcript.user) }]),
    'gen_ai.output.messages': JSON.stringify([
      { role: 'assistant', parts: text(transcript.finalAnswer) },
    ]),
  };
}
