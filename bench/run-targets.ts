import { join } from 'node:path';
import { buildBaseline } from './baseline-build.js';
import type { BaselineRef } from './baseline-ref.js';
import { contractRows } from './contract-rows.js';
import type { RunPair } from './figures.js';
import type { ProcessRun } from './measure-process.js';
import type { Row } from './print-rows.js';
import { type ComparisonRow, sideBySideRows } from './side-by-side.js';
import { type BuildRuns, emptyBuildRuns, type TargetRuns } from './target-runs.js';
import {
  createEmptyVitestProject,
  DEBUG_FLAGS,
  DEBUG_TRIALS,
  emptyVitest,
  evalRun,
  importModules,
  npmTest,
  REPLAY_FLAGS,
  REPLAY_TRIALS,
  SCALE_TRIALS,
  STARTUP_FLAGS,
  trialLoop,
  type Workload,
} from './targets.js';
import { createBenchProject } from './workload.js';

export interface TargetOptions {
  projectDir: string;
  rounds: number;
  npmTest: boolean;
  /** `--baseline-ref`: a checked commit (baseline-ref.ts) measured beside this build. */
  baseline?: BaselineRef;
  log: (line: string) => void;
}

export interface TargetResult {
  contract: Row[];
  /** With a baseline: the figures of both builds side by side. */
  comparison?: ComparisonRow[];
  /** Things a reader of the figures should know (the baseline's dependencies). */
  notes: string[];
}

interface Workloads {
  current: Workload;
  baseline?: Workload;
  notes: string[];
}

/**
 * Measure every target of issues 14 and 25 in rounds. Each round runs the empty vitest
 * reference next to the eval runs, so a busy machine slows both sides of each ratio alike;
 * with a baseline, each of its figures runs next to this build's, in alternating order.
 * The bench projects are scratch directories (scratch.ts): gone on every way out.
 */
export async function runTargets(options: TargetOptions): Promise<TargetResult> {
  const workloads = await prepareWorkloads(options);
  const runs: TargetRuns = {
    empty: [],
    current: emptyBuildRuns(),
    ...(workloads.baseline && { baseline: emptyBuildRuns() }),
    vitestTests: [],
    dependencies: [],
    debug: [],
    scale: [],
    leftovers: new Set(),
  };
  await warmUp(workloads);
  for (let round = 1; round <= options.rounds; round += 1) {
    options.log(`bench: round ${round} of ${options.rounds}`);
    await measureRound(round, workloads, runs);
  }
  if (options.npmTest) runs.tests = noted(runs, await npmTest(workloads.current));
  return {
    contract: contractRows(runs),
    ...(runs.baseline && {
      comparison: sideBySideRows({
        empty: runs.empty,
        current: runs.current,
        baseline: runs.baseline,
      }),
    }),
    notes: workloads.notes,
  };
}

/** The bench project of this build and, with `--baseline-ref`, of the baseline's own build. */
async function prepareWorkloads(options: TargetOptions): Promise<Workloads> {
  const { projectDir, log } = options;
  log(
    `bench: preparing a project with ${SCALE_TRIALS} trials per task and variant (T2: ${REPLAY_TRIALS})`,
  );
  const emptyDir = createEmptyVitestProject(projectDir);
  const current: Workload = {
    projectDir,
    benchDir: createBenchProject({
      projectDir,
      trials: SCALE_TRIALS,
      trialsFor: { T2: REPLAY_TRIALS },
    }),
    emptyDir,
  };
  if (!options.baseline) return { current, notes: [] };
  const built = await buildBaseline({
    ref: options.baseline,
    repoDir: projectDir,
    nodeModules: join(projectDir, 'node_modules'),
    log,
  });
  // The baseline runs only the figures it is compared on: T2 is all its project needs.
  const baseline: Workload = {
    name: `the baseline, ${options.baseline.ref}`,
    projectDir: built.projectDir,
    benchDir: createBenchProject({
      projectDir: built.projectDir,
      trials: 1,
      trialsFor: { T2: REPLAY_TRIALS },
    }),
    emptyDir,
  };
  return { current, baseline, notes: built.notes };
}

/** One run of each shape first, unmeasured: the on-disk transform cache and the OS file cache. */
async function warmUp(workloads: Workloads): Promise<void> {
  await emptyVitest(workloads.current);
  for (const workload of [workloads.current, workloads.baseline]) {
    if (!workload) continue;
    await evalRun(workload, STARTUP_FLAGS);
    await trialLoop(workload, 1);
  }
}

async function measureRound(round: number, workloads: Workloads, runs: TargetRuns): Promise<void> {
  const note = (run: ProcessRun) => noted(runs, run);
  const { current } = workloads;
  const emptyRun = note(await emptyVitest(current));
  runs.empty.push(emptyRun);
  // The two builds take turns going first, so neither always runs on a machine the other warmed.
  const builds: Array<[Workload, BuildRuns]> = [[current, runs.current]];
  if (workloads.baseline && runs.baseline) {
    const pair: [Workload, BuildRuns] = [workloads.baseline, runs.baseline];
    if (round % 2 === 1) builds.unshift(pair);
    else builds.push(pair);
  }
  for (const [workload, into] of builds)
    into.startup.push(note(await evalRun(workload, STARTUP_FLAGS)));
  runs.vitestTests.push({ one: emptyRun, many: note(await emptyVitest(current, REPLAY_TRIALS)) });
  runs.dependencies.push({
    one: note(await importModules(current, [])),
    many: note(await importModules(current, ['@anthropic-ai/sdk', 'zod'])),
  });
  const replay = (workload: Workload) => (trials: number) =>
    evalRun(workload, [...REPLAY_FLAGS, String(trials)]);
  for (const [workload, into] of builds)
    into.replay.push(await pair(runs, replay(workload), REPLAY_TRIALS));
  for (const [workload, into] of builds) {
    into.loops.push(await pair(runs, (trials) => trialLoop(workload, trials), REPLAY_TRIALS));
  }
  runs.debug.push(
    await pair(runs, (trials) => evalRun(current, [...DEBUG_FLAGS, String(trials)]), DEBUG_TRIALS),
  );
  if (round <= 3) runs.scale.push(note(await evalRun(current, ['--trials', String(SCALE_TRIALS)])));
}

/** A 1-trial run and its `trials`-trial twin, back to back. */
async function pair(
  runs: TargetRuns,
  run: (trials: number) => Promise<ProcessRun>,
  trials: number,
): Promise<RunPair> {
  return { one: noted(runs, await run(1)), many: noted(runs, await run(trials)) };
}

/** Keep what a run left behind, and the run. */
function noted(runs: TargetRuns, run: ProcessRun): ProcessRun {
  for (const left of run.leftovers ?? []) runs.leftovers.add(left);
  return run;
}
