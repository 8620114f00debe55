import type { Changes } from '../spec/changes-schema.js';
import type { Floor, TrialRecord } from '../spec/trial-record.js';
import { MAX_TRIALS_NEEDED } from '../stats/power.js';
import { keyOf, type TaskKey } from './compare.js';
import type { Decisions } from './decisions-schema.js';
import { formatRate, trialLabel } from './format.js';
import { decidedAgainstReference, decisionVerdicts } from './gate-decisions.js';
import { judgeErrorReasons } from './gate-graders.js';
import { direction, largestK, rateAt } from './rates.js';
import type { Comparison, ComparisonEntry, GateResult, TaskSummary } from './report-schema.js';
import { byTrial } from './trial-lists.js';

/** A floor as a task declares it. */
export interface TaskFloor {
  task: string;
  floor: Floor;
}

export interface GateInput {
  records: readonly TrialRecord[];
  summaries: readonly TaskSummary[];
  floors: readonly TaskFloor[];
  comparison?: Comparison;
  /**
   * Rows of the reference that no task declares any more (a deleted task file or variant).
   * Checked whatever the trial counts, so a removal cannot hide behind an uncompared run.
   */
  gone?: readonly TaskKey[];
  /** Check floors against the interval's lower bound instead of the point estimate. */
  strictFloors?: boolean;
  /** What the checkout changed against the base (`--reference-from`). */
  changes?: Changes;
  /** The sequential decisions: rows they decide against the reference skip the fixed-n test. */
  decisions?: Decisions;
}

const UNRESOLVED: ReadonlyArray<readonly [(record: TrialRecord) => boolean, string, string]> = [
  [
    (record) => record.outcome === 'stale' && !record.fixtureProblem,
    'stale fixture',
    're-record them',
  ],
  [
    (record) => record.fixtureProblem === 'corrupt',
    'corrupt fixture',
    'restore them (git checkout) or re-record them',
  ],
  [
    (record) => record.fixtureProblem === 'secret',
    'fixture holding a credential|fixtures holding a credential',
    'delete them, revoke the key if it is real, and re-record them',
  ],
  [(record) => record.outcome === 'missing', 'missing fixture', 'record them'],
  [(record) => record.outcome === 'errored', 'errored trial', 'see the failed trials'],
];

function unresolvedReasons(records: readonly TrialRecord[]): string[] {
  const reasons: string[] = [];
  for (const [matches, noun, fix] of UNRESOLVED) {
    const trials = records.filter(matches).sort(byTrial).map(trialLabel);
    if (trials.length === 0) continue;
    const [one, many = `${one}s`] = noun.split('|') as [string, string?];
    reasons.push(
      `${trials.length} ${trials.length === 1 ? one : many} (${fix}): ${trials.join(', ')}`,
    );
  }
  if (records.length === 0) reasons.push('no trial ran');
  return reasons;
}

function belowFloor(
  label: string,
  metric: string,
  value: number | null,
  floor: number,
  lower: number | null | undefined,
) {
  if (value === null)
    return `${label} ${metric} has no value (no counted trial); floor ${formatRate(floor)}`;
  if (lower !== undefined) {
    return lower === null || direction(floor, lower) < 0
      ? `${label} ${metric} ${formatRate(value)} has the lower bound ${formatRate(lower)}, below the floor ${formatRate(floor)} (--strict-floors)`
      : undefined;
  }
  return direction(floor, value) < 0
    ? `${label} ${metric} ${formatRate(value)} is below the floor ${formatRate(floor)}`
    : undefined;
}

