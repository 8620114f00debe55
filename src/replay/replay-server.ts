import { VERSION } from '@anthropic-ai/sdk/version';
import { setupServer } from 'msw/node';
import { HarnessError } from '../core/errors.js';
import type { Cassette, CassetteMeta } from './cassette.js';
import { writeCassette } from './cassette-file.js';
import { recordHandler } from './record-handler.js';
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

export type RecordMeta = Omit<CassetteMeta, 'recordedAt' | 'sdkVersion' | 'host'> &
  Partial<Pick<CassetteMeta, 'recordedAt' | 'sdkVersion' | 'host'>>;

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
      server.listen({ onUnhandledRequest: 'error' });
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
      const meta: CassetteMeta = {
        ...options.meta,
        recordedAt: options.meta.recordedAt ?? new Date().toISOString(),
        sdkVersion: options.meta.sdkVersion ?? VERSION,
        host: options.meta.host ?? upstream.host,
      };
      const tape = createTape();
      const session: RecordSession = {
        fetch: sessionFetch,
        baseURL,
        now: new Date(meta.now),
        exchangeLatencies: async () =>
          (await tape.exchanges()).map((exchange) => exchange.latencyMs),
      };
      const settled = await server.boundary(async () => {
        server.use(recordHandler({ baseURL, tape }));
        return settle(() => run(session));
      })();
      if ('error' in settled) return settled;
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
