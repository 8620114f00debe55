import { bypass, type HttpHandler, http } from 'msw';
import { tapeRequest, tapeResponse } from './http-exchange.js';
import { RECORD_SESSION_HEADER, type RecordingGuard } from './recording-guard.js';
import type { Tape } from './tape.js';

/**
 * An msw handler for `<baseURL>/*` that sends the real request upstream, hands the
 * response to the client as it arrives (a stream stays a stream: the body is teed,
 * one branch to the client, one drained into the tape) and tapes a copy.
 */
export function recordHandler(options: {
  baseURL: string;
  tape: Tape;
  guard: RecordingGuard;
}): HttpHandler {
  const basePath = new URL(options.baseURL).pathname.replace(/\/+$/, '');
  const { guard } = options;
  return http.all(`${options.baseURL}/*`, async ({ request }) => {
    // Sent around the given fetch (a client built at module level): refused, never taped.
    if (!guard.admit(request)) return Response.error();
    const taped = await tapeRequest(request.clone(), basePath);
    const entry = options.tape.begin(taped);
    const started = performance.now();
    let live: Response;
    try {
      live = await guard.upstream(() => globalThis.fetch(bypass(unmarked(request))));
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

/** The request as the agent sent it, without the recording's mark. */
function unmarked(request: Request): Request {
  const headers = new Headers(request.headers);
  headers.delete(RECORD_SESSION_HEADER);
  return new Request(request, { headers });
}
