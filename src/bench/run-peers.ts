import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { errorMessage } from '../core/errors.js';
import type { RunPair } from './figures.js';
import { measureCommand, type ProcessRun } from './measure-process.js';
import { installPeer } from './peer-install.js';
import { peerRows, type RunnerRuns } from './peer-rows.js';
import {
  PEER_PACKAGES,
  type PeerName,
  peerCommand,
  readRecordings,
  writePeerProject,
} from './peer-workload.js';
import type { Row } from './print-rows.js';
import {
  checked,
  createEmptyVitestProject,
  emptyVitest,
  evalRun,
  REPLAY_TRIALS,
  type Workload,
} from './targets.js';
import { createBenchProject } from './workload.js';

interface PeerSetup {
  peer: PeerName;
  nodeModules: string;
  one: string;
  many: string;
}

const PEER_DISPLAY: Readonly<Record<PeerName, string>> = {
  evalite: `evalite run (refund.eval.ts, trialCount ${REPLAY_TRIALS})`,
  'vitest-evals': `vitest run --reporter=vitest-evals/reporter (${REPLAY_TRIALS} tests)`,
};

/**
 * `npm run bench:peers`: in each round, an empty vitest run, our replayed refund trial
 * (`eval --task T2 --variant upgraded --trials N` and `--trials 1`) and each peer on the
 * same workload (N trials and 1). Peers that fail to install are reported and left out.
 */
export async function runPeers(options: {
  projectDir: string;
  rounds: number;
  peers: readonly PeerName[];
  /** Where the peers are installed (`<installDir>/<peer>`). */
  installDir: string;
  log: (line: string) => void;
}): Promise<{ rows: Row[]; failed: Array<{ peer: PeerName; message: string }> }> {
  const { projectDir, rounds, log } = options;
  const recordings = await readRecordings(join(projectDir, 'fixtures'));
  const failed: Array<{ peer: PeerName; message: string }> = [];
  const workDir = mkdtempSync(join(tmpdir(), 'harness-peers-'));
  const temporary = [workDir];
  try {
    const setups: PeerSetup[] = [];
    for (const peer of options.peers) {
      try {
        const nodeModules = await installPeer({ dir: join(options.installDir, peer), peer, log });
        const setup = {
          peer,
          nodeModules,
          one: join(workDir, `${peer}-1`),
          many: join(workDir, `${peer}-${REPLAY_TRIALS}`),
        };
        writePeerProject({ dir: setup.one, peer, trials: 1, recordings, nodeModules });
        writePeerProject({ dir: setup.many, peer, trials: REPLAY_TRIALS, recordings, nodeModules });
        setups.push(setup);
      } catch (error) {
        const message = errorMessage(error);
        log(message);
        failed.push({ peer, message });
      }
    }
    log(`bench:peers: preparing a project with ${REPLAY_TRIALS} T2 trials`);
    const workload: Workload = {
      projectDir,
      benchDir: createBenchProject({ projectDir, trials: 1, trialsFor: { T2: REPLAY_TRIALS } }),
      emptyDir: createEmptyVitestProject(projectDir),
    };
    temporary.push(workload.benchDir, workload.emptyDir);
    const ourFlags = ['--task', 'T2', '--variant', 'upgraded', '--trials'];
    const peerRun = (setup: PeerSetup, dir: string): Promise<ProcessRun> => {
      // evalite keeps its results in ./node_modules/.evalite: every run starts from none.
      if (setup.peer === 'evalite') {
        rmSync(join(dir, 'node_modules', '.evalite'), { recursive: true, force: true });
      }
      return checked(
        measureCommand('node', peerCommand(setup.peer, setup.nodeModules), { cwd: dir }),
        `${setup.peer} in ${dir}`,
      );
    };
    // One unmeasured run of each shape first: transform caches and the OS file cache.
    await emptyVitest(workload);
    await evalRun(workload, [...ourFlags, '1']);
    for (const setup of setups) await peerRun(setup, setup.one);
    const empty: ProcessRun[] = [];
    const ours: RunPair[] = [];
    const peers = setups.map(() => [] as RunPair[]);
    for (let round = 1; round <= rounds; round += 1) {
      log(`bench:peers: round ${round} of ${rounds}`);
      empty.push(await emptyVitest(workload));
      ours.push({
        one: await evalRun(workload, [...ourFlags, '1']),
        many: await evalRun(workload, [...ourFlags, String(REPLAY_TRIALS)]),
      });
      for (const [index, setup] of setups.entries()) {
        peers[index]!.push({
          one: await peerRun(setup, setup.one),
          many: await peerRun(setup, setup.many),
        });
      }
    }
    const runners: RunnerRuns[] = [
      {
        name: 'harness-evals',
        command: `npm run eval -- ${ourFlags.join(' ')} ${REPLAY_TRIALS}`,
        pairs: ours,
      },
      ...setups.map((setup, index) => ({
        name: `${setup.peer} ${PEER_PACKAGES[setup.peer][setup.peer]}`,
        command: PEER_DISPLAY[setup.peer],
        pairs: peers[index]!,
      })),
    ];
    return { rows: peerRows({ trials: REPLAY_TRIALS, empty, runners }), failed };
  } finally {
    for (const dir of temporary) rmSync(dir, { recursive: true, force: true });
  }
}
