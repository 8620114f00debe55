import { keyOf } from '../spec/selection.js';
import type { DropTest } from '../stats/drop-test.js';
import { runLevelDrops } from '../stats/holm.js';
import { trialsNeeded } from '../stats/power.js';
import { direction, largestK, rateAt, rateMoves } from './rates.js';
import type {
  Comparison,
  ComparisonEntry,
  ComparisonFlag,
  EvalReport,
  TaskSummary,
  TrialProvenance,
} from './report-schema.js';

/** What a comparison needs from either side: the rows, when they were made, the cassette hashes. */
export type ComparableReport = Pick<EvalReport, 'generatedAt' | 'tasks'> &
  Partial<Pick<EvalReport, 'trialProvenance'>>;

/** The default one-sided significance level of the drop test (`--alpha`). */
export const DEFAULT_ALPHA = 0.05;

type CassetteHashes = Map<string, Map<string, string | undefined>>;

/** Per (suite, task, variant): counted trial (of its case, for a dataset task) -> cassette hash. */
function countedHashes(provenance: readonly TrialProvenance[] | undefined): CassetteHashes {
  const hashes: CassetteHashes = new Map();
  for (const trial of provenance ?? []) {
    if (trial.outcome !== 'passed' && trial.outcome !== 'failed') continue;
    const key = keyOf(trial);
    const trials = hashes.get(key) ?? new Map<string, string | undefined>();
    trials.set(`${trial.case ?? ''}#${trial.trial}`, withJudge(trial));
    hashes.set(key, trials);
  }
  return hashes;
}

/**
 * A judged trial's verdict depends on its judge cassette too: the same agent cassette with a
 * re-recorded judge is not the same replay, and a judge asked live is never the same.
 */
function withJudge(trial: TrialProvenance): string | undefined {
  const judge = trial.judgeCassetteHash;
  if (judge === undefined || trial.cassetteHash === undefined) return trial.cassetteHash;
  return judge === 'unrecorded' ? undefined : `${trial.cassetteHash}+${judge}`;
}

/** The same counted trials, each with a known and equal cassette hash on both sides. */
function sameCassettes(
  before: ReadonlyMap<string, string | undefined> | undefined,
  after: ReadonlyMap<string, string | undefined> | undefined,
): boolean {
  if (!before || !after || before.size !== after.size || after.size === 0) return false;
  for (const [trial, hash] of after) {
    if (hash === undefined || before.get(trial) !== hash) return false;
  }
  return true;
}

/** One row of a report: a task's variant in a suite. */
export type TaskKey = Pick<TaskSummary, 'suite' | 'task' | 'variant'>;

/** A row's identity, as a string for sets and maps (defined with the selection, below the report). */
export { keyOf };

/**
 * The reference's rows that this run has no row for, split by why: `notRun` when a task
 * file still declares the row (it was only not selected: `--task`, `--suite`, `--variant`),
 * `gone` when nothing declares it any more (a deleted task file or variant). Without
 * `declared`, every absent row is gone: an unknown cannot pass as "not selected".
 */
export function absentRows(
  reference: Pick<ComparableReport, 'tasks'>,
  current: Pick<ComparableReport, 'tasks'>,
  declared?: ReadonlySet<string>,
): { gone: TaskSummary[]; notRun: TaskSummary[] } {
  const currentKeys = new Set(current.tasks.map(keyOf));
  const absent = reference.tasks.filter((row) => !currentKeys.has(keyOf(row)));
  return {
    gone: absent.filter((row) => !declared?.has(keyOf(row))),
    notRun: absent.filter((row) => declared?.has(keyOf(row))),
  };
}

/** `T2 (baseline, upgraded), T3 (baseline)`: the rows that were not run, per task. */
export function describeNotRun(rows: readonly TaskKey[]): string {
  const variants = new Map<string, string[]>();
  for (const row of rows) variants.set(row.task, [...(variants.get(row.task) ?? []), row.variant]);
  return [...variants].map(([task, names]) => `${task} (${names.join(', ')})`).join(', ');
}

function pairEntry(
  before: TaskSummary,
  after: TaskSummary,
  cassettes: 'same' | 'different',
): ComparisonEntry {
  const { passAt1, passHatK, moves } = rateMoves(before, after);
  // A side that counted no trial has no rate to be the same as: it is not called "same".
  const flag: ComparisonFlag =
    before.n === 0 || after.n === 0
      ? 'uncounted'
      : moves.includes(-1)
        ? 'dropped'
        : moves.includes(1)
          ? 'improved'
          : 'same';
  return {
    suite: after.suite,
    task: after.task,
    variant: after.variant,
    flag,
    passAt1,
    passHatK,
    counts: { before: countsOf(before), after: countsOf(after) },
    cassettes,
  };
}

