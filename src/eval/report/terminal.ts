import { escapeForTerminal } from '../../core/terminal-text.js';
import { describeNotRun, keyOf } from './compare.js';
import { costTerminalSection } from './cost-sections.js';
import { formatAmount, formatChange, formatDelta, formatMean, formatRate } from './format.js';
import { NOT_DISTINGUISHABLE_NOTE } from './format-interval.js';
import { dropTestCell } from './format-statistics.js';
import { gradersTerminalSections } from './graders-terminal.js';
import { buildReportModel, type ReportModel } from './report-model.js';
import type { EvalReport } from './report-schema.js';
import { failureLines, staleLines } from './terminal-failures.js';
import { fitTable } from './terminal-table.js';

export { fitTable } from './terminal-table.js';

export {
  paint,
  TERMINAL_WIDTH,
  visibleLength,
  wrap,
} from './terminal-wrap.js';

import { paint, wrap, wrapClipped } from './terminal-wrap.js';

export interface TerminalOptions {
  /** ANSI colours; pass `process.stdout.isTTY` or leave off for plain text. */
  color?: boolean;
}

function headerLines(model: ReportModel, color: boolean): string[] {
  const { header } = model;
  const fixtures = paint('bold', `Fixtures: ${header.source.label.toUpperCase()}`, color);
  const gate = model.gate.passed
    ? paint('green', 'Gate: PASSED', color)
    : paint('red', 'Gate: FAILED', color);
  return [
    ...wrap(`${fixtures} (${header.source.note})`),
    ...originLines(model),
    ...wrap(
      `Model: ${header.models.join(', ') || '—'} · ${header.generatedAt} · ` +
        `${header.trials} trial${header.trials === 1 ? '' : 's'} per task and variant`,
    ),
    '',
    gate,
    ...model.gate.reasons.flatMap((reason) => wrapClipped(`  - ${reason}`, { indent: '    ' })),
    ...(model.gate.warnings.length > 0
      ? [paint('yellow', 'Warnings (noise at this n, not failing):', color)]
      : []),
    ...model.gate.warnings.flatMap((warning) => wrapClipped(`  - ${warning}`, { indent: '    ' })),
  ];
}

/** The hosts the cassettes came from; per origin the trials, when more than one contributed. */
function originLines(model: ReportModel): string[] {
  const { origins, mixed, lines } = model.header.origins;
  if (!mixed) return origins.length > 0 ? wrap(`Recorded from: ${origins[0]}`) : [];
  return [
    'Recorded from (mixed):',
    ...lines.flatMap((line) => wrap(`  - ${line}`, { indent: '    ' })),
  ];
}

function scoreTable(model: ReportModel, color: boolean): string {
  const { k, bySuite } = model.scores;
  // At k = 1, pass@k and pass^k are pass@1: one column, not three of the same.
  const atK = k > 1;
  const delta = (value: number | null | undefined) => {
    const text = formatDelta(value);
    if (value === null || value === undefined || text === '0.00') return text;
    return paint(value > 0 ? 'green' : 'red', text, color);
  };
  const rows = model.scores.rows.map((row) => [
    ...(bySuite ? [row.suite] : []),
    row.mixedModels ? `${row.task} ⚠` : row.task,
    row.variant,
    row.counted,
    formatRate(row.passAt1),
    ...(atK ? [row.passAtKCell.text, row.passHatKCell.text] : []),
    row.delta ? delta(row.delta.passAt1) : '',
    ...(atK ? [row.delta ? delta(row.delta.passHatK) : ''] : []),
  ]);
  const head = [
    ...(bySuite ? ['Suite'] : []),
    'Task',
    'Variant',
    'c/n',
    'pass@1',
    ...(atK ? [`pass@${k}`, `pass^${k}`] : []),
    'Δ pass@1',
    ...(atK ? ['Δ pass^k'] : []),
  ];
  const right = head.map((_, index) => index).filter((index) => index >= (bySuite ? 4 : 3));
  return [
    fitTable(head, rows, { color, right }),
    ...model.scores.notes.flatMap((note) => wrap(note, { indent: '  ' })),
  ].join('\n');
}

/** 95% intervals of pass@1, pass^k and the Δ pass@1, beside the score table (which has no room). */
function intervalTable(model: ReportModel, color: boolean): string {
  const { k, rows, undecided } = model.scores;
  const atK = k > 1;
  const cells = rows.map((row) => [
    row.task,
    row.variant,
    row.withIntervals.passAt1,
    ...(atK ? [row.withIntervals.passHatK] : []),
    row.withIntervals.delta,
  ]);
  const head = ['Task', 'Variant', 'pass@1', ...(atK ? [`pass^${k}`] : []), 'Δ pass@1'];
  return [
    fitTable(head, cells, { color, right: head.map((_, index) => index).filter((i) => i >= 2) }),
    ...(undecided ? [NOT_DISTINGUISHABLE_NOTE] : []),
  ].join('\n');
}

