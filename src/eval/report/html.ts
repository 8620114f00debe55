import { showBidiControls } from '../../core/terminal-text.js';
import type { TrialRecord } from '../trial/trial-record.js';
import { NOT_DISTINGUISHABLE_NOTE } from './format-interval.js';
import { HTML_SCRIPT } from './html-script.js';
import { HTML_STYLE } from './html-style.js';
import type { TrialTranscript } from './load-transcripts.js';
import { redactForReport } from './redact.js';
import { buildReportModel, type ReportModel } from './report-model.js';
import type { EvalReport } from './report-schema.js';
import type { Transcript, TranscriptBlock } from './transcript.js';

/** Texts at least this long are stored once and referenced by index (system prompts, tool results). */
const SHARED_TEXT_LENGTH = 80;

/** How much of a trial's first message line the trial list shows. */
const FIRST_LINE_LENGTH = 200;

/** A text, or the index of a shared text in `texts`. */
type Packed = string | number;

function createTextTable() {
  const texts: string[] = [];
  const index = new Map<string, number>();
  const pack = (text: string): Packed => {
    if (text.length < SHARED_TEXT_LENGTH) return text;
    let at = index.get(text);
    if (at === undefined) {
      at = texts.push(text) - 1;
      index.set(text, at);
    }
    return at;
  };
  return { texts, pack };
}

function packTranscript(transcript: Transcript, pack: (text: string) => Packed) {
  const block = (entry: TranscriptBlock) =>
    entry.kind === 'tool'
      ? {
          kind: entry.kind,
          call: {
            ...entry.call,
            input: pack(entry.call.input),
            ...(entry.call.result === undefined ? {} : { result: pack(entry.call.result) }),
          },
        }
      : { kind: entry.kind, text: pack(entry.text) };
  return {
    system: pack(transcript.system),
    user: pack(transcript.user),
    turns: transcript.turns.map((turn) => ({ ...turn, blocks: turn.blocks.map(block) })),
    finalAnswer: pack(transcript.finalAnswer),
  };
}

/**
 * JSON that cannot close the script element it sits in, with every string redacted (strings
 * only: a rate such as 0.6666666666666666 is a long digit run, not a card number) and its
 * bidirectional controls shown as escapes, as the terminal and markdown reports show them.
 */
function scriptJson(value: unknown): string {
  return JSON.stringify(value, (_key, entry: unknown) =>
    typeof entry === 'string' ? showBidiControls(redactForReport(entry)) : entry,
  )
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

export interface HtmlTrial {
  record: TrialRecord;
  transcript: TrialTranscript;
}

/**
 * `reports/latest.html`: one self-contained file (inline CSS and JS, no network) with the
 * scores, the gate, filters, and every trial's transcript. The data is embedded once as JSON;
 * the page renders the scores and the trial list first, parses the transcripts once the page has
 * loaded, and renders a transcript only when it is opened. Recorded text is redacted here.
 *
 * @example await writeFileAtomic('reports/latest.html', renderHtml(model, trials));
 */
export function renderHtml(input: ReportModel | EvalReport, trials: readonly HtmlTrial[]): string {
  const model = 'header' in input ? input : buildReportModel(input);
  const { texts, pack } = createTextTable();
  // The list of trials is small and comes with the scores; their details (messages, paths,
  // transcripts) are the bulk of the file and are parsed once the page has loaded.
  const index = trials.map(({ record }, at) => ({
    i: at,
    suite: record.suite,
    task: record.task,
    variant: record.variant,
    trial: record.trial,
    outcome: record.outcome,
    message: (record.messages[0] ?? '').split('\n')[0]!.slice(0, FIRST_LINE_LENGTH),
  }));
  const details = trials.map(({ record, transcript }) => {
    const { stats: _stats, modelLatenciesMs: _latencies, ...shown } = record;
    return {
      ...shown,
      ...('transcript' in transcript
        ? { transcript: packTranscript(transcript.transcript, pack) }
        : { unavailable: transcript.unavailable }),
    };
  });
  // What the page shows of the model; the rates for every k and the per-trial lists stay out.
  const shown = {
    header: model.header,
    gate: model.gate,
    scores: {
      ...model.scores,
      rows: model.scores.rows.map(({ passAtK: _at, passHatK: _hat, ...row }) => row),
    },
    comparison: model.comparison,
    stale: { commands: model.stale.commands },
    notDistinguishable: NOT_DISTINGUISHABLE_NOTE,
    trials: index,
  };
  return [
    '<!doctype html>',
    '<html lang="en"><head><meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    // No network: nothing but inline style and script, and data: URIs at most.
    `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:">`,
    '<title>Eval report</title>',
    `<style>${HTML_STYLE}</style>`,
    '</head><body>',
    '<header id="header"></header>',
    '<main><div class="filters" id="filters"></div><section id="scores"></section>',
    '<section id="trials"></section><section class="panel" id="panel"></section></main>',
    // The scores and the trial list first: shown before the parser reaches the transcripts.
    `<script type="application/json" id="report-model">${scriptJson(shown)}</script>`,
    `<script>${HTML_SCRIPT}</script>`,
    `<script type="application/json" id="report-trials">${scriptJson({ details, texts })}</script>`,
    '<noscript>This report needs JavaScript; reports/latest.md has the tables.</noscript>',
    '</body></html>',
    '',
  ].join('\n');
}
