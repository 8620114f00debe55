import {
  countedCell,
  describeSources,
  formatAmount,
  formatChange,
  formatDelta,
  formatMean,
  formatRate,
  rateCell,
  rateNear,
} from './format.js';
import {
  deltaWithInterval,
  NOT_DISTINGUISHABLE_NOTE,
  rateWithInterval,
} from './format-interval.js';
import { describeOrigins } from './format-provenance.js';
import { dropTestCell, suiteDeltaLine } from './format-statistics.js';
import type { EvalReport } from './report-schema.js';
import { failureLines, staleLines } from './terminal-lists.js';
import { fitTable, paint, wrap } from './terminal-parts.js';

export interface TerminalOptions {
  /** ANSI colours; pass `process.stdout.isTTY` or leave off for plain text. */
  color?: boolean;
}

function headerLines(report: EvalReport, color: boolean): string[] {
  const source = describeSources(report.fixtureSources);
  const fixtures = paint('bold', `Fixtures: ${source.label.toUpperCase()}`, color);
  const gate = report.gate.passed
    ? paint('green', 'Gate: PASSED', color)
    : paint('red', 'Gate: FAILED', color);
  return [
    ...wrap(`${fixtures} (${source.note})`),
    ...originLines(report),
    ...wrap(
      `Model: ${report.models.join(', ') || '—'} · ${report.generatedAt} · ` +
        `${report.trials} trials per task and variant`,
    ),
    '',
    gate,
    ...report.gate.reasons.flatMap((reason) => wrap(`  - ${reason}`, { indent: '    ' })),
    ...(report.gate.warnings.length > 0
      ? [paint('yellow', 'Warnings (noise at this n, not failing):', color)]
      : []),
    ...report.gate.warnings.flatMap((warning) => wrap(`  - ${warning}`, { indent: '    ' })),
  ];
}

/** The hosts the cassettes came from; per origin the trials, when more than one contributed. */
function originLines(report: EvalReport): string[] {
  const { origins, mixed, lines } = describeOrigins(report);
  if (!mixed) return origins.length > 0 ? wrap(`Recorded from: ${origins[0]}`) : [];
  return [
    'Recorded from (mixed):',
    ...lines.flatMap((line) => wrap(`  - ${line}`, { indent: '    ' })),
  ];
}

function scoreTable(report: EvalReport, color: boolean): string {
  const k = report.trials;
  const delta = (value: number | null | undefined) => {
    const text = formatDelta(value);
    if (value === null || value === undefined || text === '0.00') return text;
    return paint(value > 0 ? 'green' : 'red', text, color);
  };
  // The suite column only earns its width when more than one suite ran.
  const bySuite = new Set(report.tasks.map((row) => row.suite)).size > 1;
  const rows = report.tasks.map((row) => [
    ...(bySuite ? [row.suite] : []),
    row.task,
    row.variant,
    countedCell(row),
    formatRate(row.passAt1),
    rateCell(row.passAtK, k),
    rateCell(row.passHatK, k),
    row.delta ? delta(row.delta.passAt1) : '',
    row.delta ? delta(row.delta.passHatK) : '',
  ]);
  const head = [
    ...(bySuite ? ['Suite'] : []),
    'Task',
    'Variant',
    'c/n',
    'pass@1',
    `pass@${k}`,
    `pass^${k}`,
    'Δ pass@1',
    'Δ pass^k',
  ];
  const right = [3, 4, 5, 6, 7].map((column) => column + (bySuite ? 1 : 0));
  return fitTable(head, rows, { color, right });
}

/** 95% intervals of pass@1, pass^k and the Δ pass@1, beside the score table (which has no room). */
function intervalTable(report: EvalReport, color: boolean): string {
  const k = report.trials;
  const rows = report.tasks.map((row) => [
    row.task,
    row.variant,
    rateWithInterval(row.passAt1, row.intervals.passAt1),
    rateNear(row.passHatK, k).k === k
      ? rateWithInterval(row.passHatK[String(k)], row.intervals.passHatK[String(k)])
      : rateCell(row.passHatK, k),
    row.delta ? deltaWithInterval(row.delta) : '',
  ]);
  const head = ['Task', 'Variant', 'pass@1', `pass^${k}`, 'Δ pass@1'];
  const undecided = report.tasks.some((row) => row.delta?.distinguishable === false);
  return [
    fitTable(head, rows, { color, right: [2, 3, 4] }),
    ...(undecided ? [NOT_DISTINGUISHABLE_NOTE] : []),
  ].join('\n');
}