function summaryTable(model: ReportModel, color: boolean): string {
  const k = model.scores.k;
  const atK = k > 1;
  const rows = model.summary.map((row) => [
    row.suite,
    row.variant,
    row.excludedTasks.length > 0
      ? `${row.tasks} (-${row.excludedTasks.join(',')})`
      : `${row.tasks}`,
    row.passAt1WithInterval,
    ...(atK ? [row.passAtKCell.text, row.passHatKCell.text] : []),
    formatAmount(row.tokens.input),
    formatAmount(row.tokens.output),
  ]);
  const head = [
    'Suite',
    'Variant',
    'Tasks',
    'pass@1 [95%]',
    ...(atK ? [`pass@${k}`, `pass^${k}`] : []),
    'Input',
    'Output',
  ];
  const deltas = model.summary.flatMap((row) => (row.deltaLine ? [row.deltaLine] : []));
  return [
    fitTable(head, rows, { color, right: head.map((_, index) => index).filter((i) => i >= 3) }),
    ...deltas.flatMap((line) => wrap(line)),
    ...(model.summaryNote ? wrap(model.summaryNote) : []),
  ].join('\n');
}

/** Each dataset task's cases: c/n (pass@1) per case and variant. */
function caseTables(model: ReportModel, color: boolean): string {
  return model.cases
    .map((table) =>
      [
        `Cases of ${table.task} ${table.title} (the task's rates are their means)`,
        fitTable(
          ['Case', ...table.variants],
          table.rows.map((row) => [row.case, ...row.cells]),
          {
            color,
            right: table.variants.map((_, index) => index + 1),
          },
        ),
      ].join('\n'),
    )
    .join('\n\n');
}

/** What the checkout changed against the base, first: the reference's rows, then the cassettes. */
function changesLines(model: ReportModel, color: boolean): string {
  const view = model.changes;
  if (!view) return '';
  const lines = [paint('bold', view.title, color), ...view.reference.flatMap((line) => wrap(line))];
  // Every one, never cut: what a reviewer must look at.
  for (const [title, listed] of [
    ['Edited by hand (curated), with who and why:', view.curated],
    ['Changed but not re-recorded (fails the gate):', view.edited],
    ['Task files, datasets, rubrics and labels changed:', view.inputs],
  ] as const) {
    if (listed.length === 0) continue;
    lines.push(paint('bold', title, color), ...listed.flatMap((line) => wrap(`  ${line}`)));
  }
  if (view.rows.length > 0) {
    lines.push(fitTable(['Task', 'Variant', 'Change', 'pass@1', 'pass^k'], view.rows, { color }));
  }
  const shown = view.fixtures.slice(0, MAX_TERMINAL_FIXTURES);
  if (shown.length > 0) {
    const head = ['Cassette', 'Status', 'Before', 'After', 'Changed in'];
    lines.push(fitTable(head, shown, { color }));
  }
  const more = view.more + view.fixtures.length - shown.length;
  if (more > 0) lines.push(`… and ${more} more changed cassettes (reports/latest.md, latest.json)`);
  return lines.join('\n');
}

const MAX_TERMINAL_FIXTURES = 10;

/** What each row's n can detect if re-recorded (detectionView). */
function detectionLines(model: ReportModel, color: boolean): string {
  const { summary, head, rows } = model.detection;
  if (rows.length === 0) return '';
  const right = head.map((_, column) => column).filter((column) => column >= head.length - 4);
  return [...wrap(summary), fitTable(head, rows, { color, right })].join('\n');
}

function tokenTable(model: ReportModel, color: boolean): string {
  const rows = model.costs.map((row) => [
    row.task,
    row.variant,
    ...[row.tokens.input, row.tokens.output, row.tokens.cacheRead, row.tokens.cacheWrite].map(
      formatAmount,
    ),
  ]);
  const head = ['Task', 'Variant', 'Input', 'Output', 'Cache read', 'Cache write'];
  return fitTable(head, rows, { color, right: [2, 3, 4, 5] });
}

