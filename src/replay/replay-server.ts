import { setupServer } from 'msw/node';
import { HarnessError } from '../core/errors.js';
import type { Cassette, CassetteMeta } from './cassette.js';
import { writeCassette } from './cassette-file.js';
import { describeClients } from './client-identity.js';
import { recordHandler } from './record-handler.js';
import { createRecordingGuard, strayRequest } from './recording-guard.js';
import {
  type RecordSession,
  type ReplayOptions,
  type ReplayResult,
  type ReplaySession,
  replayCassette,
  settle,
} from './replay-session.js';
import { sessionFetch } from './session-fetch.js';
import { createTape } from './tape.js';

export {
  REPLAY_BASE_URL,
  type RecordSession,
  type ReplayOptions,
  type ReplayResult,
  type ReplaySession,
} from './replay-session.js';

/** The meta of a cassette to record; the client (sdk, sdkVersion) is read from the requests unless given. */
export type RecordMeta = Omit<CassetteMeta, 'recordedAt' | 'sdk' | 'sdkVersion' | 'host'> &
  Partial<Pick<CassetteMeta, 'recordedAt' | 'sdk' | 'sdkVersion' | 'host'>>;

export interface RecordOptions {
  file: string;
  meta: RecordMeta;
  /** Where requests really go, e.g. `https://api.anthropic.com`; the session's baseURL. */
  upstreamBaseURL: string;
  /** Values that must never reach the cassette (ANTHROPIC_API_KEY is always checked). */
  secrets?: readonly string[];
}

export interface RecordResult<T> {
  value?: T;
  /** What `run` threw, or why the cassette was not written. */
  error?: unknown;
  cassette?: Cassette;
  file?: string;
}

export interface ReplayServer {
  listen(): void;
  close(): void;
  replay<T>(
    options: ReplayOptions,
    run: (session: ReplaySession) => Promise<T>,
  ): Promise<ReplayResult<T>>;
  record<T>(
    options: RecordOptions,
    run: (session: RecordSession) => Promise<T>,
  ): Promise<RecordResult<T>>;
}

/**
 * Record and replay Messages API traffic, one cassette per trial. A replay session's
 * fetch serves its own cassette in process; a recording runs in its own
 * `server.boundary()`. Concurrent trials never see each other's exchanges.
 *
 * @example
 * const server = createReplayServer();
 * server.listen();
 * const result = await server.replay(
 *   { file, label: { task: 'T1', variant: 'upgraded', trial: 2 }, rerecordCommand },
 *   ({ fetch, baseURL }) => runAgent(new Anthropic({ apiKey: 'replay', baseURL, fetch, maxRetries: 0 })),
 * );
 * // result.problem set: stale / missing / ... trial, never a pass or a fail
 */
export function createReplayServer(): ReplayServer {
  const server = setupServer();
  let listening = false;

  const requireListening = () => {
    if (!listening) throw new HarnessError('usage', 'call listen() on the replay server first');
  };

  return {
    listen() {
      // Refused, as 'error' does; a recording trial that sent it is not recorded (recording-guard.ts).
      server.listen({
        onUnhandledRequest: (request, print) => {
          strayRequest(request);
          print.error();
        },
      });
      listening = true;
    },
    close() {
      server.close();
      listening = false;
    },

    async replay(options, run) {
      requireListening();
      return replayCassette(options, run);
    },

    async record(options, run) {
      requireListening();
      const upstream = new URL(options.upstreamBaseURL);
      const baseURL = `${upstream.origin}${upstream.pathname.replace(/\/+$/, '')}`;
      const tape = createTape();
      const guard = createRecordingGuard();
      const session: RecordSession = {
        fetch: guard.wrap(sessionFetch),
        baseURL,
        now: new Date(options.meta.now),
        exchangeLatencies: async () =>
          (await tape.exchanges()).map((exchange) => exchange.latencyMs),
      };
      const settled = await server.boundary(async () => {
        server.use(recordHandler({ baseURL, tape, guard }));
        return guard.run(() => settle(() => run(session)));
      })();
      // What the agent did around the given fetch is the fault, whatever the run made of it.
      const refused = guard.verdict();
      if (refused) return { error: refused };
      if ('error' in settled) return settled;
      const client = describeClients(guard.clients());
      const meta: CassetteMeta = {
        ...options.meta,
        recordedAt: options.meta.recordedAt ?? new Date().toISOString(),
        sdk: options.meta.sdk ?? client.sdk,
        sdkVersion: options.meta.sdkVersion ?? client.version,
        host: options.meta.host ?? upstream.host,
      };
      try {
        const cassette: Cassette = { version: 1, meta, exchanges: await tape.exchanges() };
        await writeCassette(
          options.file,
          cassette,
          options.secrets ? { secrets: options.secrets } : {},
        );
        return { ...settled, cassette, file: options.file };
      } catch (error) {
        return { ...settled, error };
      }
    },
  };
}
