import { rmSync } from 'node:fs';
import { median, medianAndBest, ms, perTrial, type RunPair, times } from './figures.js';
import type { ProcessRun } from './measure-process.js';
import type { Row } from './print-rows.js';
import {
  createEmptyVitestProject,
  DEBUG_TRIALS,
  emptyVitest,
  evalRun,
  importModules,
  npmTest,
  REPLAY_TRIALS,
  SCALE_TRIALS,
  trialLoop,
  type Workload,
} from './targets.js';
import { createBenchProject } from './workload.js';

/**
 * Measure every target of issue 14 in rounds. Each round runs the empty vitest reference
 * next to the eval runs, so a busy machine slows both sides of each ratio alike.
 */
export async function runTargets(options: {
  projectDir: string;
  rounds: number;
  npmTest: boolean;
  log: (line: string) => void;
}): Promise<Row[]> {
  const { projectDir, rounds, log } = options;
  log(
    `bench: preparing a project with ${SCALE_TRIALS} trials per task and variant (T2: ${REPLAY_TRIALS})`,
  );
  const workload: Workload = {
    projectDir,
    benchDir: createBenchProject({
      projectDir,
      trials: SCALE_TRIALS,
      trialsFor: { T2: REPLAY_TRIALS },
    }),
    emptyDir: createEmptyVitestProject(projectDir),
  };
  const empty: ProcessRun[] = [];
  const startup: ProcessRun[] = [];
  const replay: RunPair[] = [];
  const debug: RunPair[] = [];
  const scale: ProcessRun[] = [];
  // Floors the targets sit on: vitest's own cost per test, and loading the SDK and zod.
  const vitestTests: RunPair[] = [];
  const dependencies: RunPair[] = [];
  // What the trials cost without vitest: the rest of the replayed trial's figure is vitest's.
  const loops: RunPair[] = [];
  const leftovers = new Set<string>();
  const note = (run: ProcessRun) => {
    for (const left of run.leftovers ?? []) leftovers.add(left);
    return run;
  };
  const replayFlags = ['--task', 'T2', '--variant', 'upgraded', '--trials'];
  const debugFlags = ['--suite', 'debug', '--trials'];
  try {
    // One run of each shape first, unmeasured: the on-disk transform cache and the OS file cache.
    await emptyVitest(workload);
    await evalRun(workload, ['--task', 'T2', '--trials', '1']);
    for (let round = 1; round <= rounds; round += 1) {
      log(`bench: round ${round} of ${rounds}`);
      const emptyRun = note(await emptyVitest(workload));
      empty.push(emptyRun);
      startup.push(note(await evalRun(workload, ['--task', 'T2', '--trials', '1'])));
      vitestTests.push({
        one: emptyRun,
        many: note(await emptyVitest(workload, REPLAY_TRIALS)),
      });
      dependencies.push({
        one: note(await importModules(workload, [])),
        many: note(await importModules(workload, ['@anthropic-ai/sdk', 'zod'])),
      });
      replay.push({
        one: note(await evalRun(workload, [...replayFlags, '1'])),
        many: note(await evalRun(workload, [...replayFlags, String(REPLAY_TRIALS)])),
      });
      loops.push({
        one: note(await trialLoop(workload, 1)),
        many: note(await trialLoop(workload, REPLAY_TRIALS)),
      });
      debug.push({
        one: note(await evalRun(workload, [...debugFlags, '1'])),
        many: note(await evalRun(workload, [...debugFlags, String(DEBUG_TRIALS)])),
      });
      if (round <= 3) scale.push(note(await evalRun(workload, ['--trials', String(SCALE_TRIALS)])));
    }
    const tests = options.npmTest ? note(await npmTest(workload)) : undefined;

    const emptyWall = median(empty.map((run) => run.wallMs));
    const debugTrialsPerRun = (trials: number) => trials * 8; // 4 tasks x 2 variants
    const replayWall = perTrial(replay, REPLAY_TRIALS - 1, 'wallMs');
    const replayCpu = perTrial(replay, REPLAY_TRIALS - 1, 'cpuMs');
    const debugExtra = debugTrialsPerRun(DEBUG_TRIALS) - debugTrialsPerRun(1);
    const debugWall = perTrial(debug, debugExtra, 'wallMs');
    const debugCpu = perTrial(debug, debugExtra, 'cpuMs');
    const startupWall = startup.map((run) => run.wallMs);
    const vitestPerTest = perTrial(vitestTests, REPLAY_TRIALS - 1, 'wallMs');
    const loopWall = perTrial(loops, REPLAY_TRIALS - 1, 'wallMs');
    const dependencyLoad = perTrial(dependencies, 1, 'wallMs');
    const scaleWall = scale.map((run) => run.wallMs);
    const scaleRss = scale.map((run) => run.maxRssKb / 1024);
    const ratioOf = (runs: readonly ProcessRun[]) =>
      times(median(runs.map((run) => run.wallMs)) / emptyWall);
    const evalCommand = 'npm run eval --';
    const rows: Row[] = [
      {
        target: 'empty vitest run (the reference)',
        ...medianAndBest(empty.map((run) => run.wallMs)),
        goal: '',
        ratio: '1.00x',
        command: 'vitest run (one passing test)',
      },
      {
        target: 'start-up: T2, 1 trial per variant',
        ...medianAndBest(startupWall),
        goal: '≤ 1.5x',
        ratio: ratioOf(startup),
        command: `${evalCommand} --task T2 --trials 1`,
      },
      {
        target: '  floor: loading the SDK and zod',
        ...medianAndBest(dependencyLoad),
        goal: '',
        ratio: times(median(dependencyLoad) / emptyWall),
        command: "node -e \"await import('@anthropic-ai/sdk'); await import('zod')\" − node -e ''",
      },
      {
        target: `replayed refund trial, wall (${REPLAY_TRIALS} vs 1)`,
        ...medianAndBest(replayWall),
        goal: '≤ 0.5 ms',
        ratio: ratioOf(replay.map((pair) => pair.many)),
        command: `${evalCommand} ${replayFlags.join(' ')} ${REPLAY_TRIALS}`,
      },
      {
        target: 'replayed refund trial, CPU',
        ...medianAndBest(replayCpu),
        goal: '',
        ratio: '',
        command: '(same runs)',
      },
      {
        target: `  floor: vitest, one more empty test (${REPLAY_TRIALS} vs 1)`,
        ...medianAndBest(vitestPerTest),
        goal: '',
        ratio: '',
        command: `vitest run, describe.concurrent with ${REPLAY_TRIALS} passing tests`,
      },
      {
        target: `  floor: the same trials without vitest (${REPLAY_TRIALS} vs 1)`,
        ...medianAndBest(loopWall),
        goal: '',
        ratio: '',
        command: 'node src/bench/trial-loop.mjs <bench project> N (runTrial, 8 at a time)',
      },
      {
        target: `debug-agent trial, wall (${debugTrialsPerRun(DEBUG_TRIALS)} vs ${debugTrialsPerRun(1)})`,
        ...medianAndBest(debugWall),
        goal: '≤ 15 ms',
        ratio: ratioOf(debug.map((pair) => pair.many)),
        command: `${evalCommand} ${debugFlags.join(' ')} ${DEBUG_TRIALS}`,
      },
      {
        target: 'debug-agent trial, CPU',
        ...medianAndBest(debugCpu),
        goal: '',
        ratio: '',
        command: '(same runs)',
      },
      {
        target: `every task and variant, ${SCALE_TRIALS * 20} trials: wall`,
        ...medianAndBest(scaleWall),
        goal: '< 30 s',
        ratio: ratioOf(scale),
        command: `${evalCommand} --trials ${SCALE_TRIALS}`,
      },
      {
        target: '  peak RSS',
        ...medianAndBest(scaleRss, (value) => `${value.toFixed(0)} MB`),
        goal: '< 500 MB',
        ratio: '',
        command: '(same runs)',
      },
    ];
    if (tests) {
      rows.push({
        target: 'npm test (unit tests + eval gate)',
        figure: ms(tests.wallMs),
        best: ms(tests.wallMs),
        goal: '< 60 s',
        ratio: times(tests.wallMs / emptyWall),
        command: `npm test (1 round, exit ${tests.exitCode})`,
      });
    }
    rows.push({
      target: 'processes left behind',
      figure: String(leftovers.size),
      best: '',
      goal: '0',
      ratio: '',
      command: leftovers.size > 0 ? [...leftovers].slice(0, 3).join('; ') : 'every measured run',
    });
    return rows;
  } finally {
    rmSync(workload.benchDir, { recursive: true, force: true });
    rmSync(workload.emptyDir, { recursive: true, force: true });
  }
}