function timingTable(model: ReportModel, color: boolean): string {
  const rows = model.costs.map((row) => [
    row.task,
    row.variant,
    ...[row.steps, row.toolCalls, row.toolErrors, row.unconfirmedWrites].map(formatMean),
    ...[row.modelLatencyMs.p50, row.modelLatencyMs.p95, row.toolMs].map(formatAmount),
  ]);
  const head = ['Task', 'Variant', 'Steps', 'Tools', 'Tool err', 'Unconf. w', 'p50 ms', 'p95 ms'];
  return fitTable([...head, 'Tool ms'], rows, { color, right: [2, 3, 4, 5, 6, 7, 8] });
}

function comparisonLines(model: ReportModel, color: boolean): string[] {
  const { comparison } = model;
  if (!comparison) return [];
  const rows = comparison.entries.map((entry) => [
    entry.task,
    entry.variant,
    formatChange(entry.passAt1.before, entry.passAt1.after),
    entry.passHatK.k === null
      ? formatChange(null, null)
      : `${formatChange(entry.passHatK.before, entry.passHatK.after)} (k=${entry.passHatK.k})`,
    entry.flag === 'dropped'
      ? paint('red', entry.flag, color)
      : entry.flag === 'uncounted'
        ? 'not counted'
        : entry.flag,
    dropTestCell(entry, comparison.alpha, model.referenceDecisions[keyOf(entry)]),
  ]);
  const head = ['Task', 'Variant', 'pass@1', 'pass^k', 'Change', 'Cassettes / test'];
  return [
    `Compared with the reference (${comparison.referenceGeneratedAt})`,
    fitTable(head, rows, { color }),
    ...(comparison.notRun
      ? wrap(`Not run (not selected, so not compared): ${describeNotRun(comparison.notRun)}`, {
          indent: '  ',
        })
      : []),
  ];
}

function decisionLines(model: ReportModel, color: boolean): string {
  const view = model.decisions;
  if (!view) return '';
  const rows = view.rows.map((row) => {
    const state = row[3] ?? '';
    const shown = state.startsWith('drop')
      ? paint('red', state, color)
      : state.startsWith('no drop')
        ? paint('green', state, color)
        : paint('yellow', state, color);
    return [...row.slice(0, 3), shown, ...row.slice(4)];
  });
  return [
    view.title,
    fitTable(view.head, rows, { color, right: [4, 6] }),
    ...wrap(view.note, { indent: '' }),
  ].join('\n');
}

/**
 * The eval report for a terminal, every line within 100 columns.
 *
 * @example process.stdout.write(renderTerminal(model, { color: process.stdout.isTTY }))
 */
export function renderTerminal(
  input: ReportModel | EvalReport,
  options: TerminalOptions = {},
): string {
  // Task ids, messages and paths come from task files, shard records and model answers: escaped
  // once here, so the only control sequences printed are this renderer's own colours.
  const model = escapeStrings('header' in input ? input : buildReportModel(input));
  const color = options.color ?? false;
  const graders = gradersTerminalSections(model.graders, {
    table: (head, rows, right) => fitTable(head, rows, { color, ...(right && { right }) }),
    wrap: (text, indent) => wrap(text, { indent: indent ?? '' }),
  });
  const sections = [
    headerLines(model, color).join('\n'),
    changesLines(model, color),
    ['Scores', scoreTable(model, color)].join('\n'),
    [
      `95% intervals (Wilson; Δ: Newcombe${model.cases.length > 0 ? '; a task over cases: bootstrap over its cases, Δ paired by case' : ''})`,
      intervalTable(model, color),
    ].join('\n'),
    ...graders.scores,
    ['Suite summary (means over tasks)', summaryTable(model, color)].join('\n'),
    caseTables(model, color),
    ['Tokens (mean per counted trial)', tokenTable(model, color)].join('\n'),
    ['Steps and timing (mean per counted trial)', timingTable(model, color)].join('\n'),
    costTerminalSection(model.cost, {
      table: (head, rows, right) => fitTable(head, rows, { color, right }),
      wrap: (text) => wrap(text, { indent: '  ' }),
    }),
    ...graders.judges,
    comparisonLines(model, color).join('\n'),
    decisionLines(model, color),
    detectionLines(model, color),
    staleLines(model).join('\n'),
    failureLines(model).join('\n'),
  ];
  return `${sections.filter((section) => section !== '').join('\n\n')}\n`;
}

/** The model with every string's control characters escaped (line breaks kept). */
function escapeStrings<Value>(value: Value): Value {
  if (typeof value === 'string') return escapeForTerminal(value, { lines: true }) as Value;
  if (Array.isArray(value)) return value.map(escapeStrings) as Value;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value).map(([key, item]) => [key, escapeStrings(item)]);
    return Object.fromEntries(entries) as Value;
  }
  return value;
}
