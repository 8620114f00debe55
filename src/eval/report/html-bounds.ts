import { keepHead } from '../../runtime/truncate.js';
import type { Transcript, TranscriptBlock } from '../transcript/transcript.js';
import type { HtmlTrial } from './html-data.js';
import { fixturePathOf } from './trial-lists.js';

/** At most this much of one text (an answer, a tool result, a message) goes into the page. */
export const MAX_TEXT_CHARACTERS = 500_000;
/** At most this much of all of one trial's texts together. */
export const MAX_TRIAL_CHARACTERS = 2_000_000;

/**
 * The trial with each text cut to what the page embeds: a 50 MB answer made a 100 MB report
 * and a process of several times that. A cut text says how much it kept and where the whole
 * text is (the trial's cassette), as the terminal says of a long tool result.
 */
export function boundTrial(trial: HtmlTrial): HtmlTrial {
  let left = MAX_TRIAL_CHARACTERS;
  const fixture = fixturePathOf(trial.record);
  const bound = (text: string): string => {
    const limit = Math.min(MAX_TEXT_CHARACTERS, left);
    if (text.length <= limit) {
      left -= text.length;
      return text;
    }
    const head = keepHead(text, limit);
    left -= head.length;
    return `${head}\n[truncated: ${head.length} of ${text.length} characters kept; the whole text: ${fixture}]`;
  };
  const record = {
    ...trial.record,
    messages: trial.record.messages.map(bound),
    ...(trial.record.expected !== undefined && { expected: bound(trial.record.expected) }),
  };
  const loaded = trial.transcript;
  if (!('transcript' in loaded)) return { record, transcript: loaded };
  return { record, transcript: { ...loaded, transcript: boundTexts(loaded.transcript, bound) } };
}

function boundTexts(transcript: Transcript, bound: (text: string) => string): Transcript {
  const block = (entry: TranscriptBlock): TranscriptBlock =>
    entry.kind === 'tool'
      ? {
          ...entry,
          call: {
            ...entry.call,
            input: bound(entry.call.input),
            ...(entry.call.result !== undefined && { result: bound(entry.call.result) }),
          },
        }
      : { ...entry, text: bound(entry.text) };
  return {
    ...transcript,
    system: bound(transcript.system),
    user: bound(transcript.user),
    finalAnswer: bound(transcript.finalAnswer),
    turns: transcript.turns.map((turn) => ({ ...turn, blocks: turn.blocks.map(block) })),
  };
}
