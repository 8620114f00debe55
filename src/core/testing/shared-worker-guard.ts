import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import tls from 'node:tls';
import { afterAll } from 'vitest';

/**
 * Setup file of the unit tests' `shared` project, whose files run one after another in a
 * worker that keeps its globals and loaded modules (vitest's `isolate: false`). A file that
 * leaves a global changed (a patched `fetch` or socket, an msw server left listening, an env
 * variable, a signal listener, fake timers) would change what the next file sees, and that
 * file would fail, or pass, for a reason that is not its own. So each file's globals are
 * compared before it loads (this setup file runs again before each test file) and after its
 * tests, and a file that leaves one changed fails, naming what it changed and the fix.
 * What it cannot see: state inside modules (a module-level cache or registry that two files
 * share), and properties of global objects it does not list below. Shuffled runs
 * (`npx vitest run --sequence.shuffle`) find what it misses.
 */

/** The names this guard watches, each with how to read its current value. */
const watched: Record<string, () => unknown> = {
  'http.request': () => http.request,
  'http.get': () => http.get,
  'http.ClientRequest': () => http.ClientRequest,
  'https.request': () => https.request,
  'https.get': () => https.get,
  'net.connect': () => net.connect,
  'net.createConnection': () => net.createConnection,
  'net.Socket.prototype.connect': () => net.Socket.prototype.connect,
  'tls.connect': () => tls.connect,
  'Date.now': () => Date.now,
  'Math.random': () => Math.random,
  'console.log': () => console.log,
  'console.info': () => console.info,
  'console.warn': () => console.warn,
  'console.error': () => console.error,
  'console.debug': () => console.debug,
  'process.stdout.write': () => process.stdout.write,
  'process.stderr.write': () => process.stderr.write,
  'process.exit': () => process.exit,
  'Error.prepareStackTrace': () => Error.prepareStackTrace,
  'Error.stackTraceLimit': () => Error.stackTraceLimit,
  'process.cwd()': () => process.cwd(),
  'process.exitCode': () => process.exitCode,
  'process.umask()': () => process.umask(),
  'process.env': () => JSON.stringify(Object.entries(process.env).sort()),
};

const events = [
  'SIGINT',
  'SIGTERM',
  'SIGHUP',
  'exit',
  'beforeExit',
  'uncaughtException',
  'unhandledRejection',
  'warning',
] as const;
for (const event of events)
  watched[`process '${event}' listeners`] = () => process.listenerCount(event);

/**
 * Every own property of globalThis, by name, symbols included (msw and undici keep state
 * there). Read through its getter: Node defines `fetch`, `Headers` and the like lazily and
 * replaces the getter with the value on first use, which is no change.
 */
function globals(): Map<string | symbol, unknown> {
  const values = new Map<string | symbol, unknown>();
  for (const key of Reflect.ownKeys(globalThis)) {
    try {
      values.set(key, Reflect.get(globalThis, key));
    } catch (error) {
      values.set(key, error);
    }
  }
  return values;
}

/** vitest's own state on globalThis, which it changes between files and tests itself. */
const VITEST_OWN = /^__vitest|^__VITEST|^__vi_|^Symbol\(\$\$jest-matchers-object\)$/;
/**
 * Set once on first use and the same from then on, which is no change: Node's fetch agent
 * (on the first `fetch`), zod's global config and registry (when zod first loads) and
 * signal-exit's emitter (when vite, under a test that starts vitest, first loads it).
 */
const SET_ON_FIRST_USE = new Set([
  'Symbol(undici.globalDispatcher.1)',
  '__zod_globalConfig',
  '__zod_globalRegistry',
  'Symbol(signal-exit emitter)',
]);

/** This file runs again before each test file: what the globals were before that file loaded. */
let before: { named: Map<string, unknown>; globals: Map<string | symbol, unknown> } | undefined = {
  named: new Map(Object.entries(watched).map(([name, read]) => [name, read()])),
  globals: globals(),
};

afterAll(() => {
  if (before === undefined) return;
  const changed: string[] = [];
  for (const [name, read] of Object.entries(watched)) {
    if (!Object.is(read(), before.named.get(name))) changed.push(name);
  }
  const now = globals();
  for (const key of new Set([...before.globals.keys(), ...now.keys()])) {
    const name = typeof key === 'symbol' ? key.toString() : key;
    if (VITEST_OWN.test(name)) continue;
    if (SET_ON_FIRST_USE.has(name) && before.globals.get(key) === undefined) continue;
    if (!Object.is(now.get(key), before.globals.get(key))) changed.push(`globalThis[${name}]`);
  }
  before = undefined;
  if (changed.length > 0) {
    throw new Error(
      `this test file left globals changed, which the next file in its shared worker would see: ${changed.join(', ')}. Restore them in afterEach/afterAll (close msw servers, vi.unstubAllGlobals(), vi.useRealTimers(), remove listeners), or, if the file must change them, list it in src/core/testing/isolated-test-files.ts`,
    );
  }
});
