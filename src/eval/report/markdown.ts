import {
  countedCell,
  describeSources,
  formatAmount,
  formatDelta,
  formatMean,
  NONE,
  rateCell,
  rateNear,
} from './format.js';
import {
  deltaWithInterval,
  NOT_DISTINGUISHABLE_NOTE,
  rateWithInterval,
} from './format-interval.js';
import { describeOrigins } from './format-provenance.js';
import { suiteDeltaLine } from './format-statistics.js';
import { comparisonSection, failuresSection, staleSection } from './markdown-lists.js';
import { barChart, escapeText, inlineCode, table } from './markdown-parts.js';
import type { EvalReport, TaskSummary } from './report-schema.js';

function header(report: EvalReport): string {
  const source = describeSources(report.fixtureSources);
  const models = report.models.length > 0 ? report.models.map(inlineCode).join(', ') : NONE;
  return [
    '# Eval report',
    '',
    `> Fixtures: **${source.label}** (${source.note})`,
    ...originLines(report),
    '>',
    `> Model: ${models} · Date: ${report.generatedAt} · Trials: ${report.trials} per task and variant` +
      ` · Suite: ${report.suites.map(escapeText).join(', ') || NONE}`,
  ].join('\n');
}

/** The hosts the cassettes came from; per origin the trials, when more than one contributed. */
function originLines(report: EvalReport): string[] {
  const { origins, mixed, lines } = describeOrigins(report);
  if (!mixed) return origins.length > 0 ? ['>', `> Recorded from: ${escapeText(origins[0]!)}`] : [];
  return ['>', '> Recorded from (mixed):', ...lines.map((line) => `> - ${escapeText(line)}`)];
}

function gateSection(report: EvalReport): string {
  const warnings =
    report.gate.warnings.length > 0
      ? [
          '',
          '**Warnings** (noise at this n, not failing):',
          '',
          ...report.gate.warnings.map((warning) => `- ${escapeText(warning)}`),
        ]
      : [];
  if (report.gate.passed) return ['## Gate: ✅ passed', ...warnings].join('\n');
  const reasons = report.gate.reasons.map((reason) => `- ${escapeText(reason)}`);
  return ['## Gate: ❌ failed', '', ...reasons, ...warnings].join('\n');
}

/** "Δ pass@1 vs baseline" when every delta has the same reference variant. */
function deltaHeads(tasks: readonly TaskSummary[]): [string, string] {
  const against = new Set(tasks.flatMap((row) => (row.delta ? [row.delta.against] : [])));
  const suffix = against.size === 1 ? ` vs ${escapeText([...against][0]!)}` : '';
  return [`Δ pass@1${suffix}`, `Δ pass^k${suffix}`];
}

function scoresSection(report: EvalReport): string {
  const k = report.trials;
  const head = ['Suite', 'Task', 'Title', 'Variant', 'c/n', 'pass@1', `pass@${k}`, `pass^${k}`];
  // The interval at k only when the cell shows k itself (not a shorter row's largest k).
  const withInterval = (
    rates: TaskSummary['passAtK'],
    intervals: TaskSummary['intervals']['passAtK'],
  ) =>
    rateNear(rates, k).k === k
      ? rateWithInterval(rates[String(k)], intervals[String(k)])
      : rateCell(rates, k);
  const rows = report.tasks.map((row) => [
    escapeText(row.suite),
    escapeText(row.task),
    escapeText(row.title),
    escapeText(row.variant),
    countedCell(row),
    rateWithInterval(row.passAt1, row.intervals.passAt1),
    withInterval(row.passAtK, row.intervals.passAtK),
    withInterval(row.passHatK, row.intervals.passHatK),
    row.delta ? deltaWithInterval(row.delta) : '',
    row.delta ? formatDelta(row.delta.passHatK) : '',
  ]);
  const undecided = report.tasks.some((row) => row.delta?.distinguishable === false);
  return [
    '## Scores',
    '',
    'Rates with their 95% interval: [lower, upper].',
    '',
    table([...head, ...deltaHeads(report.tasks)], rows, 'llllrrrrrr'),
    ...(undecided ? ['', NOT_DISTINGUISHABLE_NOTE] : []),
  ].join('\n');
}

