import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, extname, join, relative, resolve, sep } from 'node:path';
import type { Loader, Plugin } from 'esbuild';
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

function hashOf(cwd: string, path: string): string | undefined {
  try {
    return sha256(readFileSync(resolve(cwd, path)));
  } catch {
    return undefined;
  }
}

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
    .map((name) => (CONFIG_FILES.has(name) ? `${name} ${hashOf(dir, name) ?? '-'}` : name))
    .join('\n');
}

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
  const seeDir = (dir: string) => {
    // The directory and its parents up to the sandbox root: configuration lives there too.
    for (let current = dir; !dirs.has(current); current = dirname(current)) {
      dirs.set(current, listingOf(current));
      const parent = dirname(current);
      if (current === cwd || parent === current || !current.startsWith(`${cwd}${sep}`)) break;
    }
  };
  const plugin: Plugin = {
    name: 'harness-evals-input-hashes',
    setup(build) {
      build.onResolve({ filter: /^(\.|\/)/ }, (args) => {
        seeDir(dirname(resolve(args.resolveDir || cwd, args.path)));
        return undefined;
      });
      build.onLoad({ filter: /.*/, namespace: 'file' }, (args) => {
        const loader = LOADERS[extname(args.path)];
        if (!loader) return undefined;
        seeDir(dirname(args.path));
        const contents = readFileSync(args.path);
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
