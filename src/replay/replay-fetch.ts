import type { TapedRequest } from './cassette.js';
import { requestOfInit, tapeRequest } from './http-exchange.js';

/**
 * The `fetch` a replay session hands to the SDK: it answers in process from the
 * cassette, without a network interceptor or a `Request` object per call. The
 * request is taped exactly as the msw handler tapes it, so matching is the same
 * (strict by default). Only requests under `baseURL` are served; anything else is
 * refused, like msw's `onUnhandledRequest: 'error'`.
 */
export function createReplayFetch(options: {
  baseURL: string;
  serve: (request: TapedRequest) => Response;
}): typeof fetch {
  const prefix = `${options.baseURL}/`;
  return async (input, init) => {
    init?.signal?.throwIfAborted();
    const fast = typeof input === 'string' ? requestOfInit(input, init) : undefined;
    const url = fast ? input : input instanceof Request ? input.url : String(input);
    if (!String(url).startsWith(prefix)) {
      throw new TypeError(
        `replay: no recording serves ${input instanceof Request ? input.method : (init?.method ?? 'GET')} ${String(url)}; only ${options.baseURL} is replayed`,
      );
    }
    return options.serve(fast ?? (await tapeRequest(new Request(input, init))));
  };
}
