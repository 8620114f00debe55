import { escapeHtmlText, escapeText, LINE_BREAK } from '../../core/markdown-text.js';
import { escapeForTerminal, showInvisible } from '../../core/terminal-text.js';
import { describeNotRun, keyOf } from './compare.js';
import { costMarkdownSection } from './cost-sections.js';
import { decisionsMarkdown } from './decisions-view.js';
import {
  fixtureState,
  formatAmount,
  formatChange,
  formatDelta,
  formatMean,
  formatRate,
  NONE,
  trialLabel,
} from './format.js';
import { NOT_DISTINGUISHABLE_NOTE } from './format-interval.js';
import { dropTestCell } from './format-statistics.js';
import { gradersMarkdownSections } from './graders-markdown.js';
import { changesMarkdown } from './markdown-changes.js';
import { table } from './markdown-table.js';
import { buildReportModel, type ReportModel } from './report-model.js';
import type { ComparisonFlag, EvalReport } from './report-schema.js';

/** Where CI keeps the HTML report; the markdown points readers to it. */
/** The variable a CI workflow names its report artifact in; the upload step uses the same. */
export const ARTIFACT_ENV = 'HARNESS_EVALS_ARTIFACT';

/**
 * Where the transcripts are: `reports/latest.html`, and in CI the artifact the workflow uploads
 * it in, named by ARTIFACT_ENV (the workflows set it once and upload under it, so the report
 * names the artifact that exists). A name that is not a plain artifact name is not printed.
 */
export function htmlReportNote(artifact: string | undefined): string {
  const upload =
    artifact && /^[\w.-]{1,100}$/.test(artifact)
      ? `; in this CI run, the \`${artifact}\` artifact`
      : '';
  return `Transcripts of every trial: \`reports/latest.html\` (open it with \`npm run view\`${upload}).`;
}

/** CommonMark ends a line at LF, CRLF and a lone CR: any of them could open a code fence. */
/** A run of backticks longer than any inside the text, so the text cannot close it. */
function fenceFor(text: string, minimum: number): string {
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((match) => match[0].length));
  return '`'.repeat(Math.max(minimum, longest + 1));
}

