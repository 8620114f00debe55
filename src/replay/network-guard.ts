import { HarnessError } from '../core/errors.js';
import { watchTcpConnects } from './tcp-connects.js';

/**
 * While at least one replayed trial runs, this thread opens no network connection: a
 * TCP connect (http, https, a database driver, anything over `net`) fails with the
 * message, and so does the global `fetch`. (Other threads and child processes keep their
 * own `net` and `fetch`: this is a guard against mistakes, not a sandbox.) The model's calls never need the network (a
 * replay session's fetch answers in process), so whatever tries is a tool reaching the
 * outside world, which a replay must not do. Unix socket and pipe connections stay allowed,
 * and so does a connection opened before the guard (a pooled keep-alive socket, a database
 * client connected at start-up): the guard refuses new connections.
 *
 * Refcounted: each `refuseNetwork()` returns its own release, and the thread gets its
 * network back when the last one is released. Recording never calls it.
 */
export function refuseNetwork(): () => void {
  holders += 1;
  if (holders === 1) install();
  let released = false;
  return () => {
    if (released) return;
    released = true;
    holders -= 1;
    if (holders === 0) uninstall();
  };
}

/** What a refused connection throws (or emits, for a socket). */
export function networkRefused(target: string): HarnessError {
  return new HarnessError(
    'network_refused',
    `replay: something in this trial tried to reach ${target}: a tool, or an agent that does not send its model calls through the fetch it was given. A replayed trial may not use the network (the model's answers come from the cassette): give the tool a fake in evals, or pass the given fetch to the model client`,
  );
}

/**
 * The refusal behind an error, if there is one: clients wrap a failed connection (the SDK's
 * `Connection error.`, fetch's `fetch failed`), so the cause chain is searched.
 */
export function networkRefusalIn(error: unknown): HarnessError | undefined {
  let current = error;
  for (let depth = 0; depth < 8 && current instanceof Error; depth += 1) {
    if (current instanceof HarnessError && current.code === 'network_refused') return current;
    current = current.cause;
  }
  return undefined;
}

let holders = 0;
let saved: { fetch: typeof fetch; stopWatching: () => void } | undefined;

function install(): void {
  saved = { fetch: globalThis.fetch, stopWatching: watchTcpConnects(networkRefused) };
  globalThis.fetch = async (input) => {
    const url = input instanceof Request ? input.url : String(input);
    throw networkRefused(url);
  };
}

function uninstall(): void {
  if (!saved) return;
  saved.stopWatching();
  globalThis.fetch = saved.fetch;
  saved = undefined;
}
