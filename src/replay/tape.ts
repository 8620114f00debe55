import { canonicalJson } from '../core/canonical-json.js';
import { isRetriedAnswer, modelApiOf } from '../model-api/retryable-answer.js';
import type { Exchange, TapedRequest, TapedResponse } from './cassette.js';
import { asksForStream } from './http-exchange.js';

/** One upstream answer once its body has been drained (or cut off: `cut` holds why). */
export interface TapeOutcome {
  response: TapedResponse;
  latencyMs: number;
  cut?: unknown;
  /** The upstream's `x-should-retry` header: the client retries (or not) as it says. */
  shouldRetry?: string | null;
}

export interface TapeEntry {
  /** The response once its body has been fully drained, with the measured latency. */
  settle(outcome: Promise<TapeOutcome>): void;
}

export interface Tape {
  /** Call when a request arrives, in arrival order. */
  begin(request: TapedRequest): TapeEntry;
  /** Every exchange in request order, retries folded into the exchange that followed them. */
  exchanges(): Promise<Exchange[]>;
}

interface Slot {
  request: TapedRequest;
  key: string;
  outcome: Promise<TapeOutcome> | undefined;
}

/**
 * Collects exchanges while recording. Slots are taken in request order (streams may
 * finish draining later). An answer the client retries (model-api/retryable-answer.ts, the
 * same rule the retry layer follows) that is followed by a request with the same method,
 * path and body becomes `retries` metadata on the next exchange, so a replay with
 * `maxRetries: 0` sees only the answer the client finally got.
 */
export function createTape(): Tape {
  const slots: Slot[] = [];
  return {
    begin(request) {
      const slot: Slot = {
        request,
        key: canonicalJson([request.method, request.path, request.body]),
        outcome: undefined,
      };
      slots.push(slot);
      return {
        settle: (outcome) => {
          slot.outcome = outcome;
          // Rejections are reported by exchanges(); don't let them go unhandled meanwhile.
          outcome.catch(() => {});
        },
      };
    },
    async exchanges() {
      const exchanges: Exchange[] = [];
      let retries: NonNullable<Exchange['retries']> = [];
      for (const [index, slot] of slots.entries()) {
        const { method, path } = slot.request;
        if (!slot.outcome) throw new Error(`${method} ${path} got no response`);
        const outcome = await slot.outcome;
        const { response, latencyMs, cut } = outcome;
        if (slots[index + 1]?.key === slot.key && retried(slot, outcome)) {
          retries.push({ status: response.status, latencyMs });
          continue;
        }
        if (cut !== undefined) {
          const reason = cut instanceof Error ? cut.message : String(cut);
          throw new Error(
            `the response to ${method} ${path} was cut before it was complete (${reason})`,
          );
        }
        // A broken stream or malformed 2xx is never an exchange: a replay would serve it as an answer.
        if (response.status >= 200 && response.status < 300 && retried(slot, outcome)) {
          throw new Error(
            `the response to ${method} ${path} is not a complete answer (the client retries it), and no retry followed it: nothing to record`,
          );
        }
        const exchange: Exchange = { request: slot.request, response, latencyMs };
        if (retries.length > 0) exchange.retries = retries;
        exchanges.push(exchange);
        retries = [];
      }
      return exchanges;
    },
  };
}

function retried(slot: Slot, { response, cut, shouldRetry }: TapeOutcome): boolean {
  return isRetriedAnswer({
    status: response.status,
    shouldRetry: shouldRetry ?? null,
    api: modelApiOf(slot.request.method, slot.request.path),
    cut: cut !== undefined,
    stream: asksForStream(slot.request),
    ...('events' in response ? { events: response.events } : { body: response.body }),
  });
}
