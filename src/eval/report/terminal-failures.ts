import { fixtureState, trialLabel } from './format.js';
import type { ReportModel } from './report-model.js';
import { MAX_MESSAGE_LINES, wrap, wrapClipped } from './terminal-wrap.js';

// Long assertion diffs belong in reports/latest.md, not in the terminal.
const MAX_DETAILED_STALE = 2;
const MAX_FAILURES = 20;
const MAX_STALE_DETAIL_LINES = 16;

/** Stale and missing trials (the first few with their diff, line by line), then each re-record command once. */
export function staleLines(model: ReportModel): string[] {
  const { entries, commands } = model.stale;
  if (entries.length === 0) return [];
  const lines = ['Stale or missing fixtures (not counted)'];
  entries.forEach((entry, index) => {
    lines.push(...wrap(`  ${trialLabel(entry)}: ${fixtureState(entry)}`));
    if (index >= MAX_DETAILED_STALE) return;
    // The divergence is a line diff: keep its lines, drop the re-record line listed below.
    const detail = (entry.messages[0] ?? '')
      .split(/\r?\n/)
      .filter((line) => !line.startsWith('re-record:'));
    for (const line of detail.slice(0, MAX_STALE_DETAIL_LINES)) {
      lines.push(...wrapClipped(`    ${line}`, { indent: '      ' }));
    }
    if (detail.length > MAX_STALE_DETAIL_LINES)
      lines.push('    … (all of it in reports/latest.md)');
  });
  if (entries.length > MAX_DETAILED_STALE) {
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
export function failureLines(model: ReportModel): string[] {
  if (model.failures.length === 0) return [];
  const lines = ['Failed trials'];
  // A dataset's baseline can fail dozens of trials: the first ones here, every one in the markdown.
  for (const failure of model.failures.slice(0, MAX_FAILURES)) {
    lines.push(...wrap(`  ${trialLabel(failure)}: ${failure.outcome}`));
    const messageLines = failure.messages.flatMap((message) => message.split(/\r?\n/));
    for (const message of messageLines.slice(0, MAX_MESSAGE_LINES)) {
      lines.push(...wrapClipped(`    ${message}`, { indent: '    ' }));
    }
    if (messageLines.length > MAX_MESSAGE_LINES)
      lines.push('    … (all of it in reports/latest.md)');
    if (failure.tracePath)
      lines.push(...wrap(`    trace: ${failure.tracePath}`, { indent: '    ' }));
  }
  const more = model.failures.length - MAX_FAILURES;
  if (more > 0)
    lines.push(`  … and ${more} more failed trial${more === 1 ? '' : 's'} in reports/latest.md`);
  return lines;
}
