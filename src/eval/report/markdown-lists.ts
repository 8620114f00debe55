import { groupRerecordCommands } from '../rerecord.js';
import { formatChange, trialLabel } from './format.js';
import { dropTestCell } from './format-statistics.js';
import { codeBlock, details, escapeText, inlineCode, table } from './markdown-parts.js';
import type { ComparisonFlag, EvalReport } from './report-schema.js';

const FLAG_LABELS: Record<ComparisonFlag, string> = {
  dropped: '▼ dropped',
  improved: '▲ improved',
  same: 'same',
  new: 'new',
  gone: 'gone',
};

export function comparisonSection(report: EvalReport): string {
  const { comparison } = report;
  if (!comparison) return '';
  const rows = comparison.entries.map((entry) => [
    escapeText(entry.task),
    escapeText(entry.variant),
    formatChange(entry.passAt1.before, entry.passAt1.after),
    entry.passHatK.k === null ? '' : String(entry.passHatK.k),
    formatChange(entry.passHatK.before, entry.passHatK.after),
    FLAG_LABELS[entry.flag],
    escapeText(dropTestCell(entry, comparison.alpha)),
  ]);
  return [
    `## Compared with the reference (${escapeText(comparison.referenceGeneratedAt)})`,
    '',
    `Before → after; pass^k at the largest k both runs have. On the same cassettes every drop fails the gate; on re-recorded ones only a drop significant at alpha ${comparison.alpha} (one-sided Fisher test) does.`,
    '',
    table(
      ['Task', 'Variant', 'pass@1', 'k', 'pass^k', 'Change', 'Cassettes / test'],
      rows,
      'llrrrll',
    ),
  ].join('\n');
}

function messagesBlock(messages: readonly string[]): string[] {
  return messages.length === 0 ? ['(no message)'] : [codeBlock(messages.join('\n\n'), 'text')];
}

export function staleSection(report: EvalReport): string {
  const stale = report.staleFixtures;
  if (stale.length === 0) return '';
  const commands = groupRerecordCommands(stale.flatMap((entry) => entry.rerecordCommand ?? []));
  const rerecord =
    commands.length > 0 ? ['Re-record with:', '', codeBlock(commands.join('\n'), 'sh'), ''] : [];
  const entries = stale.map((entry) =>
    details(`${escapeText(trialLabel(entry))}: ${entry.outcome}`, [
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

export function failuresSection(report: EvalReport): string {
  const failures = report.failures;
  if (failures.length === 0) return '';
  const entries = failures.map((failure) =>
    details(`${escapeText(trialLabel(failure))}: ${failure.outcome}`, [
      ...(failure.tracePath ? [`Trace: ${inlineCode(failure.tracePath)}`, ''] : []),
      ...messagesBlock(failure.messages),
    ]),
  );
  return [`## Failed trials (${failures.length})`, '', entries.join('\n\n')].join('\n');
}