function summaryTable(report: EvalReport, color: boolean): string {
  const k = report.trials;
  const rows = report.summary.map((row) => [
    row.suite,
    row.variant,
    row.excludedTasks.length > 0
      ? `${row.tasks} (-${row.excludedTasks.join(',')})`
      : `${row.tasks}`,
    rateWithInterval(row.passAt1, row.intervals.passAt1),
    rateCell(row.passAtK, k),
    rateCell(row.passHatK, k),
    formatAmount(row.tokens.input),
    formatAmount(row.tokens.output),
  ]);
  const head = [
    'Suite',
    'Variant',
    'Tasks',
    'pass@1 [95%]',
    `pass@${k}`,
    `pass^${k}`,
    'Input',
    'Output',
  ];
  const deltas = report.summary.flatMap((row) => (row.delta ? [suiteDeltaLine(row)] : []));
  return [
    fitTable(head, rows, { color, right: [3, 4, 5, 6, 7] }),
    ...deltas.flatMap((line) => wrap(line)),
  ].join('\n');
}

function tokenTable(report: EvalReport, color: boolean): string {
  const rows = report.tasks.map((row) => [
    row.task,
    row.variant,
    ...[row.tokens.input, row.tokens.output, row.tokens.cacheRead, row.tokens.cacheWrite].map(
      formatAmount,
    ),
  ]);
  const head = ['Task', 'Variant', 'Input', 'Output', 'Cache read', 'Cache write'];
  return fitTable(head, rows, { color, right: [2, 3, 4, 5] });
}

function timingTable(report: EvalReport, color: boolean): string {
  const rows = report.tasks.map((row) => [
    row.task,
    row.variant,
    ...[row.steps, row.toolCalls, row.toolErrors, row.unconfirmedWrites].map(formatMean),
    ...[row.modelLatencyMs.p50, row.modelLatencyMs.p95, row.toolMs].map(formatAmount),
  ]);
  const head = ['Task', 'Variant', 'Steps', 'Tools', 'Tool err', 'Unconf. w', 'p50 ms', 'p95 ms'];
  return fitTable([...head, 'Tool ms'], rows, { color, right: [2, 3, 4, 5, 6, 7, 8] });
}

function comparisonLines(report: EvalReport, color: boolean): string[] {
  const { comparison } = report;
  if (!comparison) return [];
  const rows = comparison.entries.map((entry) => [
    entry.task,
    entry.variant,
    formatChange(entry.passAt1.before, entry.passAt1.after),
    entry.passHatK.k === null
      ? formatChange(null, null)
      : `${formatChange(entry.passHatK.before, entry.passHatK.after)} (k=${entry.passHatK.k})`,
    entry.flag === 'dropped' ? paint('red', entry.flag, color) : entry.flag,
    dropTestCell(entry, comparison.alpha),
  ]);
  const head = ['Task', 'Variant', 'pass@1', 'pass^k', 'Change', 'Cassettes / test'];
  return [
    `Compared with the reference (${comparison.referenceGeneratedAt})`,
    fitTable(head, rows, { color }),
  ];
}

/**
 * The eval report for a terminal, every line within 100 columns.
 *
 * @example process.stdout.write(renderTerminal(report, { color: process.stdout.isTTY }))
 */
export function renderTerminal(report: EvalReport, options: TerminalOptions = {}): string {
  const color = options.color ?? false;
  const sections = [
    headerLines(report, color).join('\n'),
    ['Scores', scoreTable(report, color)].join('\n'),
    ['95% intervals (Wilson; Δ: Newcombe)', intervalTable(report, color)].join('\n'),
    ['Suite summary (means over tasks)', summaryTable(report, color)].join('\n'),
    ['Tokens (mean per counted trial)', tokenTable(report, color)].join('\n'),
    ['Steps and timing (mean per counted trial)', timingTable(report, color)].join('\n'),
    comparisonLines(report, color).join('\n'),
    staleLines(report).join('\n'),
    failureLines(report).join('\n'),
  ];
  return `${sections.filter((section) => section !== '').join('\n\n')}\n`;
}
