import { trialLabel } from '../eval/report/format.js';
import type { TrialRecord } from '../eval/spec/trial-record.js';
import { terminalLine } from './terminal-text.js';

/**
 * What `record` counts: written (checks passed or not), kept from before, judged (--judge-only:
 * the judge recorded, the agent's cassette replayed) and not written.
 */
export interface RecordCounts {
  written: number;
  checksFailed: number;
  kept: number;
  judged: number;
  /** Agent cassettes recorded and kept whose judge calls were not recorded. */
  judgeFailed: number;
  failed: number;
  /** --judge-only: trials of tasks with no judged check, not judged, and those tasks. */
  unjudged: number;
  unjudgedTasks: string[];
  /** Per failure message already printed, the other trials that failed with it. */
  repeated: Map<string, string[]>;
}

export const emptyCounts = (): RecordCounts => ({
  written: 0,
  checksFailed: 0,
  kept: 0,
  judged: 0,
  judgeFailed: 0,
  failed: 0,
  unjudged: 0,
  unjudgedTasks: [],
  repeated: new Map(),
});

/**
 * A trial that wrote nothing: its line, or '' when an earlier trial failed with the same
 * message (a missing key fails every trial alike): repeatedFailureLines names those at the end.
 */
function failedLine(label: string, message: string, seconds: string, counts: RecordCounts) {
  const others = counts.repeated.get(message);
  if (others) {
    others.push(label);
    return '';
  }
  counts.repeated.set(message, []);
  return `  ✗ ${label}: ${message} (${seconds})`;
}

/** One line per repeated failure: how many more trials, which, and the message. */
export function repeatedFailureLines(counts: RecordCounts): string[] {
  return [...counts.repeated]
    .filter(([, others]) => others.length > 0)
    .map(
      ([message, others]) =>
        `  ✗ the same for ${plural(others.length, 'more trial')} (${others.join(', ')}): ${message}`,
    );
}

/**
 * A message's first line, for a line of its own: a multi-line one (an expect diff, a stale
 * cassette's) would otherwise print its breaks as `\n`; the whole is in the reports.
 */
function firstLine(message: string): string {
  const lines = message.split(/\r\n|\r|\n/).filter((line) => line.trim() !== '');
  const more = lines.length > 1 ? ' (more lines: reports/latest.md)' : '';
  return `${terminalLine(lines[0] ?? '')}${more}`;
}

/** "1 trial", "3 trials". */
export function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

/**
 * A trial whose recording failed: it errored before its cassette was written, its judge
 * errored, or (with --judge-only, which replays the agent) its agent cassette is missing or
 * stale, so there was nothing to judge. A written cassette whose check threw is no failure of
 * the recording.
 */
function notRecorded(record: TrialRecord, judgeOnly: boolean): boolean {
  if (record.outcome === 'judge_error') return true;
  if (record.outcome === 'errored') return record.written !== true;
  return judgeOnly && (record.outcome === 'missing' || record.outcome === 'stale');
}

/**
 * One trial's line, and what it adds to the counts. `✓` only for a cassette that was written
 * or kept and whose checks passed; a written cassette whose checks failed (or threw) is `!`,
 * and says it was written; a trial that wrote nothing is `✗`.
 */
export function recordLine(
  record: TrialRecord,
  ms: number,
  counts: RecordCounts,
  judgeOnly = false,
): string {
  const seconds = `${(ms / 1000).toFixed(1)} s`;
  const requests = plural(record.stats?.steps ?? 0, 'request');
  // Messages may quote a server or a model: masked and stripped of control sequences.
  const first = firstLine(record.messages[0] ?? record.outcome);
  const label = trialLabel(record);
  if (record.outcome === 'judge_error' && record.written === true && !judgeOnly) {
    // The agent's cassette is written and kept; the line says so, and how to record the judge.
    counts.written += 1;
    counts.judgeFailed += 1;
    return failedLine(label, first, seconds, counts);
  }
  if (notRecorded(record, judgeOnly)) {
    counts.failed += 1;
    return failedLine(label, first, seconds, counts);
  }
  if (judgeOnly && (record.judgments ?? []).length === 0) {
    counts.unjudged += 1;
    if (!counts.unjudgedTasks.includes(record.task)) counts.unjudgedTasks.push(record.task);
    return `  - ${label}: no judge to record (task ${terminalLine(record.task)} has no judged check)`;
  }
  const what = judgeOnly
    ? `judge recorded (agent cassette replayed), ${seconds}`
    : record.written
      ? `recorded, ${requests}, ${seconds}`
      : 'kept (recorded before)';
  if (judgeOnly) counts.judged += 1;
  else if (record.written) counts.written += 1;
  else counts.kept += 1;
  if (record.outcome === 'passed') return `  ✓ ${record.fixture}: ${what}, checks passed`;
  if (record.written) counts.checksFailed += 1;
  const verdict = VERDICTS[record.outcome] ?? record.outcome;
  return `  ! ${record.fixture}: ${what}; ${verdict}: ${first}`;
}

const VERDICTS: Partial<Record<TrialRecord['outcome'], string>> = {
  failed: 'checks failed',
  errored: 'the check errored',
};

/** The closing line: what was written, kept and not written, each named once. */
export function summaryLine(counts: RecordCounts, seconds: string): string {
  const parts = [
    ...(counts.judged > 0 && counts.written === 0
      ? []
      : [
          `${plural(counts.written, 'trial')} recorded${counts.checksFailed > 0 ? ` (${counts.checksFailed} with failed checks: the cassettes are written)` : ''}`,
        ]),
    ...(counts.judged > 0
      ? [`the judge of ${plural(counts.judged, 'trial')} recorded (their agent cassettes replayed)`]
      : []),
    ...(counts.unjudged > 0
      ? [
          `${plural(counts.unjudged, 'trial')} not judged: no judge in task${counts.unjudgedTasks.length === 1 ? '' : 's'} ${counts.unjudgedTasks.map((task) => terminalLine(task)).join(', ')}`,
        ]
      : []),
    ...(counts.judgeFailed > 0
      ? [
          `the judge of ${plural(counts.judgeFailed, 'trial')} not recorded (${counts.judgeFailed === 1 ? 'its agent cassette' : 'their agent cassettes'} kept)`,
        ]
      : []),
    ...(counts.kept > 0 ? [`${counts.kept} kept`] : []),
    `${counts.failed} failed (nothing written for those)`,
  ];
  return `${parts.join(', ')} in ${seconds} s`;
}
