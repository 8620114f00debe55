import { createHash } from 'node:crypto';
import { showInvisible } from '../../core/terminal-text.js';
import { gradersHtml } from './graders-html.js';
import { boundTrial } from './html-bounds.js';
import { type HtmlTrial, htmlTrialData } from './html-data.js';
import { htmlModel } from './html-model.js';
import { HTML_STYLE } from './html-style.js';
import { redactForReport } from './redact.js';
import { buildReportModel, type ReportModel } from './report-model.js';
import type { EvalReport } from './report-schema.js';
import { viewerScript } from './viewer-bundle.js';

export type { HtmlTrial } from './html-data.js';

/**
 * JSON that cannot close the script element it sits in, with every string redacted (strings
 * only: a rate such as 0.6666666666666666 is a long digit run, not a card number) and its
 * invisible and bidirectional characters shown as escapes, as the terminal and markdown reports show them.
 */
function scriptJson(value: unknown): string {
  return JSON.stringify(value, (_key, entry: unknown) =>
    typeof entry === 'string' ? showInvisible(redactForReport(entry)) : entry,
  )
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

/**
 * No network and no inline code but ours: the one stylesheet and the one script run by their
 * hashes, so markup that got into the page could run nothing (no handler, no script, no style).
 */
export function htmlCsp(): string {
  return [
    "default-src 'none'",
    `style-src ${sha256(HTML_STYLE)}`,
    `script-src ${sha256(viewerScript())}`,
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
}

/**
 * `reports/latest.html`: one self-contained file (inline CSS and JS, no network): the scores,
 * the suite summary, plots, and a trial list beside the selected trial's transcript. The scores
 * and the trial index come first and render at once; each trial's details sit in their own data
 * element that the page parses only when that trial is opened. Recorded text is redacted here.
 *
 * @example await writeFileAtomic('reports/latest.html', renderHtml(model, trials));
 */
export function renderHtml(input: ReportModel | EvalReport, trials: readonly HtmlTrial[]): string {
  const model = 'header' in input ? input : buildReportModel(input);
  const { index, details, texts } = htmlTrialData(trials.map(boundTrial), model.trialCosts);
  const shown = {
    ...htmlModel(model),
    trials: index,
  };
  return [
    '<!doctype html>',
    '<html lang="en"><head><meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<meta http-equiv="Content-Security-Policy" content="${htmlCsp()}">`,
    '<title>Eval report</title>',
    `<style>${HTML_STYLE}</style>`,
    '</head><body>',
    '<header id="header"></header><nav id="nav"></nav><main id="view"></main>',
    // Mean scores, judges' agreement and calibration, judge errors: static, for the viewer to place.
    `<section id="graders" class="graders">${gradersHtml(model.graders)}</section>`,
    // The scores and the trial index first: shown before the parser reaches the details.
    `<script type="application/json" id="report-model">${scriptJson(shown)}</script>`,
    `<script>${viewerScript()}</script>`,
    `<script type="application/json" id="report-texts">${scriptJson(texts)}</script>`,
    ...details.map(
      (detail, at) =>
        `<script type="application/json" id="trial-${at}">${scriptJson(detail)}</script>`,
    ),
    '<noscript>This report needs JavaScript; reports/latest.md has the tables.</noscript>',
    '</body></html>',
    '',
  ].join('\n');
}
