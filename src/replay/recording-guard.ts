import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import { subscribe } from 'node:diagnostics_channel';
import { HarnessError } from '../core/errors.js';
import { shownUrl } from '../core/shown-url.js';
import { type ClientIdentity, clientOf } from './client-identity.js';
import { watchTcpConnects } from './tcp-connects.js';

/** Marks a request as sent through a recording's own fetch; stripped before it goes upstream, never taped. */
export const RECORD_SESSION_HEADER = 'x-harness-record-session';

/**
 * What one recorded trial sent: through the fetch it was given (counted, its clients named),
 * or around it (each way is a violation, and the trial is not recorded).
 */
export interface RecordingGuard {
  /** The given fetch: every request it sends carries this trial's mark. */
  wrap(fetch: typeof globalThis.fetch): typeof globalThis.fetch;
  /** The record handler's check of a request it received: true when it came through the given fetch. */
  admit(request: Request): boolean;
  /** Runs the trial: network use from inside it, around the given fetch, is seen. */
  run<T>(trial: () => Promise<T>): Promise<T>;
  /** Runs the recorder's own request upstream, which is not the agent's. */
  upstream<T>(send: () => Promise<T>): Promise<T>;
  /** Why the trial may not be recorded, else undefined. */
  verdict(): HarnessError | undefined;
  /** The clients the trial's requests named (user-agent). */
  clients(): ClientIdentity[];
}

const trialGuard = new AsyncLocalStorage<Guard>();
const upstreamCall = new AsyncLocalStorage<true>();
let subscribed = false;

interface Guard extends RecordingGuard {
  around(what: string): void;
}

/**
 * A guard for one recorded trial. A client built at module level does not get the given fetch:
 * it captured `fetch` before recording started (its requests never reach msw) or reads
 * `globalThis.fetch` at call time (msw sees them, unmarked). Both are seen and refused as
 * the trial's fault: undici's `undici:request:create` channel sees every request Node's fetch
 * sends, in the async context of the code that sent it. So are, in the trial's async context,
 * a TCP connection (`net.Socket#connect`: node:http, a raw socket, a database driver) and a
 * worker thread started (Node's `worker_threads` channel), whose network this thread cannot
 * see. Not seen: a child process, and code running in a context begun before the trial (a
 * queue a module started when it loaded); an agent that makes all its model calls there is
 * refused because none came through the given fetch (docs/providers.md).
 */
export function createRecordingGuard(): RecordingGuard {
  watchUndici();
  const mark = randomUUID();
  let through = 0;
  const around: string[] = [];
  const clients: ClientIdentity[] = [];
  const guard: Guard = {
    wrap: (fetch) => (input, init) => {
      const headers = new Headers(init?.headers ?? (input instanceof Request ? input.headers : {}));
      headers.set(RECORD_SESSION_HEADER, mark);
      return fetch(input, { ...init, headers });
    },
    admit(request) {
      if (request.headers.get(RECORD_SESSION_HEADER) !== mark) {
        guard.around(`sent ${request.method} ${shownUrl(request.url)}`);
        return false;
      }
      through += 1;
      const client = clientOf(request.headers.get('user-agent'));
      if (client) clients.push(client);
      return true;
    },
    run: async (trial) => {
      // Only looks: the connection is made as asked, and refused by nothing but a replay.
      const release = watchTcpConnects((target) => {
        // Each trial's watcher notes only the connects made in its own context.
        if (agentGuard() === guard) guard.around(`opened a TCP connection to ${target}`);
        return undefined;
      });
      try {
        return await trialGuard.run(guard, trial);
      } finally {
        release();
      }
    },
    upstream: (send) => upstreamCall.run(true, send),
    around(what) {
      if (around.length < 5) around.push(what);
    },
    verdict() {
      if (around.length > 0) {
        return new HarnessError(
          'recording_bypassed',
          `recording refused: the agent ${around[0]} around the given fetch${around.length > 1 ? ` (and ${around.length - 1} more)` : ''}; ${FIX}`,
        );
      }
      if (through === 0) {
        return new HarnessError(
          'recording_bypassed',
          `recording refused: the agent made no model request through the given fetch; ${FIX}`,
        );
      }
      return undefined;
    },
    clients: () => [...clients],
  };
  return guard;
}

const FIX =
  'pass the given fetch to your client (fetch: context.fetch, baseURL: context.baseURL, built inside run(context), not at module level); a tool that needs the network gets a fake in evals';

/** A request msw did not record while a trial recorded (it answers it with an error). */
export function strayRequest(request: Request): void {
  trialGuard.getStore()?.around(`sent ${request.method} ${shownUrl(request.url)}`);
}

/** The guard of the trial running here, unless this is the recorder's own upstream request. */
const agentGuard = (): Guard | undefined =>
  upstreamCall.getStore() ? undefined : trialGuard.getStore();

function watchUndici(): void {
  if (subscribed) return;
  subscribed = true;
  subscribe('undici:request:create', (message) => {
    const request = (
      message as { request?: { method?: unknown; origin?: unknown; path?: unknown } }
    ).request;
    agentGuard()?.around(
      `sent ${String(request?.method)} ${shownUrl(`${String(request?.origin)}${String(request?.path)}`)}`,
    );
  });
  subscribe('worker_threads', () => agentGuard()?.around('started a worker thread'));
}
