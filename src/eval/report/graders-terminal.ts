import { trialLabel } from './format.js';
import type { GradersModel } from './graders-model.js';
import { JUDGES_NOTE, SCORES_NOTE, scoreTable } from './graders-text.js';

/** What the terminal renderer lends: its table and its word wrap (terminal.ts). */
export interface TerminalTools {
  table(head: readonly string[], rows: ReadonlyArray<readonly string[]>, right?: number[]): string;
  wrap(text: string, indent?: string): string[];
}

/**
 * The graders' sections of the terminal report: mean scores, each judged check's agreement
 * and calibration with its calls, and the judge errors (apart from the agent's failures).
 */
export function gradersTerminalSections(
  graders: GradersModel | undefined,
  tools: TerminalTools,
): { scores: string[]; judges: string[] } {
  if (!graders) return { scores: [], judges: [] };
  const scores: string[] = [];
  if (graders.scores.length > 0) {
    const { head, cells } = scoreTable(graders);
    scores.push(
      [
        'Scores in 0..1 (mean with 95% interval)',
        tools.table(head, cells, [3, 4, 5]),
        ...tools.wrap(SCORES_NOTE),
      ].join('\n'),
    );
  }
  const sections: string[] = [];
  if (graders.judges.length > 0) {
    sections.push(
      [
        "Judges (the judge's own agreement, apart from the agent's variance)",
        ...graders.judges.flatMap((row) =>
          [
            `  ${row.task} ${row.check}: ${row.text.models}; verdicts ${row.text.verdicts}`,
            `    flip rate across samples: ${row.text.flip}`,
            `    κ across judges: ${row.text.kappa}`,
            `    vs humans: ${row.text.calibration}`,
            `    calls: ${row.text.calls}; live cost and latency: ${row.text.liveCost}`,
          ].flatMap((line) => tools.wrap(line, '      ')),
        ),
        ...tools.wrap(JUDGES_NOTE),
      ].join('\n'),
    );
  }
  if (graders.judgeErrors.length > 0) {
    sections.push(
      [
        'Judge errors (no usable verdict; not counted, and not the agent’s failures)',
        ...graders.judgeErrors.flatMap((entry) => [
          ...tools.wrap(`  ${trialLabel(entry)}`),
          ...entry.messages.slice(0, 3).flatMap((message) => tools.wrap(`    ${message}`, '    ')),
        ]),
      ].join('\n'),
    );
  }
  return { scores, judges: sections };
}
