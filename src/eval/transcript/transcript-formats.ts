import type { Cassette, Exchange } from '../../replay/cassette.js';
import type { TraceEvent } from '../../runtime/trace.js';
import { isChatCompletionsExchange } from './chat-transcript.js';
import { isResponsesExchange } from './responses-transcript.js';
import { decodeTranscript, type Transcript } from './transcript.js';

/**
 * A wire format whose cassettes decode into a transcript. The HTML report's page renders a
 * transcript by this name (its own registry in report/viewer/transcript.ts): a new format (the
 * Responses API, judge calls) is one entry here and one there.
 */
export interface TranscriptFormat {
  name: string;
  /** Whether an exchange is a call of this format. */
  reads(exchange: Exchange): boolean;
  decode(cassette: Cassette, trace: readonly TraceEvent[]): Transcript;
}

const pathOf = (exchange: Exchange) => exchange.request.path.split('?')[0] ?? '';

/** In order: a cassette holding calls of several formats is decoded by the first that reads one. */
export const TRANSCRIPT_FORMATS: readonly TranscriptFormat[] = [
  {
    name: 'anthropic-messages',
    reads: (exchange) => exchange.request.path.startsWith('/v1/messages'),
    decode: decodeTranscript,
  },
  { name: 'openai-chat-completions', reads: isChatCompletionsExchange, decode: decodeTranscript },
  { name: 'openai-responses', reads: isResponsesExchange, decode: decodeTranscript },
];

/** Formats known by name that nothing decodes yet: the page says which one it cannot show. */
const NAMED_FORMATS: ReadonlyArray<{ name: string; reads(exchange: Exchange): boolean }> = [];

/** A trial's cassette as the page gets it: decoded, or the name of a format nothing decodes. */
export type DecodedCassette =
  | { format: string; transcript: Transcript }
  | { format: string; undecoded: string }
  | { unavailable: string };

/**
 * The transcript of a cassette in the first format that reads one of its calls; for a cassette
 * no format reads, the name of its format (a known one, else its first call's method and path).
 */
export function decodeCassette(cassette: Cassette, trace: readonly TraceEvent[]): DecodedCassette {
  const { exchanges } = cassette;
  if (exchanges.length === 0) return { unavailable: 'the cassette holds no model calls' };
  const format = TRANSCRIPT_FORMATS.find((entry) => exchanges.some(entry.reads));
  if (format) return { format: format.name, transcript: format.decode(cassette, trace) };
  const first = exchanges[0]!;
  const named = NAMED_FORMATS.find((entry) => exchanges.some(entry.reads));
  const name = named?.name ?? `${first.request.method} ${pathOf(first)}`;
  const decoders = TRANSCRIPT_FORMATS.map((entry) => entry.name).join(', ');
  return {
    format: name,
    undecoded: `${exchanges.length} call${exchanges.length === 1 ? '' : 's'} of ${name}; transcripts decode from ${decoders}`,
  };
}

/**
 * A trial's transcript for the HTML report: its cassette decoded (or why not), with the trace
 * events the run wrote when there are any.
 */
export type TrialTranscript = DecodedCassette & { trace?: TraceEvent[] };

/** The cassette a trial replayed or recorded, and its trace, as the report shows them. */
export function trialTranscript(cassette: Cassette, trace: readonly TraceEvent[]): TrialTranscript {
  const decoded = decodeCassette(cassette, trace);
  return trace.length > 0 ? { ...decoded, trace: [...trace] } : decoded;
}
