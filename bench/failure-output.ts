/** At most this many lines of a failed run are shown: the reasons first, then its last lines. */
const MAX_REASONS = 60;
const TAIL = 20;
const ANSI = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*[A-Za-z]`, 'g');
/** The lines that say why: the gate's verdict and reasons, ✗ lines, stale or edited fixtures, errors. */
const REASON =
  /gate|✗|stale|edited|missing|no longer matches|Error|error|failed|refus|cannot|not found|exit(ed)? (with )?\d/;

/**
 * What to show of a failed run's output: the lines that say why (the gate's reasons sit in the
 * middle of a long report, so the last few thousand characters hid them), then its last lines.
 */
export function whyItFailed(output: string): string {
  const lines = output.replace(ANSI, '').split(/\r?\n/);
  const reasons = lines.filter((line) => REASON.test(line)).slice(0, MAX_REASONS);
  const tail = lines.slice(-TAIL).filter((line) => !reasons.includes(line));
  return [
    ...(reasons.length > 0
      ? ['the lines that say why:', ...reasons.map((line) => `  ${line}`)]
      : []),
    `the last ${TAIL} lines:`,
    ...tail.map((line) => `  ${line}`),
  ].join('\n');
}
