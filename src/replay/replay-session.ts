import { FixtureError } from '../core/errors.js';
import type { Cassette, CassetteMeta, Exchange, TapedRequest } from './cassette.js';
import type { Normaliser } from './divergence.js';
import type { TrialLabel } from './fixture-problem.js';
import { replayResponse } from './http-exchange.js';
import { loadTrialCassette } from './load-trial-cassette.js';
import { createReplayCursor, type Matching } from './replay-cursor.js';
import { createReplayFetch } from './replay-fetch.js';

/** Base URL of every replay session; each session has its own fetch, so sessions never share a cassette. */
export const REPLAY_BASE_URL = 'http://replay.local';

export interface RecordSession {
  /** Pass to the SDK client. Recording: reads `globalThis.fetch` at call time (session-fetch.ts); replay: answers in process (replay-fetch.ts). */
  fetch: typeof fetch;
  baseURL: string;
  /** The run clock's "now" (meta.now). */
  now: Date;
  /**
   * Recording only: the latency of each exchange taped so far, a retried attempt folded into
   * the exchange that followed it (tape.ts). One per call a replay of the cassette serves.
   */
  exchangeLatencies?: () => Promise<number[]>;
}

export interface ReplaySession extends RecordSession {
  cassette: Cassette;
}

export interface ReplayOptions {
  file: string;
  label: TrialLabel;
  /** strict (default): request i must equal exchange i. lenient: any unplayed exchange with an equal request. */
  matching?: Matching;
  /**
   * The command that re-records this trial, for problem messages. A function gets the
   * cassette's meta (undefined when it is missing or unreadable), e.g. to add `--simulated`.
   */
  rerecordCommand: string | ((meta: CassetteMeta | undefined) => string);
  /** Called with each served exchange before its response goes out (advance a virtual clock here). */
  onExchange?: (exchange: Exchange, index: number) => void;
  /** Pure functions applied to both recorded and live bodies before comparing. */
  normalisers?: readonly Normaliser[];
}

export interface ReplayResult<T> {
  value?: T;
  /** What `run` threw. */
  error?: unknown;
  /** Missing, corrupt, stale, exhausted or leftover cassette: never a pass, never a fail. */
  problem?: FixtureError;
  /** Recorded latency of each served exchange, in serving order. */
  latenciesMs: number[];
  served: number;
  /** The re-record command the problem messages name. */
  rerecordCommand: string;
  /** The cassette's meta, when it could be read. */
  meta?: CassetteMeta;
}

/**
 * Replay one trial's cassette: `run` gets a session whose `fetch` answers from the cassette
 * in process (strict matching by default), and the result says whether every recorded
 * exchange was used. Needs no msw: what else the process may reach is up to the caller
 * (the eval runner refuses every network connection while it replays, network-guard.ts).
 *
 * @example
 * const result = await replayCassette(
 *   { file, label: { task: 'T1', variant: 'upgraded', trial: 2 }, rerecordCommand },
 *   ({ fetch, baseURL }) => runAgent(new Anthropic({ apiKey: 'replay', baseURL, fetch, maxRetries: 0 })),
 * );
 * // result.problem set: stale / missing / ... trial, never a pass or a fail
 */
export async function replayCassette<T>(
  options: ReplayOptions,
  run: (session: ReplaySession) => Promise<T>,
): Promise<ReplayResult<T>> {
  const command = (meta: CassetteMeta | undefined) =>
    typeof options.rerecordCommand === 'string'
      ? options.rerecordCommand
      : options.rerecordCommand(meta);
  let cassette: Cassette;
  try {
    cassette = await loadTrialCassette({
      file: options.file,
      label: options.label,
      rerecordCommand: command(undefined),
    });
  } catch (problem) {
    if (problem instanceof FixtureError) {
      return { problem, latenciesMs: [], served: 0, rerecordCommand: command(undefined) };
    }
    throw problem;
  }
  const context = {
    file: options.file,
    label: options.label,
    rerecordCommand: command(cassette.meta),
  };
  const cursor = createReplayCursor({
    ...context,
    cassette,
    matching: options.matching ?? 'strict',
    normalisers: options.normalisers ?? [],
  });
  const serve = (request: TapedRequest) => {
    const outcome = cursor.take(request);
    if ('problem' in outcome) return problemResponse(outcome.problem);
    options.onExchange?.(outcome.exchange, outcome.index);
    return replayResponse(outcome.exchange.response);
  };
  // Served in process by the session's own fetch: no interceptor, no handler per trial.
  const session = {
    fetch: createReplayFetch({ baseURL: REPLAY_BASE_URL, serve }),
    baseURL: REPLAY_BASE_URL,
    now: new Date(cassette.meta.now),
    cassette,
  };
  const settled = await settle(() => run(session));
  const problem = cursor.finish();
  return {
    ...settled,
    ...(problem ? { problem } : {}),
    latenciesMs: [...cursor.latenciesMs],
    served: cursor.served,
    rerecordCommand: context.rerecordCommand,
    meta: cassette.meta,
  };
}

export async function settle<T>(run: () => Promise<T>): Promise<{ value: T } | { error: unknown }> {
  try {
    return { value: await run() };
  } catch (error) {
    return { error };
  }
}

/** An error the SDK will not retry, so the agent run stops; the problem itself is kept out-of-band. */
function problemResponse(problem: FixtureError): Response {
  return new Response(
    JSON.stringify({
      type: 'error',
      error: { type: 'replay_fixture_error', message: problem.message },
    }),
    { status: 500, headers: { 'content-type': 'application/json', 'x-should-retry': 'false' } },
  );
}
