// The repository runs its CLIs from dist/, as an installed package does (no TypeScript loader
// at start-up). `ensureFreshDist()` rebuilds dist/ first when anything it is built from changed
// since the last build. Plain JavaScript: it runs before any build exists.
// `node src/cli/dist-build.mjs` builds unconditionally (npm run build); with `--if-stale`
// only when an input changed (npm pack).
import {
  closeSync,
  cpSync,
  existsSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const LOCK_WAIT_MS = 120_000;
/** A lock file holding no pid is taken over once it is this old. */
const GARBLED_LOCK_MS = 10_000;

/** What tsconfig.build.json leaves out of dist/: editing it needs no new build. */
const notBuilt = (name, isDirectory) =>
  isDirectory ? name === 'testing' : name.endsWith('.test.ts');

/**
 * The build of the project at `root` (this repository by default): src/ compiled by
 * `tsc -p tsconfig.build.json` into dist/, the HTML report's viewer bundled in, plus the debug
 * agent's sandbox template, which its code reads beside itself.
 */
export function distBuilder(
  root = fileURLToPath(new URL('../..', import.meta.url)),
  { lockWaitMs = LOCK_WAIT_MS, quiet = false } = {},
) {
  const stamp = join(root, 'dist', '.build-stamp');
  const fresh = () => existsSync(stamp) && statSync(stamp).mtimeMs >= newestInput(root);
  const withLock = (work) => withBuildLock(join(root, '.dist-build.lock'), lockWaitMs, work);
  return {
    /** Build unconditionally. */
    build: () => withLock(() => compile(root, quiet)),
    /** Build only when an input is newer than the last build; true when it built. */
    ensureFresh: () => {
      if (fresh()) return false;
      return withLock(() => {
        // Another process may have built it while this one waited for the lock.
        if (fresh()) return false;
        const started = Date.now();
        compile(root, quiet);
        if (!quiet) {
          console.error(`built dist/ from src/ in ${((Date.now() - started) / 1000).toFixed(1)} s`);
        }
        return true;
      });
    },
  };
}

/**
 * Newest modification time of the build's inputs (src/, the tsconfig files), in ms. Folders
 * count too: deleting or adding a file changes its folder's time, not any file's.
 */
function newestInput(root) {
  let newest = 0;
  const visit = (dir) => {
    newest = Math.max(newest, statSync(dir).mtimeMs);
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (notBuilt(entry.name, entry.isDirectory())) continue;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) visit(path);
      else newest = Math.max(newest, statSync(path).mtimeMs);
    }
  };
  visit(join(root, 'src'));
  for (const name of ['tsconfig.json', 'tsconfig.build.json']) {
    newest = Math.max(newest, statSync(join(root, name)).mtimeMs);
  }
  return newest;
}

/**
 * Compile into a fresh folder, then swap it in for dist/: a process that already loaded
 * dist/ keeps what it loaded, and a failed build leaves the old dist/ as it was.
 */
function compile(root, quiet) {
  const dist = join(root, 'dist');
  const started = new Date();
  const next = mkdtempSync(join(root, '.dist-'));
  try {
    runTsc(root, next, quiet);
    const sandbox = join(root, 'src/debug-agent/sandbox-project');
    if (existsSync(sandbox)) {
      cpSync(sandbox, join(next, 'debug-agent/sandbox-project'), { recursive: true });
    }
    writeViewerBundle(root, next);
    // Stamped with the build's start: a file saved while tsc ran is newer, so it builds again.
    writeFileSync(join(next, '.build-stamp'), `${started.toISOString()}\n`);
    utimesSync(join(next, '.build-stamp'), started, started);
    const old = `${next}-old`;
    if (existsSync(dist)) renameSync(dist, old);
    renameSync(next, dist);
    rmSync(old, { recursive: true, force: true });
  } finally {
    rmSync(next, { recursive: true, force: true });
  }
}

/**
 * The viewer's browser modules (src/eval/report/viewer/), bundled by esbuild: in dist/, the
 * module that bundles them when run from src/ (viewer-bundle.ts) becomes the bundle's text,
 * so the package renders the same script without esbuild.
 */