export function inlineCode(text: string): string {
  const flat = showInvisible(text).replace(LINE_BREAK, ' ');
  const fence = fenceFor(flat, 1);
  // CommonMark strips one space each side, which is only needed next to a backtick.
  const pad = flat.startsWith('`') || flat.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${flat}${pad}${fence}`;
}

export function codeBlock(text: string, language = ''): string {
  const shown = showInvisible(text);
  const fence = fenceFor(shown, 3);
  return `${fence}${language}\n${shown}\n${fence}`;
}

/** A GFM table; `align` has one letter per column, l or r (default: all left). */

function details(summary: string, body: readonly string[]): string {
  return ['<details>', `<summary>${summary}</summary>`, '', ...body, '', '</details>'].join('\n');
}

function header(model: ReportModel): string {
  const { header } = model;
  const models = header.models.length > 0 ? header.models.map(inlineCode).join(', ') : NONE;
  return [
    '# Eval report',
    '',
    `> Fixtures: **${header.source.label}** (${header.source.note})`,
    ...originLines(model),
    '>',
    `> Model: ${models} · Date: ${header.generatedAt} · Trials: ${header.trials} per task and variant` +
      ` · Suite: ${header.suites.map(escapeText).join(', ') || NONE}`,
  ].join('\n');
}

/** The hosts the cassettes came from; per origin the trials, when more than one contributed. */
function originLines(model: ReportModel): string[] {
  const { origins, mixed, lines } = model.header.origins;
  if (!mixed) return origins.length > 0 ? ['>', `> Recorded from: ${escapeText(origins[0]!)}`] : [];
  return ['>', '> Recorded from (mixed):', ...lines.map((line) => `> - ${escapeText(line)}`)];
}

function gateSection(model: ReportModel): string {
  const warnings =
    model.gate.warnings.length > 0
      ? [
          '',
          '**Warnings** (noise at this n, not failing):',
          '',
          ...model.gate.warnings.map((warning) => `- ${escapeText(warning)}`),
        ]
      : [];
  if (model.gate.passed) return ['## Gate: ✅ passed', ...warnings].join('\n');
  const reasons = model.gate.reasons.map((reason) => `- ${escapeText(reason)}`);
  return ['## Gate: ❌ failed', '', ...reasons, ...warnings].join('\n');
}

function scoresSection(model: ReportModel): string {
  const { k, deltaAgainst } = model.scores;
  // At k = 1, pass@k and pass^k are pass@1: one column, not three of the same.
  const atK = k > 1;
  const suffix = deltaAgainst === undefined ? '' : ` vs ${escapeText(deltaAgainst)}`;
  const head = [
    'Suite',
    'Task',
    'Title',
    'Variant',
    'c/n',
    'pass@1',
    ...(atK ? [`pass@${k}`, `pass^${k}`] : []),
  ];
  const rows = model.scores.rows.map((row) => [
    escapeText(row.suite),
    `${escapeText(row.task)}${row.mixedModels ? ' ⚠' : ''}`,
    escapeText(row.title),
    escapeText(row.variant),
    row.counted,
    row.withIntervals.passAt1,
    ...(atK ? [row.withIntervals.passAtK, row.withIntervals.passHatK] : []),
    row.withIntervals.delta,
    ...(atK ? [row.delta ? formatDelta(row.delta.passHatK) : ''] : []),
  ]);
  const deltas = [`Δ pass@1${suffix}`, ...(atK ? [`Δ pass^k${suffix}`] : [])];
  return [
    '## Scores',
    '',
    'Rates with their 95% interval: [lower, upper].',
    '',
    table([...head, ...deltas], rows, `llll${'r'.repeat(head.length + deltas.length - 4)}`),
    ...(model.scores.undecided ? ['', NOT_DISTINGUISHABLE_NOTE] : []),
    ...(model.scores.notes.length > 0
      ? ['', ...model.scores.notes.map((note) => `- ${escapeText(note)}`)]
      : []),
  ].join('\n');
}

/** An `xychart-beta` bar chart; bars without a value are left out. */
function chartSection(model: ReportModel): string {
  const { title, bars: all } = model.chart;
  if (all.every((bar) => bar.value === null)) return 'No pass^k to chart: no trial was counted.';
  const note = all.some((bar) => bar.value === null)
    ? '\n\nRows without a counted trial have no bar.'
    : '';
  const quote = (text: string) => `"${mermaidText(text)}"`;
  const bars = all.filter((bar) => bar.value !== null);
  const chart = [
    '```mermaid',
    'xychart-beta',
    `  title ${quote(title)}`,
    `  x-axis [${bars.map((bar) => quote(bar.label)).join(', ')}]`,
    `  y-axis ${quote('pass^k')} 0 --> 1`,
    `  bar [${bars.map((bar) => formatRate(bar.value)).join(', ')}]`,
    '```',
  ].join('\n');
  return `${chart}${note}`;
}

/** Mermaid's entity codes for what could end a label or start a directive, HTML or markdown. */
const MERMAID_ENTITIES: Record<string, string> = {
  '#': '#35;',
  '"': '#quot;',
  '%': '#37;',
  '`': '#96;',
  '<': '#60;',
  '>': '#62;',
};

/**
 * A label's text for inside `"..."` in a Mermaid chart inside a markdown fence. A line break
 * would end the fence (a task id from a shard record could then write markdown of its own), a
 * quote the label, `%%{` would start a directive: each becomes a space or an entity code that
 * Mermaid shows as the character.
 */
