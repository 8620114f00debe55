import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, extname, join, relative, resolve, sep } from 'node:path';
import type { Loader, Plugin } from 'esbuild';
import { NotRegularFileError, readRegularFileSync } from '../index.js';
import { processScratchDir } from './scratch-dir.js';

export type TestBundle = { file: string; hash: string } | { error: string };

interface CachedBundle {
  /** Every file esbuild bundled, relative to the sandbox root, with the hash of the bytes it got. */
  inputs: Array<{ path: string; hash: string }>;
  /**
   * Every directory an import was looked up in, and those holding an input, with what they
   * held then: a new file can change what an import resolves to (`./math.js` beside
   * `math.ts`), and a tsconfig.json or package.json changes how code compiles.
   */
  dirs: Array<{ path: string; listing: string }>;
  bundle: { file: string; hash: string };
}

let bundleDir: string | undefined;
/** Builds in flight: esbuild's service is stopped when the last one ends. */
let building = 0;
/** Per entry file (relative to the sandbox root), the bundles built so far in this process. */
const cache = new Map<string, CachedBundle[]>();

const sha256 = (bytes: Uint8Array | string) => createHash('sha256').update(bytes).digest('hex');

/** Marks a path that is there but is no regular file (a FIFO, socket or device). */
const NOT_REGULAR = Symbol('not a regular file');

/** A regular file's bytes, NOT_REGULAR for a FIFO, socket or device, undefined when it cannot be opened. */
function readRegularFile(path: string): Buffer | typeof NOT_REGULAR | undefined {
  try {
    return readRegularFileSync(path);
  } catch (error) {
    return error instanceof NotRegularFileError ? NOT_REGULAR : undefined;
  }
}

/** stat(2) follows links and never blocks: a link to /dev/zero shows as the device. */
function isRegularOrAbsent(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return true;
  }
}

function hashOf(cwd: string, path: string): string | typeof NOT_REGULAR | undefined {
  const bytes = readRegularFile(resolve(cwd, path));
  return typeof bytes === 'object' ? sha256(bytes) : bytes;
}

const notRegular = (shown: string) =>
  `${shown} is not a regular file (a FIFO, socket or device); it cannot be bundled`;

/** Configuration esbuild reads from a directory without listing it among the inputs. */
const CONFIG_FILES = new Set(['tsconfig.json', 'jsconfig.json', 'package.json']);

/** A directory's names, sorted, and the hash of each configuration file in it. */
function listingOf(dir: string): string {
  let names: string[];
  try {
    names = readdirSync(dir).sort();
  } catch (error) {
    return `(unreadable: ${(error as NodeJS.ErrnoException).code ?? 'error'})`;
  }
  return names
    .map((name) => {
      if (!CONFIG_FILES.has(name)) return name;
      const hash = hashOf(dir, name);
      return `${name} ${hash === NOT_REGULAR ? NOT_REGULAR_MARK : (hash ?? '-')}`;
    })
    .join('\n');
}

const NOT_REGULAR_MARK = '(not a regular file)';

/** esbuild's loader for a file it would load by itself; undefined: let esbuild decide. */
const LOADERS: Record<string, Loader> = {
  '.ts': 'ts',
  '.mts': 'ts',
  '.cts': 'ts',
  '.tsx': 'tsx',
  '.js': 'js',
  '.mjs': 'js',
  '.cjs': 'js',
  '.jsx': 'jsx',
  '.json': 'json',
  '.css': 'css',
  '.txt': 'text',
};

/**
 * What one build read: each input's hash taken from the very bytes esbuild was given (a file
 * written while the build runs cannot be cached under bytes it was not built from), and each
 * directory's listing taken before esbuild looked an import up in it.
 */
