import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { errorMessage } from '../src/core/errors.js';
import type { RunPair } from './figures.js';
import { measureCommand, type ProcessRun } from './measure-process.js';
import { installPeer } from './peer-install.js';
import { type PeerRow, peerRows, type RunnerRuns } from './peer-rows.js';
import {
  PEER_PACKAGES,
  type PeerName,
  peerCommand,
  writeAgentShim,
  writePeerProject,
} from './peer-workload.js';
import { scratchDir } from './scratch.js';
import {
  checked,
  createEmptyVitestProject,
  emptyVitest,
  evalRun,
  REPLAY_FLAGS,
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

export interface PeerOptions {
  projectDir: string;
  rounds: number;
  peers: readonly PeerName[];
  /** Where the peers are installed (`<installDir>/<peer>`). */
  installDir: string;
  /** Install the peers from the npm cache only (`--smoke`). */
  offline?: boolean;
  log: (line: string) => void;
}

export interface PeerResult {
  rows: PeerRow[];
  /** harness-evals' harness overhead over each peer's, with issue 25's target. */
  targets: string[];
  /** The empty vitest run of each round: the reference. */
  empty: ProcessRun[];
  failed: Array<{ peer: PeerName; message: string }>;
}

const AGENT_LOOP = fileURLToPath(new URL('./agent-loop.mjs', import.meta.url));

const PEER_DISPLAY: Readonly<Record<PeerName, string>> = {
  evalite: `evalite run (refund.eval.ts, trialCount ${REPLAY_TRIALS})`,
  'vitest-evals': `vitest run --reporter=vitest-evals/reporter (${REPLAY_TRIALS} tests)`,
};

/**
 * `npm run bench:peers`: in each round, an empty vitest run, the agent alone in a plain loop,
 * our replayed refund trial (`eval --task T2 --variant upgraded`) and each peer running the
 * same agent, each N trials and 1. Peers that fail to install are reported and left out.
 */
export async function runPeers(options: PeerOptions): Promise<PeerResult> {
  const { projectDir, rounds, log } = options;
  const workDir = scratchDir('harness-peers-');
  const shim = writeAgentShim(join(workDir, 'agent'));
  const { setups, failed } = await setUpPeers(options, workDir, shim);
  log(`bench:peers: preparing a project with ${REPLAY_TRIALS} T2 trials`);
  const workload: Workload = {
    projectDir,
    benchDir: createBenchProject({ projectDir, trials: 1, trialsFor: { T2: REPLAY_TRIALS } }),
    emptyDir: createEmptyVitestProject(projectDir),
  };
  const ours = (trials: number) => evalRun(workload, [...REPLAY_FLAGS, String(trials)]);
  const agent = (trials: number) =>
    checked(
      measureCommand('node', [AGENT_LOOP, String(trials)], { cwd: projectDir }),
      `the agent alone (${trials} trials)`,
    );
  // One unmeasured run of each shape first (transform caches, the OS file cache); our eval
  // first, as it rebuilds dist/ when src/ changed, and the agent runs from dist/.
  await emptyVitest(workload);
  await ours(1);
  await agent(1);
  for (const setup of setups) await peerRun(setup, 1);
  const empty: ProcessRun[] = [];
  const agentPairs: RunPair[] = [];
  const ourPairs: RunPair[] = [];
  const peerPairs = setups.map((): RunPair[] => []);
  const pair = async (run: (trials: number) => Promise<ProcessRun>) => ({
    one: await run(1),
    many: await run(REPLAY_TRIALS),
  });
  for (let round = 1; round <= rounds; round += 1) {
    log(`bench:peers: round ${round} of ${rounds}`);
    empty.push(await emptyVitest(workload));
    agentPairs.push(await pair(agent));
    ourPairs.push(await pair(ours));
    for (const [index, setup] of setups.entries()) {
      peerPairs[index]!.push(await pair((trials) => peerRun(setup, trials)));
    }
  }
  const runners: RunnerRuns[] = [
    {
      name: 'harness-evals',
      command: `npm run eval -- ${REPLAY_FLAGS.join(' ')} ${REPLAY_TRIALS}`,
      pairs: ourPairs,
    },
    ...setups.map((setup, index) => ({
      name: `${setup.peer} ${PEER_PACKAGES[setup.peer][setup.peer]}`,
      peer: setup.peer,
      command: PEER_DISPLAY[setup.peer],
      pairs: peerPairs[index]!,
    })),
  ];
  const agentAlone = {
    name: 'the agent alone',
    command: `node bench/agent-loop.mjs ${REPLAY_TRIALS} (one at a time)`,
    pairs: agentPairs,
  };
  return { ...peerRows({ trials: REPLAY_TRIALS, agentAlone, runners }), empty, failed };
}

/** Install each peer and write its two projects (N trials, 1 trial); a failed install is noted. */
async function setUpPeers(options: PeerOptions, workDir: string, shim: string) {
  const setups: PeerSetup[] = [];
  const failed: PeerResult['failed'] = [];
  for (const peer of options.peers) {
    try {
      const nodeModules = await installPeer({
        dir: join(options.installDir, peer),
        peer,
        log: options.log,
        ...(options.offline && { offline: true }),
      });
      const setup = {
        peer,
        nodeModules,
        one: join(workDir, `${peer}-1`),
        many: join(workDir, `${peer}-${REPLAY_TRIALS}`),
      };
      writePeerProject({ dir: setup.one, peer, trials: 1, shim, nodeModules });
      writePeerProject({ dir: setup.many, peer, trials: REPLAY_TRIALS, shim, nodeModules });
      setups.push(setup);
    } catch (error) {
      const message = errorMessage(error);
      options.log(message);
      failed.push({ peer, message });
    }
  }
  return { setups, failed };
}

function peerRun(setup: PeerSetup, trials: number): Promise<ProcessRun> {
  const dir = trials === 1 ? setup.one : setup.many;
  // evalite keeps its results in ./node_modules/.evalite: every run starts from none.
  if (setup.peer === 'evalite') {
    rmSync(join(dir, 'node_modules', '.evalite'), { recursive: true, force: true });
  }
  return checked(
    measureCommand('node', peerCommand(setup.peer, setup.nodeModules), { cwd: dir }),
    `${setup.peer} in ${dir}`,
  );
}