export function mermaidText(text: string): string {
  const oneLine = escapeForTerminal(text.replace(LINE_BREAK, ' '));
  return oneLine.replace(/[#"%`<>]/g, (char) => MERMAID_ENTITIES[char] ?? char);
}

function summarySection(model: ReportModel): string {
  const k = model.scores.k;
  const atK = k > 1;
  const head = [
    'Suite',
    'Variant',
    'Tasks',
    'pass@1',
    ...(atK ? [`pass@${k}`, `pass^${k}`] : []),
    'Input',
    'Output',
  ];
  const rows = model.summary.map((row) => [
    escapeText(row.suite),
    escapeText(row.variant),
    `${row.tasks}${row.excludedTasks.length > 0 ? ` (left out: ${row.excludedTasks.map(escapeText).join(', ')})` : ''}`,
    row.passAt1WithInterval,
    ...(atK ? [row.passAtKCell.text, row.passHatKCell.text] : []),
    formatAmount(row.tokens.input),
    formatAmount(row.tokens.output),
  ]);
  const deltas = model.summary.flatMap((row) =>
    row.deltaLine ? [`- ${escapeText(row.deltaLine)}`] : [],
  );
  return [
    '## Suite summary',
    '',
    'Means over tasks (intervals: bootstrap over tasks and the trials within each); a task with no counted trial is left out and named.',
    '',
    table(head, rows, `ll${'r'.repeat(head.length - 2)}`),
    ...(deltas.length > 0 ? ['', ...deltas] : []),
    ...(model.summaryNote ? ['', escapeText(model.summaryNote)] : []),
  ].join('\n');
}

/** Each dataset task's cases, folded: c/n (pass@1) per case and variant. */
function casesSection(model: ReportModel): string {
  if (model.cases.length === 0) return '';
  const tables = model.cases.map((entry) =>
    details(
      `${escapeHtmlText(entry.task)} ${escapeHtmlText(entry.title)}: ${entry.rows.length} cases`,
      [
        table(
          ['Case', ...entry.variants.map(escapeText)],
          entry.rows.map((row) => [escapeText(row.case), ...row.cells]),
          `l${'r'.repeat(entry.variants.length)}`,
        ),
      ],
    ),
  );
  return [
    '## Cases',
    '',
    "A task over cases: c/n and pass@1 per case; the task's rates are their means, its intervals treat a case's trials as a cluster.",
    '',
    tables.join('\n\n'),
  ].join('\n');
}

/** What the checkout changed against the base, first in the report: reference rows, cassettes. */
function changesSection(model: ReportModel): string {
  return model.changes ? changesMarkdown(model.changes, '##', 50) : '';
}

/** What each row's n can detect if re-recorded, folded: its sentence shows, the table opens. */
function detectionSection(model: ReportModel): string {
  const { summary, head, rows } = model.detection;
  if (rows.length === 0) return '';
  const align = head.map((_, column) => (column >= head.length - 4 ? 'r' : 'l')).join('');
  return details('Detection limit', [
    escapeText(summary),
    '',
    table(
      head,
      rows.map((row) => row.map(escapeText)),
      align,
    ),
  ]);
}

function costsSection(model: ReportModel): string {
  const head = ['Task', 'Variant', 'Input', 'Output', 'Cache read', 'Cache write', 'Steps']
    .concat(['Tool calls', 'Tool errors', 'Unconfirmed writes', 'Model p50 ms', 'Model p95 ms'])
    .concat(['Tool ms']);
  const rows = model.costs.map((row) => [
    escapeText(row.task),
    escapeText(row.variant),
    ...[row.tokens.input, row.tokens.output, row.tokens.cacheRead, row.tokens.cacheWrite].map(
      formatAmount,
    ),
    ...[row.steps, row.toolCalls, row.toolErrors, row.unconfirmedWrites].map(formatMean),
    ...[row.modelLatencyMs.p50, row.modelLatencyMs.p95, row.toolMs].map(formatAmount),
  ]);
  const estimates = model.header.estimatedTokens ? ' Simulator token counts are estimates.' : '';
  return [
    '## Tokens and timing',
    '',
    `Means per counted trial; model latency as recorded; tool time is virtual when replayed.${estimates}`,
    '',
    table(head, rows, `ll${'r'.repeat(11)}`),
  ].join('\n');
}

const FLAG_LABELS: Record<ComparisonFlag, string> = {
  dropped: '▼ dropped',
  improved: '▲ improved',
  same: 'same',
  uncounted: 'not counted',
  new: 'new',
  gone: 'gone',
};

function comparisonSection(model: ReportModel): string {
  const { comparison } = model;
  if (!comparison) return '';
  const rows = comparison.entries.map((entry) => [
    escapeText(entry.task),
    escapeText(entry.variant),
    formatChange(entry.passAt1.before, entry.passAt1.after),
    entry.passHatK.k === null ? '' : String(entry.passHatK.k),
    formatChange(entry.passHatK.before, entry.passHatK.after),
    FLAG_LABELS[entry.flag],
    escapeText(dropTestCell(entry, comparison.alpha, model.referenceDecisions[keyOf(entry)])),
  ]);
  return [
    `## Compared with the reference (${escapeText(comparison.referenceGeneratedAt)})`,
    '',
    `Before → after; pass^k at the largest k both runs have. On the same cassettes every drop fails the gate; on re-recorded ones only a drop significant at alpha ${comparison.alpha} for the whole run (one-sided Fisher test, Holm-adjusted over the rows compared) does.`,
    '',
    table(
      ['Task', 'Variant', 'pass@1', 'k', 'pass^k', 'Change', 'Cassettes / test'],
      rows,
      'llrrrll',
    ),
    ...(comparison.notRun
      ? [
          '',
          `Not run (not selected, so not compared): ${escapeText(describeNotRun(comparison.notRun))}.`,
        ]
      : []),
  ].join('\n');
}

function messagesBlock(messages: readonly string[]): string[] {
  return messages.length === 0 ? ['(no message)'] : [codeBlock(messages.join('\n\n'), 'text')];
}

function staleSection(model: ReportModel): string {
  const { entries: stale, commands } = model.stale;
  if (stale.length === 0) return '';
  const rerecord =
    commands.length > 0 ? ['Re-record with:', '', codeBlock(commands.join('\n'), 'sh'), ''] : [];
  const entries = stale.map((entry) =>
    details(`${escapeHtmlText(trialLabel(entry))}: ${fixtureState(entry)}`, [
      ...(entry.fixture ? [`Fixture: ${inlineCode(entry.fixture)}`, ''] : []),
      ...(entry.rerecordCommand ? [`Re-record: ${inlineCode(entry.rerecordCommand)}`, ''] : []),
      ...messagesBlock(entry.messages),
    ]),
  );
  return [
    `## Stale or missing fixtures (${stale.length})`,
    '',
    'These trials were not counted: not as passes, not as failures.',
    '',
    ...rerecord,
    entries.join('\n\n'),
  ].join('\n');
}

function failuresSection(model: ReportModel): string {
  const failures = model.failures;
  if (failures.length === 0) return '';
  const entries = failures.map((failure) =>
    details(`${escapeHtmlText(trialLabel(failure))}: ${failure.outcome}`, [
      ...(failure.tracePath ? [`Trace: ${inlineCode(failure.tracePath)}`, ''] : []),
      ...messagesBlock(failure.messages),
    ]),
  );
  return [`## Failed trials (${failures.length})`, '', entries.join('\n\n')].join('\n');
}

/**
 * `reports/latest.md` and the GitHub job summary: fixture source up front, the gate, score
 * and cost tables, a Mermaid chart, the comparison, failed trials and stale fixtures.
 * With `htmlNote`, a line saying where the HTML report with the transcripts is.
 */
export function renderMarkdown(
  input: ReportModel | EvalReport,
  options: { htmlNote?: string } = {},
): string {
  const model = 'header' in input ? input : buildReportModel(input);
  const graders = gradersMarkdownSections(model.graders, table);
  const sections = [
    header(model),
    gateSection(model),
    changesSection(model),
    options.htmlNote ?? '',
    scoresSection(model),
    ...graders.scores,
    chartSection(model),
    summarySection(model),
    casesSection(model),
    costsSection(model),
    costMarkdownSection(model.cost),
    ...graders.judges,
    comparisonSection(model),
    decisionsMarkdown(model.decisions, escapeText, table),
    detectionSection(model),
    staleSection(model),
    failuresSection(model),
  ];
  return `${sections.filter((section) => section !== '').join('\n\n')}\n`;
}