function inputRecorder(cwd: string) {
  const loaded = new Map<string, string>();
  const dirs = new Map<string, string>();
  /** Relative inside the sandbox; a path outside it (a link's target) in full. */
  const shown = (path: string) => {
    const inside = relative(cwd, path);
    return inside.startsWith('..') ? path : inside || '.';
  };
  /** Lists the directory and its parents up to the sandbox root (configuration lives there too). */
  const seeDir = (dir: string): string | undefined => {
    let problem: string | undefined;
    for (let current = dir; !dirs.has(current); current = dirname(current)) {
      const listing = listingOf(current);
      dirs.set(current, listing);
      // esbuild would open it and wait for a writer forever: refuse before it looks.
      const config = listing
        .split('\n')
        .find((line) => line.endsWith(` ${NOT_REGULAR_MARK}`))
        ?.split(' ')[0];
      if (config) problem ??= notRegular(shown(join(current, config)));
      const parent = dirname(current);
      if (current === cwd || parent === current || !current.startsWith(`${cwd}${sep}`)) break;
    }
    return problem;
  };
  const refuse = (text: string | undefined) => (text ? { errors: [{ text }] } : undefined);
  const plugin: Plugin = {
    name: 'harness-evals-input-hashes',
    setup(build) {
      build.onResolve({ filter: /^(\.|\/)/ }, (args) =>
        refuse(seeDir(dirname(resolve(args.resolveDir || cwd, args.path)))),
      );
      build.onLoad({ filter: /.*/, namespace: 'file' }, (args) => {
        const loader = LOADERS[extname(args.path)];
        if (!loader) {
          // esbuild reads it itself (or refuses it): only ever a regular file, never a device.
          return isRegularOrAbsent(args.path) ? undefined : refuse(notRegular(shown(args.path)));
        }
        const problem = seeDir(dirname(args.path));
        if (problem) return refuse(problem);
        const contents = readRegularFile(args.path);
        if (contents === NOT_REGULAR) return refuse(notRegular(shown(args.path)));
        if (contents === undefined) return refuse(`${shown(args.path)} cannot be read`);
        loaded.set(args.path, sha256(contents));
        return { contents, loader };
      });
    },
  };
  return {
    plugin,
    /** The cache entry's keys, or undefined when the build cannot be vouched for. */
    entry(inputs: string[]): Pick<CachedBundle, 'inputs' | 'dirs'> | undefined {
      const hashed: CachedBundle['inputs'] = [];
      for (const path of inputs) {
        const hash = loaded.get(resolve(cwd, path));
        if (hash === undefined) return undefined; // esbuild read it itself
        hashed.push({ path, hash });
      }
      const listed = [...dirs].map(([dir, listing]) => ({ path: relative(cwd, dir), listing }));
      // A file created or removed while the build ran: the bundle may not match either state.
      if (listed.some((dir) => listingOf(resolve(cwd, dir.path)) !== dir.listing)) return undefined;
      return { inputs: hashed, dirs: listed };
    },
  };
}

const isCurrent = (cwd: string, entry: CachedBundle) =>
  entry.inputs.every((input) => hashOf(cwd, input.path) === input.hash) &&
  entry.dirs.every((dir) => listingOf(resolve(cwd, dir.path)) === dir.listing);

/**
 * Bundle a sandbox's TypeScript test with esbuild into a temp file outside the sandbox,
 * reusing an earlier bundle when every file it was built from has the same bytes and every
 * directory it looked in holds the same names (each trial has its own sandbox, but most hold
 * the same code). The bundle is named by the hash of its own bytes, which is what `hash`
 * returns: same hash, same program. A file that does not compile returns esbuild's error
 * (never cached: the message names the sandbox).
 */
export async function bundleTestFile(file: string, cwd: string): Promise<TestBundle> {
  const known = cache.get(file) ?? [];
  const hit = known.find((entry) => isCurrent(cwd, entry));
  if (hit && existsSync(hit.bundle.file)) return hit.bundle;
  let output: { contents: Uint8Array; inputs: string[] };
  const recorder = inputRecorder(resolve(cwd));
  // Loaded on first use: refund-desk evals never pay for esbuild.
  const { build, stop } = await import('esbuild');
  building += 1;
  try {
    const built = await build({
      entryPoints: [resolve(cwd, file)],
      absWorkingDir: cwd,
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      packages: 'external',
      outfile: 'test.mjs',
      write: false,
      metafile: true,
      logLevel: 'silent',
      plugins: [recorder.plugin],
    });
    output = {
      contents: built.outputFiles[0]?.contents ?? new Uint8Array(),
      inputs: Object.keys(built.metafile.inputs),
    };
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  } finally {
    building -= 1;
    // esbuild's service is a child process: stop it (and let this thread reap it) when idle,
    // so no esbuild process outlives the builds, running or defunct.
    if (building === 0) await stop();
  }
  bundleDir ??= mkdtempSync(join(processScratchDir(), 'test-bundles-'));
  const hash = sha256(output.contents);
  const bundle = { file: join(bundleDir, `${hash}.mjs`), hash };
  if (!existsSync(bundle.file)) writeFileSync(bundle.file, output.contents);
  const keys = recorder.entry(output.inputs);
  const others = known.filter((entry) => entry !== hit);
  cache.set(file, keys ? [...others, { ...keys, bundle }] : others);
  return bundle;
}