function floorReasons(
  summaries: readonly TaskSummary[],
  floors: readonly TaskFloor[],
  strict: boolean,
): string[] {
  const reasons: Array<string | undefined> = [];
  for (const { task, floor } of floors) {
    const label = `${task} ${floor.variant}`;
    const rows = summaries.filter((row) => row.task === task && row.variant === floor.variant);
    if (rows.length === 0) {
      reasons.push(`${label} declares a floor but has no trials`);
      continue;
    }
    for (const row of rows) {
      const lowerAt1 = strict ? (row.intervals.passAt1?.lower ?? null) : undefined;
      if (floor.passAt1 !== undefined)
        reasons.push(belowFloor(label, 'pass@1', row.passAt1, floor.passAt1, lowerAt1));
      if (floor.passHatK !== undefined) {
        const k = largestK(row.passHatK);
        const metric = k === undefined ? 'pass^k' : `pass^${k}`;
        const lower = strict ? (row.intervals.passHatK[String(k)]?.lower ?? null) : undefined;
        reasons.push(belowFloor(label, metric, rateAt(row.passHatK, k), floor.passHatK, lower));
      }
      if (floor.meanScore !== undefined && floor.score !== undefined) {
        const score = row.scores?.find((entry) => entry.name === floor.score);
        const lower = strict ? (score?.interval?.lower ?? null) : undefined;
        const metric = `mean score '${floor.score}'`;
        reasons.push(belowFloor(label, metric, score?.mean ?? null, floor.meanScore, lower));
      }
    }
  }
  return reasons.filter((reason) => reason !== undefined);
}

function dropLines(entry: ComparisonEntry): string[] {
  const label = `${entry.task} ${entry.variant}`;
  const { passAt1, passHatK } = entry;
  const lines: string[] = [];
  if (direction(passAt1.before, passAt1.after) < 0) {
    lines.push(`${label} pass@1 ${formatRate(passAt1.before)} -> ${formatRate(passAt1.after)}`);
  }
  if (direction(passHatK.before, passHatK.after) < 0) {
    const metric = `pass^${passHatK.k ?? 'k'}`;
    lines.push(
      `${label} ${metric} ${formatRate(passHatK.before)} -> ${formatRate(passHatK.after)}`,
    );
  }
  return lines;
}

function countsText(entry: ComparisonEntry): string {
  const { before, after } = entry.counts;
  return `${before?.passed ?? 0}/${before?.n ?? 0} -> ${after?.passed ?? 0}/${after?.n ?? 0}`;
}

/**
 * Drops against the reference. On the same cassettes every drop is deterministic and fails. On
 * other cassettes only a pass@1 drop significant for the whole run (Holm over every row so
 * compared) fails; a noisy one is a warning that says what would settle it, and so is a pass^k
 * drop with pass@1 not lower, which only the numbers of trials counted moved.
 */
function dropVerdicts(
  comparison: Comparison | undefined,
  decided: ReadonlySet<string>,
): {
  reasons: string[];
  warnings: string[];
} {
  const reasons: string[] = [];
  const warnings: string[] = [];
  for (const entry of comparison?.entries ?? []) {
    if (entry.flag !== 'dropped') continue;
    const lines = dropLines(entry);
    const test = entry.dropTest;
    if (entry.cassettes === 'same') {
      reasons.push(...lines.map((line) => `${line} (lower than the reference)`));
      continue;
    }
    // Decided sequentially (decisionVerdicts): valid however its trials were stopped.
    if (decided.has(keyOf(entry))) continue;
    if (!test) {
      warnings.push(...lines.map((line) => `${line} (${untestedDrop(entry)})`));
      continue;
    }
    const p = `p = ${test.pValue.toFixed(3)}, Holm-adjusted over ${test.family} row${test.family === 1 ? '' : 's'} ${test.adjustedPValue.toFixed(3)}, alpha ${comparison!.alpha}`;
    if (test.significant) {
      reasons.push(
        ...lines.map((line) => `${line} (significant drop, ${countsText(entry)}, ${p})`),
      );
      continue;
    }
    const settle =
      test.trialsNeeded === undefined
        ? `more than ${MAX_TRIALS_NEEDED.toLocaleString('en-US')} trials per side would be needed to detect a drop this size`
        : `about ${test.trialsNeeded} trials per side would detect a drop this size 80% of the time`;
    warnings.push(
      ...lines.map(
        (line) => `${line} (not significant at this n: ${countsText(entry)}, ${p}; ${settle})`,
      ),
    );
  }
  return { reasons, warnings };
}

