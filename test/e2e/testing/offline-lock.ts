import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';

interface LockEntry {
  version?: string;
  resolved?: string;
  integrity?: string;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
  dev?: boolean;
  peer?: boolean;
  [key: string]: unknown;
}

interface Lock {
  packages: Record<string, LockEntry>;
}

/**
 * A package-lock.json for a fresh project that depends on the packed tarball only, built from
 * this repository's lock: every package the tarball needs (dependencies and the vitest peer,
 * transitively) with its registry URL and integrity. `npm install --offline` then installs
 * everything from the npm cache that `npm ci` filled, without asking the registry for
 * package metadata (which `npm ci` never caches).
 */
export async function offlineLockFor(options: {
  repoLock: string;
  repoPackageJson: string;
  tarball: string;
  /** How the project's package.json names the tarball, e.g. `file:harness-evals-0.1.0.tgz`. */
  spec: string;
  projectName: string;
}): Promise<{ lock: unknown; dependency: Record<string, string> }> {
  const repo = JSON.parse(await readFile(options.repoLock, 'utf8')) as Lock;
  const manifest = JSON.parse(await readFile(options.repoPackageJson, 'utf8')) as {
    name: string;
    version: string;
    license?: string;
    bin?: Record<string, string>;
    engines?: Record<string, string>;
    dependencies: Record<string, string>;
    peerDependencies?: Record<string, string>;
  };
  const integrity = `sha512-${createHash('sha512')
    .update(await readFile(options.tarball))
    .digest('base64')}`;
  const packages: Record<string, LockEntry> = {};
  const queue: Array<[string, string]> = Object.keys({
    ...manifest.dependencies,
    ...manifest.peerDependencies,
  }).map((name) => ['', name]);
  while (queue.length > 0) {
    const [from, name] = queue.shift()!;
    const location = resolve(repo, from, name);
    if (!location || packages[location]) continue;
    const {
      dev: _dev,
      peer: _peer,
      devOptional: _devOptional,
      ...entry
    } = repo.packages[location]!;
    packages[location] = entry;
    const needs = {
      ...entry.dependencies,
      ...entry.optionalDependencies,
      ...Object.fromEntries(
        Object.entries(entry.peerDependencies ?? {}).filter(
          ([peer]) => !entry.peerDependenciesMeta?.[peer]?.optional,
        ),
      ),
    };
    for (const dependency of Object.keys(needs)) queue.push([location, dependency]);
  }
  const { name, version } = manifest;
  return {
    dependency: { [name]: options.spec },
    lock: {
      name: options.projectName,
      version: '1.0.0',
      lockfileVersion: 3,
      requires: true,
      packages: {
        '': { name: options.projectName, version: '1.0.0', dependencies: { [name]: options.spec } },
        [`node_modules/${name}`]: {
          version,
          resolved: options.spec,
          integrity,
          ...(manifest.license && { license: manifest.license }),
          dependencies: manifest.dependencies,
          ...(manifest.bin && { bin: manifest.bin }),
          ...(manifest.engines && { engines: manifest.engines }),
          ...(manifest.peerDependencies && { peerDependencies: manifest.peerDependencies }),
        },
        ...packages,
      },
    },
  };
}

/** Node's lookup: `<from>/node_modules/<name>`, then each enclosing node_modules up to the root. */
function resolve(lock: Lock, from: string, name: string): string | undefined {
  let base = from;
  for (;;) {
    const candidate = `${base ? `${base}/` : ''}node_modules/${name}`;
    if (lock.packages[candidate]) return candidate;
    if (!base) return undefined;
    const cut = base.lastIndexOf('/node_modules/');
    base = cut < 0 ? '' : base.slice(0, cut);
  }
}
