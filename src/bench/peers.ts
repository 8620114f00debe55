import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BenchUsageError, parseBenchArgs, roundsOf, runBenchScript } from './bench-args.js';
import { PEER_PACKAGES, type PeerName } from './peer-workload.js';
import { printRows } from './print-rows.js';
import { runPeers } from './run-peers.js';
import { REPLAY_TRIALS } from './targets.js';

/**
 * `npm run bench:peers`: harness-evals next to evalite and vitest-evals on the replayed
 * refund trial, so "faster than evalite" stays checkable. The peers are installed from the
 * npm registry into a temporary directory (removed afterwards; `--peers-dir DIR` keeps and
 * reuses an install). Figures, never pass/fail.
 */
const PEERS = Object.keys(PEER_PACKAGES) as PeerName[];

async function main(): Promise<number> {
  const { values } = parseBenchArgs(process.argv.slice(2), {
    rounds: { type: 'string' },
    peer: { type: 'string', multiple: true },
    'peers-dir': { type: 'string' },
  });
  const rounds = roundsOf(values.rounds, 5);
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
    : mkdtempSync(join(tmpdir(), 'harness-peers-install-'));
  const projectDir = fileURLToPath(new URL('../..', import.meta.url));
  try {
    const { rows, failed } = await runPeers({
      projectDir,
      rounds,
      peers,
      installDir,
      log: (line) => console.error(line),
    });
    printRows(
      `harness-evals and its peers on the replayed refund trial (T2 upgraded, ${REPLAY_TRIALS} trials vs 1; ` +
        `${rounds} round${rounds === 1 ? '' : 's'}; node ${process.version}; a peer above 1.00x is slower than harness-evals)`,
      rows,
      'vs harness-evals',
    );
    for (const { peer } of failed)
      console.log(`  ${peer}: not measured (its install failed: see above)`);
    return failed.length > 0 ? 1 : 0;
  } finally {
    if (!values['peers-dir']) rmSync(installDir, { recursive: true, force: true });
  }
}

await runBenchScript('bench:peers', main);
