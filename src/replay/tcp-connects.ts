import { Socket } from 'node:net';

/** Looks at a TCP connect about to be made; returns an error to refuse it instead. */
export type ConnectWatcher = (target: string) => Error | undefined;

const watchers = new Set<ConnectWatcher>();
let original: Socket['connect'] | undefined;

/**
 * Calls `watcher` with `host:port` of every TCP connect this thread makes (net.connect's and a
 * bare `new Socket().connect()` alike; a Unix socket or pipe is not one) until the returned
 * release. One wrapper serves every watcher (the replay's network guard, the recording guard),
 * so they can start and stop in any order and connect is put back when the last one stops.
 * Every watcher sees the connect; if one returns an error, the socket is destroyed with it.
 */
export function watchTcpConnects(watcher: ConnectWatcher): () => void {
  // Its own entry: the same function watching twice is released twice.
  const entry: ConnectWatcher = (target) => watcher(target);
  watchers.add(entry);
  if (!original) install();
  return () => {
    if (!watchers.delete(entry) || watchers.size > 0 || !original) return;
    Socket.prototype.connect = original;
    original = undefined;
  };
}

function install(): void {
  const connect = Socket.prototype.connect;
  original = connect;
  Socket.prototype.connect = function watchedConnect(this: Socket, ...args: unknown[]) {
    const target = tcpTarget(args);
    if (target !== undefined) {
      const refusals = [...watchers].map((watch) => watch(target));
      const refusal = refusals.find((error) => error !== undefined);
      if (refusal) {
        process.nextTick(() => this.destroy(refusal));
        return this;
      }
    }
    return (connect as (...a: unknown[]) => Socket).apply(this, args);
  } as Socket['connect'];
}

/**
 * `host:port` of a TCP connect, undefined for a Unix socket or pipe. `net.connect()` passes
 * its normalized `[options, listener]` array; a direct `socket.connect()` passes
 * `(options)`, `(path)` or `(port, host)`.
 */
function tcpTarget(args: unknown[]): string | undefined {
  const first = Array.isArray(args[0]) ? args[0][0] : args[0];
  if (typeof first === 'object' && first !== null) {
    const options = first as { path?: unknown; host?: unknown; port?: unknown };
    // As net.Socket#connect decides: a non-empty `path` is a pipe (http passes `path: null`).
    if (options.path) return undefined;
    return `${String(options.host ?? 'localhost')}:${String(options.port)}`;
  }
  if (typeof first === 'string' && Number.isNaN(Number(first))) return undefined;
  const host = typeof args[1] === 'string' ? args[1] : 'localhost';
  return `${host}:${String(first)}`;
}
