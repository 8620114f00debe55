import { showInvisible } from '../../core/terminal-text.js';
import { PR_COMMENT_MARKER } from './pr-comment.js';

/** A workflow step the comment reports on: its name, GitHub's outcome, and what it printed. */
export interface WorkflowStep {
  /** As the workflow names it, e.g. `record --verify`, `eval gate`. */
  name: string;
  /** `steps.<id>.outcome`: success, failure, cancelled or skipped. */
  outcome: string;
  /** The step's output (its log file), when it wrote one. */
  log?: string;
}

/** At most this many lines of a step's output are quoted: the reasons, then its last lines. */
const MAX_LINES = 40;
const ANSI = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*[A-Za-z]`, 'g');
/** Lines that say why: verify's ✗ and ? lines and its summary, the gate's verdict, fix commands. */
const REASON =
  /^\s*(✗|\?|!|gate:|Re-record with|npm run |npx harness-evals |Its content is not|A live cassette|\d+ cassettes checked|.*(error|Error|failed))/;

/**
 * The steps that did not succeed, first in the comment: which one, and the lines of its output
 * that say why (verify's cassettes that do not match and the commands that fix them, the
 * gate's verdict), so a failed step is never a silent one. Empty when every step succeeded.
 */
export function failedStepsSection(steps: readonly WorkflowStep[]): string {
  const failed = steps.filter((step) => step.outcome !== 'success');
  if (failed.length === 0) return '';
  const parts = failed.map((step) => {
    const what = step.outcome === 'skipped' ? 'did not run' : step.outcome;
    const quoted = step.log === undefined ? [] : ['', '```text', ...reasonLines(step.log), '```'];
    return [`- ❌ step \`${step.name}\`: **${what}**`, ...quoted.map((line) => `  ${line}`)].join(
      '\n',
    );
  });
  return [
    `### ❌ ${failed.length === 1 ? 'A step' : 'Steps'} of the job failed`,
    '',
    ...parts,
  ].join('\n');
}

/**
 * The comment when the eval wrote no report (it did not run, or stopped before its report):
 * the marker, the verdict, and the failed steps with their reasons.
 */
export function commentWithoutReport(steps: readonly WorkflowStep[], runUrl?: string): string {
  const linked = runUrl ? `\n\n[job log](${runUrl})` : '';
  return `${PR_COMMENT_MARKER}\n## harness-evals: ❌ no eval report${linked}\n\nThe job stopped before the eval gate wrote reports/latest.json.\n\n${failedStepsSection(steps)}\n`;
}

/** Put the failed steps first, after the marker line of a comment made from the report. */
export function withFailedSteps(comment: string, steps: readonly WorkflowStep[]): string {
  const section = failedStepsSection(steps);
  if (!section) return comment;
  const [marker, ...rest] = comment.split('\n');
  return [marker, section, '', ...rest].join('\n');
}

/**
 * The lines of a log that say why (each with the indented lines under it, verify's problems),
 * and its last lines, in the log's order, each shown as plain text.
 */
function reasonLines(log: string): string[] {
  const lines = log
    .replace(ANSI, '')
    .split(/\r?\n/)
    .map((line) => line.trimEnd())
    .filter((line) => line.trim() !== '');
  const keep = new Set<number>();
  lines.forEach((line, index) => {
    if (index >= lines.length - 10) keep.add(index);
    if (!REASON.test(line)) return;
    keep.add(index);
    for (let next = index + 1; next < lines.length && /^\s+\S/.test(lines[next]!); next += 1) {
      keep.add(next);
    }
  });
  const chosen = [...keep].sort((a, b) => a - b).map((index) => lines[index]!);
  // Too many: the first reasons and the end, where the verdict is (gate: FAILED, verify's summary).
  const shown =
    chosen.length > MAX_LINES
      ? [...chosen.slice(0, MAX_LINES / 4), '…', ...chosen.slice(-(MAX_LINES * 3) / 4)]
      : chosen;
  // Nothing in a log can close the block, hide text or ping anyone (our zero-width space, added
  // after the invisible characters are shown, is the one left).
  return shown.map((line) =>
    showInvisible(line).replaceAll('```', "'''").replaceAll('@', '@\u200b').slice(0, 300),
  );
}
