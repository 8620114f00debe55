import { escapeText } from '../../core/markdown-text.js';
import type { ChangesView } from './changes-view.js';
import { table } from './markdown-table.js';

/**
 * What the checkout changed against the base as markdown: the title as a heading, the reference's
 * sentences and changed rows, then at most `maxFixtures` changed cassettes with who recorded them.
 */
export function changesMarkdown(
  view: ChangesView,
  heading: string,
  maxFixtures: number,
  /** False where the lists of curated and edited cassettes are shown apart (the PR comment). */
  withLists = true,
  /** True to fold the cassette inventory under a `<details>` (the PR comment). */
  foldFixtures = false,
): string {
  const shown = view.fixtures.slice(0, maxFixtures);
  const more = view.more + view.fixtures.length - shown.length;
  const escaped = (rows: string[][]) => rows.map((row) => row.map(escapeText));
  return [
    `${heading} ${escapeText(view.title)}`,
    '',
    ...view.reference.map(escapeText),
    // Every one, never cut: what a reviewer must look at.
    ...(withLists ? listed('**Edited by hand (curated), with who and why**', view.curated) : []),
    ...(withLists ? listed('**Changed but not re-recorded** (fails the gate)', view.edited) : []),
    ...listed('**Task files, datasets, rubrics and labels changed**', view.inputs),
    ...(view.rows.length > 0
      ? ['', table(['Task', 'Variant', 'Change', 'pass@1', 'pass^k'], escaped(view.rows))]
      : []),
    ...fold(foldFixtures, `Changed cassettes (${shown.length + more})`, [
      ...(shown.length > 0
        ? ['', table(['Cassette', 'Status', 'Before', 'After', 'Changed in'], escaped(shown))]
        : []),
      ...(more > 0 ? ['', `… and ${more} more changed cassettes (reports/latest.json).`] : []),
    ]),
  ].join('\n');
}

function fold(folded: boolean, summary: string, lines: string[]): string[] {
  if (!folded || lines.length === 0) return lines;
  return ['', '<details>', `<summary>${summary}</summary>`, ...lines, '', '</details>'];
}

function listed(title: string, lines: readonly string[]): string[] {
  return lines.length === 0 ? [] : ['', title, '', ...lines.map((line) => `- ${escapeText(line)}`)];
}
