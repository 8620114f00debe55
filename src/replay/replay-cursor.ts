import { canonicalJson } from '../core/canonical-json.js';
import type { FixtureError } from '../core/errors.js';
import type { Cassette, Exchange, TapedRequest } from './cassette.js';
import { describeDivergence, formatValue, type Normaliser } from './divergence.js';
import { fixtureProblem, type ProblemContext } from './fixture-problem.js';
import { findRequestDivergence, type RequestDivergence } from './request-divergence.js';

export type Matching = 'strict' | 'lenient';

export interface ReplayCursor {
  /** The recorded exchange that answers this request, or the problem (also kept on the cursor). */
  take(live: TapedRequest): { exchange: Exchange; index: number } | { problem: FixtureError };
  /** The first problem met, or the leftover exchanges once the run is over. */
  finish(): FixtureError | undefined;
  readonly served: number;
  readonly latenciesMs: readonly number[];
}

/**
 * Serves a cassette's exchanges. Strict: request i must equal exchange i.
 * Lenient: the first unplayed exchange with an equal key, in any order. The first
 * problem sticks: every later request gets it again.
 */
export function createReplayCursor(
  options: ProblemContext & {
    cassette: Pick<Cassette, 'exchanges'>;
    matching: Matching;
    normalisers: readonly Normaliser[];
    /** How problems name exchange `index` (default `exchanges[index]`; a judge's: its sample). */
    exchangeName?: (index: number) => string;
  },
): ReplayCursor {
  const nameOf = options.exchangeName ?? ((index: number) => `exchanges[${index}]`);
  const { exchanges } = options.cassette;
  const played = exchanges.map(() => false);
  const latenciesMs: number[] = [];
  let problem: FixtureError | undefined;

  const serve = (index: number) => {
    const exchange = exchanges[index]!;
    played[index] = true;
    latenciesMs.push(exchange.latencyMs);
    return { exchange, index };
  };

  const fail = (next: FixtureError) => {
    problem = next;
    return { problem: next };
  };

  const unplayed = () => played.flatMap((done, index) => (done ? [] : [index]));

  return {
    get served() {
      return latenciesMs.length;
    },
    latenciesMs,
    take(live) {
      if (problem) return { problem };
      const open = unplayed();
      const request = latenciesMs.length;
      if (open.length === 0) {
        const detail = `request ${request + 1} (exchanges[${request}]) has no recording: the cassette holds ${exchanges.length} exchanges (live: ${describeRequest(live)})`;
        return fail(fixtureProblem('fixture_exhausted', options, detail));
      }
      if (options.matching === 'strict') {
        const index = open[0]!;
        const divergence = findRequestDivergence(
          exchanges[index]!.request,
          live,
          options.normalisers,
        );
        if (!divergence) return serve(index);
        return fail(
          fixtureProblem('fixture_stale', options, describeStale(nameOf(index), divergence)),
        );
      }
      const differences = open.map((index) => ({
        index,
        divergence: findRequestDivergence(exchanges[index]!.request, live, options.normalisers),
      }));
      const match = differences.find(({ divergence }) => divergence === undefined);
      if (match) return serve(match.index);
      const closest = closestExchange(open, exchanges, live);
      const divergence = differences.find(({ index }) => index === closest)?.divergence;
      const detail = `request ${request + 1} matches no unplayed exchange; the closest, ${describeStale(nameOf(closest), divergence!)}`;
      return fail(fixtureProblem('fixture_stale', options, detail));
    },
    finish() {
      if (problem) return problem;
      const open = unplayed();
      if (open.length === 0) return undefined;
      const first = exchanges[open[0]!]!;
      const detail = `${listExchanges(open)} never requested (served ${latenciesMs.length} of ${exchanges.length}; first unused: ${describeRequest(first.request)})`;
      problem = fixtureProblem('fixture_leftover', options, detail);
      return problem;
    },
  };
}

/** Leftover indices named in a message: a few, then how many more (not 9,997 of them). */
const LISTED_EXCHANGES = 3;

/** `exchanges[3], exchanges[4], exchanges[5] ... and 9,994 more`. */
export function listExchanges(indices: readonly number[]): string {
  const listed = indices
    .slice(0, LISTED_EXCHANGES)
    .map((index) => `exchanges[${index}]`)
    .join(', ');
  const more = indices.length - LISTED_EXCHANGES;
  return more > 0 ? `${listed} ... and ${more.toLocaleString('en-US')} more` : listed;
}

function describeStale(name: string, divergence: RequestDivergence): string {
  return `${name} differs in ${divergence.part}${divergence.part === 'body' ? ` at ${divergence.pointer || '(root)'}` : ''}:\n${describeDivergence(divergence)}`;
}

/** `POST /v1/messages`, plus the last message, which is what usually tells two turns apart. */
function describeRequest(request: TapedRequest): string {
  const body = request.body as { messages?: unknown } | null;
  const messages = Array.isArray(body?.messages) ? body.messages : [];
  const last = messages.length > 0 ? `, last message ${formatValue(messages.at(-1))}` : '';
  return `${request.method} ${request.path}${last}`;
}

/** The unplayed exchange sharing the most top-level body fields with the live request. */
function closestExchange(
  open: readonly number[],
  exchanges: readonly Exchange[],
  live: TapedRequest,
): number {
  const score = (index: number) => {
    const recorded = exchanges[index]!.request.body;
    if (!isRecord(recorded) || !isRecord(live.body)) return 0;
    const liveBody = live.body;
    const same = (key: string) => canonicalJson(recorded[key]) === canonicalJson(liveBody[key]);
    return Object.keys(recorded).filter(same).length;
  };
  return open.reduce((best, index) => (score(index) > score(best) ? index : best));
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
