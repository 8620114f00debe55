import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PEER_PACKAGES, type PeerName } from './peer-workload.js';
import { runCommand } from './run-command.js';

/**
 * Peers are installed on demand from the npm registry into a throwaway directory of their
 * own (`<dir>/<peer>/node_modules`), never into this project's package.json or lock file.
 */
export function installArgs(dir: string, peer: PeerName, offline = false): string[] {
  const specs = Object.entries(PEER_PACKAGES[peer]).map(([name, version]) => `${name}@${version}`);
  const from = offline ? ['--offline'] : [];
  return ['install', '--no-save', '--no-audit', '--no-fund', ...from, '--prefix', dir, ...specs];
}

/** The pinned packages that are missing from `dir` or installed at another version. */
export function missingPackages(dir: string, peer: PeerName): string[] {
  return Object.entries(PEER_PACKAGES[peer])
    .filter(([name, version]) => {
      const manifest = join(dir, 'node_modules', name, 'package.json');
      if (!existsSync(manifest)) return true;
      return (
        (JSON.parse(readFileSync(manifest, 'utf8')) as { version?: string }).version !== version
      );
    })
    .map(([name, version]) => `${name}@${version}`);
}

const FIX =
  'check that the npm registry answers (`npm ping`). evalite needs better-sqlite3, which ' +
  'node-gyp compiles from source when no prebuilt binary can be downloaded: that needs g++, ' +
  'make, python3 and the Node headers (`apt-get install -y g++ make python3`). Then run ' +
  '`npm run bench:peers` again, or leave the peer out with `--peer <other peer>`.';

/**
 * Install `peer` into `dir` (skipped when the pinned versions are already there) and
 * return its node_modules. Throws an error naming the peer, the command and the fix.
 */
export async function installPeer(options: {
  dir: string;
  peer: PeerName;
  log: (line: string) => void;
  /** The npm executable (tests give a stand-in). */
  npm?: string;
  /** From the npm cache only (`bench:peers --smoke`): no registry. */
  offline?: boolean;
}): Promise<string> {
  const { dir, peer } = options;
  const nodeModules = join(dir, 'node_modules');
  const missing = missingPackages(dir, peer);
  if (missing.length > 0) {
    mkdirSync(dir, { recursive: true });
    if (!existsSync(join(dir, 'package.json'))) {
      writeFileSync(join(dir, 'package.json'), '{ "private": true }\n');
    }
    const args = installArgs(dir, peer, options.offline);
    options.log(`bench:peers: installing ${missing.join(' ')} into ${dir}`);
    const { code, output } = await runCommand(options.npm ?? 'npm', args);
    if (code !== 0) {
      throw new Error(
        `bench:peers: installing ${peer} failed (npm exited with ${code}).\n` +
          `  command: npm ${args.join(' ')}\n` +
          `  npm said:\n${indent(output)}\n  fix: ${FIX}`,
      );
    }
  }
  if (peer === 'evalite') {
    // better-sqlite3 is native: an install whose build script did not run (or failed) loads here.
    const probe = spawnSync(
      process.execPath,
      ['-e', "new (require('better-sqlite3'))(':memory:').close()"],
      { cwd: dir, encoding: 'utf8' },
    );
    if (probe.status !== 0) {
      throw new Error(
        `bench:peers: evalite is installed in ${dir} but its better-sqlite3 does not load:\n` +
          `${indent(probe.stderr)}\n  fix: npm rebuild better-sqlite3 --prefix ${dir}; ${FIX}`,
      );
    }
  }
  return nodeModules;
}

const indent = (text: string) =>
  text
    .trim()
    .split('\n')
    .slice(-20)
    .map((line) => `    ${line}`)
    .join('\n');
