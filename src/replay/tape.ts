import { canonicalJson } from '../core/canonical-json.js';
import type { Exchange, TapedRequest, TapedResponse } from './cassette.js';

/** What the SDK retries (408/409/429/5xx): such an answer followed by the same request is a retry. */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

export interface TapeEntry {
  /** Set as soon as the upstream status is known, before the response goes to the client. */
  setStatus(status: number): void;
  /** The response once its body has been fully drained, with the measured latency. */
  settle(outcome: Promise<{ response: TapedResponse; latencyMs: number }>): void;
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
  status: number | undefined;
  outcome: Promise<{ response: TapedResponse; latencyMs: number }> | undefined;
  retriedByNext: boolean;
}

/**
 * Collects exchanges while recording. Slots are taken in request order (streams may
 * finish draining later). A retryable answer followed by a request with the same
 * method, path and body becomes `retries` metadata on the next exchange, so a replay
 * with `maxRetries: 0` sees only the answer the SDK finally got.
 */
export function createTape(): Tape {
  const slots: Slot[] = [];
  return {
    begin(request) {
      const key = canonicalJson([request.method, request.path, request.body]);
      const previous = slots.at(-1);
      if (
        previous?.key === key &&
        previous.status !== undefined &&
        isRetryableStatus(previous.status)
      ) {
        previous.retriedByNext = true;
      }
      const slot: Slot = {
        request,
        key,
        status: undefined,
        outcome: undefined,
        retriedByNext: false,
      };
      slots.push(slot);
      return {
        setStatus: (status) => {
          slot.status = status;
        },
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
      for (const slot of slots) {
        if (!slot.outcome)
          throw new Error(`${slot.request.method} ${slot.request.path} got no response`);
        const { response, latencyMs } = await slot.outcome;
        if (slot.retriedByNext) {
          retries.push({ status: response.status, latencyMs });
          continue;
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
