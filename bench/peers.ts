import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BenchUsageError, parseBenchArgs, roundsOf, runBenchScript } from './bench-args.js';
import { loadAverage, median, ms } from './figures.js';
import { PEER_PACKAGES, type PeerName } from './peer-workload.js';
import { printTable } from './print-rows.js';
import { runPeers } from './run-peers.js';
import { scratchDir } from './scratch.js';
import { REPLAY_TRIALS, useSmokeSizes } from './targets.js';

/**
 * `npm run bench:peers`: harness-evals next to evalite and vitest-evals on the same work: the
 * refund-desk agent built on this runtime, the real SDK, the recorded responses of T2
 * upgraded answered in process. Each runner's harness overhead is its cost per trial minus the
 * agent alone's. The peers are installed from the npm registry into a temporary directory
 * (removed afterwards; `--peers-dir DIR` keeps and reuses an install). Figures, never pass/fail.
 */
const PEERS = Object.keys(PEER_PACKAGES) as PeerName[];

async function main(): Promise<number> {
  const { values } = parseBenchArgs(process.argv.slice(2), {
    rounds: { type: 'string' },
    peer: { type: 'string', multiple: true },
    'peers-dir': { type: 'string' },
    smoke: { type: 'boolean' },
  });
  const smoke = values.smoke === true;
  // --smoke: small sizes, one round, the peers only from the npm cache (CI may have no registry).
  if (smoke) useSmokeSizes();
  const rounds = roundsOf(values.rounds, smoke ? 1 : 5);
  const peers = (values.peer ?? PEERS) as PeerName[];
  for (const peer of peers) {
    if (!PEERS.includes(peer)) {
      throw new BenchUsageError(
        `--peer ${peer}: not a known peer; give one of ${PEERS.join(', ')}`,
      );
    }
  }
  const installDir = values['peers-dir']
    ? resolve(values['peers-dir'])
    : scratchDir('harness-peers-install-');
  const projectDir = fileURLToPath(new URL('..', import.meta.url));
  const loadAtStart = loadAverage();
  const result = await runPeers({
    projectDir,
    rounds,
    peers,
    installDir,
    offline: smoke,
    log: (line) => console.error(line),
  });
  printTable(
    `harness-evals and its peers on the same work: the refund-desk agent on this runtime, the real SDK, T2 upgraded's recorded responses answered in process ` +
      `(${REPLAY_TRIALS} trials vs 1; ${rounds} round${rounds === 1 ? '' : 's'}, medians; node ${process.version}; load average ${loadAtStart} at the start, ${loadAverage()} at the end)`,
    result.rows,
    {
      runner: 'runner',
      wall: 'per trial, wall',
      cpu: 'CPU (+ fork workers)',
      overheadWall: 'harness overhead, wall',
      overheadCpu: 'overhead, CPU',
      start: '1-trial run',
      command: 'command',
    },
  );
  console.log(
    `  reference: an empty vitest run, ${ms(median(result.empty.map((run) => run.wallMs)))}`,
  );
  console.log('  harness overhead = a trial − the agent alone, same round');
  for (const line of result.targets) console.log(`  ${line}`);
  for (const { peer } of result.failed) {
    console.log(
      smoke
        ? `  ${peer}: skipped by --smoke: it could not be installed offline (not in the npm cache); harness-evals and the agent alone were measured`
        : `  ${peer}: not measured (its install failed: see above)`,
    );
  }
  return result.failed.length > 0 && !smoke ? 1 : 0;
}

await runBenchScript('bench:peers', main);