/** Why a drop on other cassettes was not tested: pass@1 did not fall (a pass^k-only drop), or a side counted nothing. */
function untestedDrop(entry: ComparisonEntry): string {
  const { before, after } = entry.counts;
  if (!before?.n || !after?.n)
    return `${countsText(entry)}: a side counted no trial, nothing to test`;
  return `pass@1 did not drop, ${countsText(entry)}: pass^${entry.passHatK.k ?? 'k'} is estimated from ${before.n} and ${after.n} trials, and moves with the number counted; the gate tests pass@1, and no number of trials would make this a drop`;
}

/** A reference lowered against the base, unless a maintainer allowed it. */
function loweredReasons(changes: Changes | undefined): string[] {
  if (!changes?.reference.lowered || changes.reference.allowed) return [];
  const rows = changes.reference.rows.filter(
    (row) => row.change === 'lowered' || row.change === 'removed',
  );
  const listed = rows
    .slice(0, 5)
    .map(
      (row) =>
        `${row.task} ${row.variant}${row.change === 'removed' ? ' (removed)' : ` pass@1 ${formatRate(row.passAt1.before)} -> ${formatRate(row.passAt1.after)}`}`,
    )
    .join(', ');
  return [
    `reports/reference.json lowers the bar against ${changes.ref} (${listed}${rows.length > 5 ? `, and ${rows.length - 5} more` : ''}): a pull request cannot lower the reference it is judged by, so the gate compared with ${changes.ref}'s; a maintainer allows it with --allow-lower-reference (in CI: the allow-lower-reference label)`,
  ];
}

/** Cassettes the pull request changed without re-recording them and without a curated entry. */
function editedReasons(changes: Changes | undefined): string[] {
  const edited = (changes?.fixtures ?? []).filter((fixture) => fixture.class === 'edited');
  if (edited.length === 0) return [];
  const listed = edited.slice(0, 5).map((fixture) => fixture.path);
  const more = edited.length > 5 ? `, and ${edited.length - 5} more (all in changes.fixtures)` : '';
  const one = edited.length === 1;
  return [
    `${edited.length} cassette${one ? '' : 's'} changed but not re-recorded (${listed.join(', ')}${more}): re-record ${one ? 'it' : 'them'}, restore ${one ? 'it' : 'them'} (git checkout <base> -- <file>), or, for a deliberate edit, name who made it and why in its meta.curated (see docs/ci.md)`,
  ];
}

function goneReasons(gone: readonly TaskKey[] | undefined): string[] {
  return (gone ?? []).map(
    (row) =>
      `${row.task} ${row.variant} (suite ${row.suite}) is in the reference but no eval task declares it any more: restore its task file, or accept the removal with npm run eval -- --update-reference and commit reports/reference.json`,
  );
}

/**
 * The exit code's verdict. Fails on any stale, missing or errored trial, any declared floor
 * that does not hold, any pass@1 or pass^k drop against the reference (every drop when the
 * same cassettes were replayed, only a significant one otherwise: a noisy drop is a warning),
 * and any reference row whose task no longer exists (a deleted task cannot pass as "gone").
 * Failed trials alone (a weak baseline, say) are data, not a failed run.
 */
export function evaluateGate(input: GateInput): GateResult {
  const drops = dropVerdicts(input.comparison, decidedAgainstReference(input.decisions));
  const decided = decisionVerdicts(input.decisions);
  const reasons = [
    ...unresolvedReasons(input.records),
    ...judgeErrorReasons(input.records),
    ...floorReasons(input.summaries, input.floors, input.strictFloors ?? false),
    ...loweredReasons(input.changes),
    ...editedReasons(input.changes),
    ...drops.reasons,
    ...decided.reasons,
    ...goneReasons(input.gone),
  ];
  const warnings = [...drops.warnings, ...decided.warnings];
  return { passed: reasons.length === 0, reasons, warnings };
}
