import { bypass, type HttpHandler, http } from 'msw';
import { tapeRequest, tapeResponse } from './http-exchange.js';
import type { Tape } from './tape.js';

/**
 * An msw handler for `<baseURL>/*` that sends the real request upstream, hands the
 * response to the client as it arrives (a stream stays a stream: the body is teed,
 * one branch to the client, one drained into the tape) and tapes a copy.
 */
export function recordHandler(options: { baseURL: string; tape: Tape }): HttpHandler {
  const basePath = new URL(options.baseURL).pathname.replace(/\/+$/, '');
  return http.all(`${options.baseURL}/*`, async ({ request }) => {
    // bypass() refuses a request whose body was read, so tape a clone.
    const taped = await tapeRequest(request.clone(), basePath);
    const entry = options.tape.begin(taped);
    const started = performance.now();
    let live: Response;
    try {
      live = await globalThis.fetch(bypass(request));
    } catch (error) {
      entry.settle(Promise.reject(error));
      return Response.error();
    }
    const measured = (text: string) => ({
      response: tapeResponse(live.status, live.headers, text, taped),
      latencyMs: Math.round(performance.now() - started),
      shouldRetry: live.headers.get('x-should-retry'),
    });
    // fetch already decoded the body; keeping these would make the client decode it again.
    const headers = new Headers(live.headers);
    headers.delete('content-encoding');
    headers.delete('content-length');
    const init = { status: live.status, statusText: live.statusText, headers };
    if (!live.body) {
      entry.settle(Promise.resolve(measured('')));
      return new Response(null, init);
    }
    const [toClient, toTape] = live.body.tee();
    // A body cut off upstream is taped as cut: the tape folds it when the client retried, else fails.
    entry.settle(
      new Response(toTape).text().then(measured, (cut: unknown) => ({ ...measured(''), cut })),
    );
    return new Response(toClient, init);
  });
}
