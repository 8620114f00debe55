import { trialLabel } from './format.js';
import type { EvalReport } from './report-schema.js';
import { wrap } from './terminal-parts.js';

// Long assertion diffs belong in reports/latest.md, not in the terminal.
const MAX_MESSAGE_LINES = 6;

/** Stale and missing trials, then each re-record command once. */
export function staleLines(report: EvalReport): string[] {
  const stale = report.staleFixtures;
  if (stale.length === 0) return [];
  const commands = [...new Set(stale.flatMap((entry) => entry.rerecordCommand ?? []))];
  return [
    'Stale or missing fixtures (not counted)',
    ...stale.flatMap((entry) =>
      wrap(`  ${trialLabel(entry)}: ${entry.outcome}. ${entry.messages[0] ?? ''}`, {
        indent: '    ',
      }),
    ),
    ...(commands.length > 0 ? ['Re-record with:'] : []),
    ...commands.flatMap((command) => wrap(`  ${command}`, { indent: '    ', shell: true })),
  ];
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
