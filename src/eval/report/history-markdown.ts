import { escapeText } from '../../core/markdown-text.js';
import { formatDelta } from './format.js';
import { formatInterval, rateWithInterval } from './format-interval.js';
import type { History, HistoryChange, HistorySeries, SkippedReport } from './history-model.js';
import { table } from './markdown-table.js';

export const HISTORY_RULE =
  "A change is called between two consecutive reports of a row when Newcombe's 95% interval of the pass@1 difference leaves out 0, or on any difference when both replayed the same cassettes. It is flaky when the harness files did not change between the two commits (everything but reports/ and fixtures/, or the --harness paths); else regressed (it fell), recovered (it rose after a regression) or improved. See docs/reports.md#history-across-commits.";

/** pass@1 in eighths, lowest to highest. */
const SPARKS = '▁▂▃▄▅▆▇█';

const rowName = (series: HistorySeries) =>
  escapeText(`${series.suite} ${series.task} ${series.variant}`);

/** A commit or a report file as inline code: nothing in it can end the span or the cell. */
const code = (label: string) => `\`${label.replace(/[`|\r\n]/g, '?')}\``;

/** A commit's subject, cut to what a table cell can hold. */
export function shortSubject(subject: string): string {
  return subject.length > 60 ? `${subject.slice(0, 59).trimEnd()}…` : subject;
}

function pointName(history: History, at: number): string {
  const point = history.points[at]!;
  const subject = point.subject ? ` ${escapeText(shortSubject(point.subject))}` : '';
  return `${code(point.label)} ${escapeText(point.date.slice(0, 10))}${subject}`;
}

function why(change: HistoryChange): string {
  const harness =
    change.harnessChanged === undefined
      ? 'harness unknown (no git)'
      : change.harnessChanged
        ? 'harness changed'
        : 'harness unchanged';
  return change.deterministic ? `${harness}; same cassettes` : harness;
}

function changeRows(history: History): string[][] {
  return history.series.flatMap((series) =>
    series.changes.map((change) => {
      const [before, after] = [series.values[change.from]!, series.values[change.at]!];
      return [
        rowName(series),
        `**${change.mark}**`,
        pointName(history, change.at),
        `${before.passed}/${before.n} → ${after.passed}/${after.n}`,
        `${formatDelta(change.difference.value)} ${formatInterval(change.difference.interval, true)}`,
        why(change),
      ];
    }),
  );
}

function lineRows(series: readonly HistorySeries[]): string[][] {
  return series.map((row) => {
    const shown = row.values.filter((value) => value !== undefined);
    const last = shown.at(-1);
    const marks = row.changes.map((change) => change.mark);
    return [
      rowName(row),
      String(shown.length),
      shown.map((value) => SPARKS[Math.round(value.rate * 7)]).join(''),
      last ? rateWithInterval(last.rate, last.interval) : '—',
      marks.length > 0 ? marks.join(', ') : 'steady',
    ];
  });
}

/** The skipped versions, those skipped for the same reason on one line. */
function skippedLines(skipped: readonly SkippedReport[]): string[] {
  if (skipped.length === 0) return [];
  const byWhy = new Map<string, SkippedReport[]>();
  for (const skip of skipped) byWhy.set(skip.why, [...(byWhy.get(skip.why) ?? []), skip]);
  return [
    '',
    `Skipped ${skipped.length}:`,
    ...[...byWhy].map(
      ([why, skips]) => `- ${skips.map((skip) => code(skip.label)).join(', ')}: ${escapeText(why)}`,
    ),
  ];
}

/**
 * The history as markdown: where it was read, what was skipped and why, every called change
 * with the commit it happened at, and each row's pass@1 line.
 *
 * @example process.stdout.write(renderHistoryMarkdown(history));
 */
export function renderHistoryMarkdown(history: History): string {
  const { points, skipped } = history;
  const span =
    points.length > 0
      ? `${points.length} reports, ${pointName(history, 0)} to ${pointName(history, points.length - 1)}`
      : 'no readable report';
  const changes = changeRows(history);
  return [
    `# History of ${escapeText(history.source)}`,
    '',
    `${span}.`,
    ...skippedLines(skipped),
    '',
    '## Changes',
    '',
    changes.length > 0
      ? table(['Row', 'Mark', 'At', 'Passed', 'Δ pass@1 [95%]', 'Why'], changes)
      : 'No row changed its pass@1 beyond its interval.',
    '',
    '## pass@1 per task and variant',
    '',
    table(
      ['Row', 'Reports', 'Line (▁ 0 to █ 1)', 'Last pass@1 [95%]', 'Changes'],
      lineRows(history.series),
    ),
    '',
    `_${escapeText(HISTORY_RULE)}_`,
    '',
  ].join('\n');
}
