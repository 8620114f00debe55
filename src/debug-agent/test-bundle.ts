import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { processScratchDir } from './scratch-dir.js';

export type TestBundle = { file: string; hash: string } | { error: string };

interface CachedBundle {
  /** Every file esbuild read, relative to the sandbox root, with the hash of its bytes. */
  inputs: Array<{ path: string; hash: string }>;
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

/**
 * Bundle a sandbox's TypeScript test with esbuild into a temp file outside the sandbox,
 * reusing an earlier bundle when every file it was built from has the same bytes (each
 * trial has its own sandbox, but most hold the same code). The bundle is named by the hash
 * of its own bytes, which is what `hash` returns: same hash, same program. A file that does
 * not compile returns esbuild's error (never cached: the message names the sandbox).
 */
export async function bundleTestFile(file: string, cwd: string): Promise<TestBundle> {
  const known = cache.get(file) ?? [];
  const hit = known.find((entry) =>
    entry.inputs.every((input) => hashOf(cwd, input.path) === input.hash),
  );
  if (hit && existsSync(hit.bundle.file)) return hit.bundle;
  let output: { contents: Uint8Array; inputs: string[] };
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
  const inputs = output.inputs.map((path) => ({ path, hash: hashOf(cwd, path) ?? '' }));
  cache.set(file, [...known.filter((entry) => entry !== hit), { inputs, bundle }]);
  return bundle;
}
