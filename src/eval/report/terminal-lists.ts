import { groupRerecordCommands } from '../rerecord.js';
import { trialLabel } from './format.js';
import type { EvalReport } from './report-schema.js';
import { wrap } from './terminal-parts.js';

// Long assertion diffs belong in reports/latest.md, not in the terminal.
const MAX_MESSAGE_LINES = 6;
const MAX_DETAILED_STALE = 2;
const MAX_STALE_DETAIL_LINES = 16;

/** Stale and missing trials (the first few with their diff, line by line), then each re-record command once. */
export function staleLines(report: EvalReport): string[] {
  const stale = report.staleFixtures;
  if (stale.length === 0) return [];
  const commands = groupRerecordCommands(stale.flatMap((entry) => entry.rerecordCommand ?? []));
  const lines = ['Stale or missing fixtures (not counted)'];
  stale.forEach((entry, index) => {
    lines.push(...wrap(`  ${trialLabel(entry)}: ${entry.outcome}`));
    if (index >= MAX_DETAILED_STALE) return;
    // The divergence is a line diff: keep its lines, drop the re-record line listed below.
    const detail = (entry.messages[0] ?? '')
      .split(/\r?\n/)
      .filter((line) => !line.startsWith('re-record:'));
    for (const line of detail.slice(0, MAX_STALE_DETAIL_LINES)) {
      lines.push(...wrap(`    ${line}`, { indent: '      ' }));
    }
    if (detail.length > MAX_STALE_DETAIL_LINES)
      lines.push('    … (all of it in reports/latest.md)');
  });
  if (stale.length > MAX_DETAILED_STALE) {
    lines.push(
      `  (details of the first ${MAX_DETAILED_STALE} only; all of them in reports/latest.md)`,
    );
  }
  if (commands.length > 0) lines.push('Re-record with:');
  lines.push(
    ...commands.flatMap((command) => wrap(`  ${command}`, { indent: '    ', shell: true })),
  );
  return lines;
}

/** Failed and errored trials: the first lines of their messages and the trace path. */
export function failureLines(report: EvalReport): string[] {
  if (report.failures.length === 0) return [];
  const lines = ['Failed trials'];
  for (const failure of report.failures) {
    lines.push(...wrap(`  ${trialLabel(failure)}: ${failure.outcome}`));
    const messageLines = failure.messages.flatMap((message) => message.split(/\r?\n/));
    for (const message of messageLines.slice(0, MAX_MESSAGE_LINES)) {
      lines.push(...wrap(`    ${message}`, { indent: '    ' }));
    }
    if (messageLines.length > MAX_MESSAGE_LINES)
      lines.push('    … (all of it in reports/latest.md)');
    if (failure.tracePath)
      lines.push(...wrap(`    trace: ${failure.tracePath}`, { indent: '    ' }));
  }
  return lines;
}
