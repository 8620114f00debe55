import type { BootstrapOptions } from './bootstrap.js';
import { CONFIDENCE, hull } from './interval.js';
import { passAtK, passHatK } from './metrics.js';
import { checkPassCounts, type PassCounts, twoLevelBootstrap } from './two-level-bootstrap.js';
import { type PassKIntervals, rateIntervalToK, wilsonScore } from './wilson.js';

/**
 * A suite's pass@1 (the mean over tasks of passed/n, each task weighted once) and its effective
 * number of trials: if every task shared one rate p, that mean would vary like one rate over
 * T² / Σ(1/n) trials (the pooled trials when every task ran the same n). Undefined for no tasks.
 */
export function pooledRate(tasks: readonly PassCounts[]): { rate: number; n: number } | undefined {
  if (tasks.length === 0) return undefined;
  for (const [index, task] of tasks.entries())
    checkPassCounts(task, `pooledRate task ${index + 1}`);
  const rate = tasks.reduce((sum, task) => sum + task.passed / task.n, 0) / tasks.length;
  const inverse = tasks.reduce((sum, task) => sum + 1 / task.n, 0);
  return { rate, n: (tasks.length * tasks.length) / inverse };
}

/** A task of a suite: its counted trials, and for a task over cases each case's. */
export interface SuiteTask extends PassCounts {
  cases?: readonly PassCounts[];
}

/** A task's estimate: the estimator at its counts, or its mean over its cases. */
function estimateOf(task: SuiteTask, estimator: (n: number, c: number) => number | undefined) {
  const cases = task.cases && task.cases.length > 0 ? task.cases : [task];
  return (
    cases.reduce((sum, one) => sum + (estimator(one.n, one.passed) ?? Number.NaN), 0) / cases.length
  );
}

/** `estimator(n, c)` for c = 0..n: what each redraw of a task's passes scores. */
function table(n: number, estimator: (n: number, c: number) => number | undefined): number[] {
  return Array.from({ length: n + 1 }, (_, c) => estimator(n, c) ?? Number.NaN);
}

/**
 * Intervals of a suite's mean pass@k and pass^k over its tasks, at each k of `ks` (undefined at
 * a k some task did not reach). Each is the wider of:
 * - the two-level bootstrap (tasks, then trials within each task; see twoLevelBootstrap), which
 *   holds how tasks differ but collapses where every trial agreed (all tasks 0/3 redraw to 0/3);
 * - the pooled floor: the Wilson interval of the suite's rate over its pooled trials (see
 *   pooledRate), mapped to k like a task's. It is the least any suite can claim: what the
 *   trials would say if every task shared one rate.
 *
 * @example suitePassKIntervals([{ n: 3, passed: 0 }, { n: 3, passed: 0 }], [1])[0] // ≈ [0, 0.39]
 */
export function suitePassKIntervals(
  tasks: readonly SuiteTask[],
  ks: readonly number[],
  options: BootstrapOptions = {},
): Array<PassKIntervals | undefined> {
  const pooled = pooledRate(tasks);
  if (!pooled) return ks.map(() => undefined);
  const units = (task: SuiteTask) => (task.cases && task.cases.length > 0 ? task.cases : [task]);
  const reached = ks.filter((k) => tasks.every((task) => units(task).every((one) => one.n >= k)));
  const arm = (counts: PassCounts) => ({
    counts,
    scores: reached.flatMap((k) => [
      table(counts.n, (n, c) => passAtK(n, c, k)),
      table(counts.n, (n, c) => passHatK(n, c, k)),
    ]),
  });
  // A task over cases is redrawn by its cases: its trials are clusters, not one binomial.
  const arms = tasks.map((task) => [
    task.cases && task.cases.length > 0
      ? { counts: task, scores: [], cases: task.cases.map(arm) }
      : arm(task),
  ]);
  const bootstrap = reached.length > 0 ? (twoLevelBootstrap(arms, options) ?? []) : [];
  const floor = wilsonScore(pooled.rate, pooled.n, options.confidence ?? CONFIDENCE);
  const mean = (estimator: (n: number, c: number) => number | undefined) =>
    tasks.reduce((sum, task) => sum + estimateOf(task, estimator), 0) / tasks.length;
  return ks.map((k) => {
    const at = reached.indexOf(k);
    if (at === -1) return undefined;
    const estimates = {
      passAtK: mean((n, c) => passAtK(n, c, k)),
      passHatK: mean((n, c) => passHatK(n, c, k)),
    };
    const floorAtK = rateIntervalToK(floor, k, estimates);
    return {
      passAtK: hull(bootstrap[2 * at]!, floorAtK.passAtK),
      passHatK: hull(bootstrap[2 * at + 1]!, floorAtK.passHatK),
    };
  });
}