function writeViewerBundle(root, outDir) {
  const viewer = join(root, 'src/eval/report/viewer');
  if (!existsSync(viewer)) return;
  // The project's own bundler, loaded as the build runs (synchronously: require of an ES module).
  const { bundleViewer } = createRequire(import.meta.url)(join(viewer, 'bundle.mjs'));
  let script;
  try {
    script = bundleViewer(viewer);
  } catch (error) {
    throw new Error(
      `building dist/ failed: the report viewer (${viewer}) did not bundle: ${error.message}`,
    );
  }
  writeFileSync(
    join(outDir, 'eval/report/viewer-bundle.js'),
    `// Built by src/cli/dist-build.mjs from src/eval/report/viewer/.\nconst SCRIPT = ${JSON.stringify(script)};\nexport function viewerScript() {\n  return SCRIPT;\n}\n`,
  );
}

/** `tsc -p tsconfig.build.json` into `outDir`; throws when it emitted nothing. */
function runTsc(root, outDir, quiet) {
  const tsc = join(root, 'node_modules/typescript/bin/tsc');
  // quiet: tsc's output goes into the error instead of the terminal.
  // Required here, not imported: every npm script checks freshness, few builds (~5 ms).
  const { spawnSync } = createRequire(import.meta.url)('node:child_process');
  const result = spawnSync(
    process.execPath,
    [tsc, '-p', 'tsconfig.build.json', '--outDir', outDir],
    {
      cwd: root,
      stdio: ['ignore', quiet ? 'pipe' : 'inherit', quiet ? 'pipe' : 'inherit'],
    },
  );
  // Type errors still emit JavaScript, which runs as tsx would have run the sources: the
  // build goes on with a warning (npm run typecheck is the gate for types). Nothing
  // emitted (a broken tsconfig, a crash) is a failed build.
  if (result.status !== 0 && (result.status === null || readdirSync(outDir).length === 0)) {
    const output = quiet ? `\n${result.stdout}${result.stderr}`.trimEnd() : '';
    throw new Error(
      `building dist/ failed (tsc exited with ${result.status ?? result.signal} and wrote nothing): fix the errors ${quiet ? 'below' : 'above'}${output}`,
    );
  }
  if (result.status !== 0 && !quiet) {
    console.error(
      'dist/ was built despite the type errors above: it runs, but npm run typecheck (and CI) will fail until they are fixed',
    );
  }
}

/** One build at a time per project; a lock left by a process that is gone is taken over. */
function withBuildLock(lock, lockWaitMs, work) {
  const since = Date.now();
  for (;;) {
    try {
      const fd = openSync(lock, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      break;
    } catch (error) {
      if (error.code !== 'EEXIST') throw error;
      const holder = lockHolder(lock);
      if (holder === 'gone') continue;
      const pid = Number.isInteger(holder.pid) && holder.pid > 0 ? holder.pid : undefined;
      // A dead holder's lock, or one without a pid (its writer died between creating and
      // writing it) that has not changed for a while, is taken over.
      if (pid ? !alive(pid) : Date.now() - holder.since > GARBLED_LOCK_MS) {
        rmSync(lock, { force: true });
        continue;
      }
      if (Date.now() - since > lockWaitMs) {
        throw new Error(
          `${lock} has been held by process ${pid ?? '?'} for ${lockWaitMs / 1000} s: if no build is running, delete it`,
        );
      }
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 50);
    }
  }
  try {
    return work();
  } finally {
    rmSync(lock, { force: true });
  }
}

/** The lock's pid and modification time, or 'gone' when it was released meanwhile. */
function lockHolder(lock) {
  try {
    return { pid: Number(readFileSync(lock, 'utf8')), since: statSync(lock).mtimeMs };
  } catch (error) {
    if (error.code === 'ENOENT') return 'gone';
    throw error;
  }
}

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  try {
    const args = process.argv.slice(2);
    const unknown = args.filter((arg) => arg !== '--if-stale');
    if (unknown.length > 0) {
      throw new Error(
        `dist-build: unknown argument ${unknown.join(' ')}: give none (build) or --if-stale (build only when src/ changed)`,
      );
    }
    // --if-stale (npm pack): a fresh dist/ is left alone, so a pack never swaps dist/ under
    // an eval run of the same checkout that is loading it.
    if (args.includes('--if-stale')) distBuilder().ensureFresh();
    else distBuilder().build();
  } catch (error) {
    console.error(error.message);
    process.exit(1);
  }
}
