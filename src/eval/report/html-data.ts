import type { TraceEvent } from '../../runtime/trace.js';
import type { TrialRecord } from '../spec/trial-record.js';
import type { Transcript, TranscriptBlock } from '../transcript/transcript.js';
import { trialCostKey } from './cost-view.js';
import type { TrialTranscript } from './load-transcripts.js';
import { byTrial, listStaleFixtures } from './trial-lists.js';

/** One trial of the HTML report: its record and what its cassette and trace decoded to. */
export interface HtmlTrial {
  record: TrialRecord;
  transcript: TrialTranscript;
}

/** Texts at least this long, held by more than one trial, are stored once (system prompts). */
const SHARED_TEXT_LENGTH = 80;

/** How much of a trial's first message line the trial list shows. */
const FIRST_LINE_LENGTH = 200;

/** A text, or the index of a shared text. */
type Packed = string | number;

/** The transcript with every text passed through `text` (to count them, or to pack them). */
function mapTexts(transcript: Transcript, text: (value: string) => Packed) {
  const block = (entry: TranscriptBlock) =>
    entry.kind === 'tool'
      ? {
          kind: entry.kind,
          call: {
            ...entry.call,
            input: text(entry.call.input),
            ...(entry.call.result === undefined ? {} : { result: text(entry.call.result) }),
          },
        }
      : { kind: entry.kind, text: text(entry.text) };
  return {
    system: text(transcript.system),
    user: text(transcript.user),
    turns: transcript.turns.map((turn) => ({ ...turn, blocks: turn.blocks.map(block) })),
    finalAnswer: text(transcript.finalAnswer),
  };
}

/**
 * The long texts more than one trial holds, each once; a text only one trial holds stays in
 * its data, so opening a trial reads its own data and, at most, this table.
 */
function sharedTexts(transcripts: readonly TrialTranscript[]) {
  // Trials per text: a text one trial holds twice (its answer is its last turn's text) stays.
  const seen = new Map<string, number>();
  for (const loaded of transcripts) {
    if (!('transcript' in loaded)) continue;
    const mine = new Set<string>();
    mapTexts(loaded.transcript, (text) => {
      if (text.length >= SHARED_TEXT_LENGTH) mine.add(text);
      return text;
    });
    for (const text of mine) seen.set(text, (seen.get(text) ?? 0) + 1);
  }
  const texts: string[] = [];
  const index = new Map<string, number>();
  for (const [text, count] of seen) if (count > 1) index.set(text, texts.push(text) - 1);
  return { texts, pack: (text: string): Packed => index.get(text) ?? text };
}

/** Trace events as the page lists them: inputs as JSON text, the rest as written. */
function shownTrace(trace: readonly TraceEvent[]) {
  return trace.map((event) =>
    'input' in event ? { ...event, input: JSON.stringify(event.input ?? null, null, 2) } : event,
  );
}

function sum(values: readonly number[]): number {
  return values.reduce((total, value) => total + value, 0);
}

/** What the trial list and the distribution plots need of a trial, before any transcript. */
function indexEntry(record: TrialRecord) {
  const counted = record.outcome === 'passed' || record.outcome === 'failed';
  return {
    suite: record.suite,
    task: record.task,
    variant: record.variant,
    ...(record.case !== undefined && { case: record.case }),
    trial: record.trial,
    outcome: record.outcome,
    message: (record.messages[0] ?? '').split('\n')[0]!.slice(0, FIRST_LINE_LENGTH),
    // Counted trials only, as the report's means: a stale trial's numbers are not the run's.
    ...(counted && {
      latencyMs: sum(record.modelLatenciesMs),
      ...(record.stats && {
        inputTokens: record.stats.inputTokens,
        outputTokens: record.stats.outputTokens,
      }),
    }),
  };
}

function detailOf(
  { record, transcript: loaded }: HtmlTrial,
  pack: (text: string) => Packed,
  cost: string | undefined,
) {
  const { stats: _stats, modelLatenciesMs: _latencies, ...shown } = record;
  const { trace, ...decoded } = loaded;
  // A stale or missing trial: its fixture, messages and re-record command as every report shows
  // them, built from its names (never a command a record's text gives).
  const [stale] = listStaleFixtures([record]);
  return {
    ...shown,
    ...(stale && {
      messages: stale.messages,
      fixture: stale.fixture,
      rerecordCommand: stale.rerecordCommand,
    }),
    ...('transcript' in decoded
      ? { format: decoded.format, transcript: mapTexts(decoded.transcript, pack) }
      : decoded),
    ...(trace && trace.length > 0 && { trace: shownTrace(trace) }),
    ...(cost !== undefined && { cost }),
  };
}

/**
 * The page's trial data, in list order (suite, task, variant, trial): a small index that comes
 * with the scores, one detail per trial that the page parses only when the trial is opened,
 * and the table of shared texts.
 */
export function htmlTrialData(
  trials: readonly HtmlTrial[],
  costs: Readonly<Record<string, string>> = {},
) {
  const ordered = [...trials].sort((left, right) => byTrial(left.record, right.record));
  const { texts, pack } = sharedTexts(ordered.map((trial) => trial.transcript));
  return {
    index: ordered.map((trial) => indexEntry(trial.record)),
    details: ordered.map((trial) => detailOf(trial, pack, costs[trialCostKey(trial.record)])),
    texts,
  };
}