/**
 * The run-level drop test. Every row compared on other cassettes (re-recorded, live, another
 * `--trials`) is one hypothesis: its pass@1 counts get a one-sided Fisher p-value, and Holm's
 * adjustment over all of them keeps the chance that a run with nothing changed fails at `alpha`
 * or below, however many rows it has. A row whose pass@1 dropped gets its test; replaying the
 * very same cassettes, any difference is deterministic and needs none.
 */
function withDropTests(entries: ComparisonEntry[], alpha: number): ComparisonEntry[] {
  const tested = entries.filter(
    (entry) =>
      entry.cassettes === 'different' &&
      (entry.counts.before?.n ?? 0) > 0 &&
      (entry.counts.after?.n ?? 0) > 0,
  );
  const decisions = runLevelDrops(
    tested.map(({ counts }) => ({ before: counts.before!, after: counts.after! })),
    alpha,
  );
  const family = tested.length;
  const tests = new Map<ComparisonEntry, DropTest>();
  for (const [index, entry] of tested.entries()) {
    if (direction(entry.passAt1.before, entry.passAt1.after) >= 0) continue;
    const { pValue, adjustedPValue, significant } = decisions[index]!;
    const needed = significant
      ? undefined
      : trialsNeeded(entry.passAt1.before!, entry.passAt1.after!, alpha / family);
    tests.set(entry, {
      pValue,
      adjustedPValue,
      family,
      significant,
      ...(needed !== undefined && { trialsNeeded: needed }),
    });
  }
  return entries.map((entry) => {
    const dropTest = tests.get(entry);
    return dropTest ? { ...entry, dropTest } : entry;
  });
}

function countsOf(row: TaskSummary) {
  return { n: row.n, passed: row.passed };
}

function oneSidedEntry(row: TaskSummary, flag: 'new' | 'gone'): ComparisonEntry {
  const k = largestK(row.passHatK);
  const value = { passAt1: row.passAt1, passHatK: rateAt(row.passHatK, k) };
  const side = (present: boolean, rate: number | null) => (present ? rate : null);
  const isNew = flag === 'new';
  return {
    suite: row.suite,
    task: row.task,
    variant: row.variant,
    flag,
    passAt1: { before: side(!isNew, value.passAt1), after: side(isNew, value.passAt1) },
    passHatK: {
      k: k ?? null,
      before: side(!isNew, value.passHatK),
      after: side(isNew, value.passHatK),
    },
    counts: isNew ? { after: countsOf(row) } : { before: countsOf(row) },
    cassettes: 'different',
  };
}

/**
 * Before -> after per (suite, task, variant) for pass@1 and pass^k at the largest k both
 * reports have. A drop in either metric flags the row 'dropped', even if the other rose.
 * Reference rows this run did not select (still in `declared`) are listed in `notRun`,
 * not as entries; rows that nothing declares any more are 'gone' entries.
 * When the two runs did not replay the same cassettes (re-recorded, live, other trial
 * counts), a pass@1 drop also gets a one-sided test, Holm-adjusted over every row so compared
 * (withDropTests), so the gate can tell noise from a regression at `alpha` for the whole run.
 *
 * @example compareReports(parseReport(text, 'reports/reference.json'), report, declared).entries
 */
export function compareReports(
  reference: ComparableReport,
  current: ComparableReport,
  options: { alpha?: number; declared?: ReadonlySet<string> } = {},
): Comparison {
  const alpha = options.alpha ?? DEFAULT_ALPHA;
  const before = new Map(reference.tasks.map((row) => [keyOf(row), row]));
  const [hashesBefore, hashesAfter] = [
    countedHashes(reference.trialProvenance),
    countedHashes(current.trialProvenance),
  ];
  const entries = current.tasks.map((row) => {
    const earlier = before.get(keyOf(row));
    if (!earlier) return oneSidedEntry(row, 'new');
    const key = keyOf(row);
    const same = sameCassettes(hashesBefore.get(key), hashesAfter.get(key));
    return pairEntry(earlier, row, same ? 'same' : 'different');
  });
  const { gone, notRun } = absentRows(reference, current, options.declared);
  for (const row of gone) entries.push(oneSidedEntry(row, 'gone'));
  return {
    referenceGeneratedAt: reference.generatedAt,
    alpha,
    entries: withDropTests(entries, alpha),
    ...(notRun.length > 0 && {
      notRun: notRun.map(({ suite, task, variant }) => ({ suite, task, variant })),
    }),
  };
}
