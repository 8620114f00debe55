import type Anthropic from '@anthropic-ai/sdk';
import { createRealClock } from '../../core/clock.js';
import {
  type ConcurrencyLimit,
  createConcurrencyLimit,
} from '../../model-api/concurrency-limit.js';
import { refuseNetwork } from '../../replay/network-guard.js';
import type { ReplayServer } from '../../replay/replay-server.js';
import {
  REPLAY_BASE_URL,
  type ReplayOptions,
  type ReplayResult,
  type ReplaySession,
  replayCassette,
} from '../../replay/replay-session.js';

let server: Promise<ReplayServer> | undefined;
let replayClient: Anthropic | undefined;
const sessions = new Map<string, typeof fetch>();
let nextSession = 0;
const SESSION_HEADER = 'x-harness-replay-session';
let liveLimit: ConcurrencyLimit | undefined;

/**
 * Recording only: one msw server per worker, listening from first use (its
 * `onUnhandledRequest: 'error'` refuses what a tool sends elsewhere). Loaded on demand,
 * so a replay never loads msw.
 */
export function sharedRecordServer(): Promise<ReplayServer> {
  server ??= import('../../replay/replay-server.js').then(({ createReplayServer }) => {
    const created = createReplayServer();
    created.listen();
    return created;
  });
  return server;
}

/** Replay one trial's cassette with the network refused while it runs (network-guard.ts). */
export async function replayRefusingNetwork<T>(
  options: ReplayOptions,
  run: (session: ReplaySession) => Promise<T>,
): Promise<ReplayResult<T>> {
  const release = refuseNetwork();
  try {
    return await replayCassette(options, run);
  } finally {
    release();
  }
}

/**
 * One limit for every trial of a live recording in this worker: at most `max`
 * model calls in flight, and a 429 pauses all of them instead of failing each.
 */
export function sharedLiveLimit(max: number): ConcurrencyLimit {
  liveLimit ??= createConcurrencyLimit({ max, clock: createRealClock() });
  return liveLimit;
}

/**
 * One SDK client for every replayed trial of this worker (building one costs more than a
 * replayed model call). Each trial's requests carry its session id in a header that is
 * never taped or compared, and go to that trial's own fetch, so trials never share a
 * cassette. Call the returned `release` when the trial is over. The SDK is loaded here, by the
 * first trial that calls the model, not when the package is imported.
 */
export async function replayClientFor(fetch: typeof globalThis.fetch): Promise<{
  client: Anthropic;
  headers: Record<string, string>;
  release: () => void;
}> {
  const { default: Anthropic } = await import('@anthropic-ai/sdk');
  replayClient ??= new Anthropic({
    apiKey: 'replay-without-key',
    baseURL: REPLAY_BASE_URL,
    maxRetries: 0,
    fetch: (input, init) => {
      const raw = init?.headers;
      const id = (raw instanceof Headers ? raw : new Headers(raw)).get(SESSION_HEADER);
      const session = id === null ? undefined : sessions.get(id);
      if (!session) {
        return Promise.reject(new TypeError(`replay: no open session '${id}' for this request`));
      }
      return session(input, init);
    },
  });
  nextSession += 1;
  const id = String(nextSession);
  sessions.set(id, fetch);
  return {
    client: replayClient,
    headers: { [SESSION_HEADER]: id },
    release: () => sessions.delete(id),
  };
}