function chartSection(report: EvalReport): string {
  const bars = report.tasks.map((row) => {
    const { k, value } = rateNear(row.passHatK, report.trials);
    const shortfall = k !== undefined && k !== report.trials ? ` (k=${k})` : '';
    return { label: `${row.task} ${row.variant}${shortfall}`, value };
  });
  if (bars.every((bar) => bar.value === null)) return 'No pass^k to chart: no trial was counted.';
  const note = bars.some((bar) => bar.value === null)
    ? '\n\nRows without a counted trial have no bar.'
    : '';
  const title = `pass^${report.trials} per task and variant`;
  return `${barChart({ title, yLabel: 'pass^k', bars })}${note}`;
}

function summarySection(report: EvalReport): string {
  const k = report.trials;
  const head = ['Suite', 'Variant', 'Tasks', 'pass@1', `pass@${k}`, `pass^${k}`, 'Input', 'Output'];
  const rows = report.summary.map((row) => [
    escapeText(row.suite),
    escapeText(row.variant),
    `${row.tasks}${row.excludedTasks.length > 0 ? ` (left out: ${row.excludedTasks.map(escapeText).join(', ')})` : ''}`,
    rateWithInterval(row.passAt1, row.intervals.passAt1),
    rateCell(row.passAtK, k),
    rateCell(row.passHatK, k),
    formatAmount(row.tokens.input),
    formatAmount(row.tokens.output),
  ]);
  const deltas = report.summary.flatMap((row) =>
    row.delta ? [`- ${escapeText(suiteDeltaLine(row))}`] : [],
  );
  return [
    '## Suite summary',
    '',
    'Means over tasks (intervals: bootstrap over tasks); a task with no counted trial is left out and named.',
    '',
    table(head, rows, 'llrrrrrr'),
    ...(deltas.length > 0 ? ['', ...deltas] : []),
  ].join('\n');
}

function costsSection(report: EvalReport): string {
  const head = ['Task', 'Variant', 'Input', 'Output', 'Cache read', 'Cache write', 'Steps']
    .concat(['Tool calls', 'Tool errors', 'Unconfirmed writes', 'Model p50 ms', 'Model p95 ms'])
    .concat(['Tool ms']);
  const rows = report.tasks.map((row) => [
    escapeText(row.task),
    escapeText(row.variant),
    ...[row.tokens.input, row.tokens.output, row.tokens.cacheRead, row.tokens.cacheWrite].map(
      formatAmount,
    ),
    ...[row.steps, row.toolCalls, row.toolErrors, row.unconfirmedWrites].map(formatMean),
    ...[row.modelLatencyMs.p50, row.modelLatencyMs.p95, row.toolMs].map(formatAmount),
  ]);
  const estimates = report.fixtureSources.includes('simulator')
    ? ' Simulator token counts are estimates.'
    : '';
  return [
    '## Tokens and timing',
    '',
    `Means per counted trial; model latency as recorded; tool time is virtual when replayed.${estimates}`,
    '',
    table(head, rows, `ll${'r'.repeat(11)}`),
  ].join('\n');
}

/**
 * `reports/latest.md` and the GitHub job summary: fixture source up front, the gate, score
 * and cost tables, a Mermaid chart, the comparison, failed trials and stale fixtures.
 */
export function renderMarkdown(report: EvalReport): string {
  const sections = [
    header(report),
    gateSection(report),
    scoresSection(report),
    chartSection(report),
    summarySection(report),
    costsSection(report),
    comparisonSection(report),
    staleSection(report),
    failuresSection(report),
  ];
  return `${sections.filter((section) => section !== '').join('\n\n')}\n`;
}
