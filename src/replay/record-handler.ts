import { bypass, type HttpHandler, http } from 'msw';
import type { TapedRequest } from './cassette.js';
import { tapeRequest, tapeResponse } from './http-exchange.js';
import { RECORD_SESSION_HEADER, type RecordingGuard } from './recording-guard.js';
import type { Tape, TapeEntry } from './tape.js';

/**
 * The most of one answer a recording keeps: far above any model answer (a 128k-token stream is
 * about 20 MiB of SSE), far below what would take the recorder down (a 100 MB body made a
 * 105 MB cassette and 1.1 GB of memory).
 */
export const MAX_RECORDED_BODY_BYTES = 32 * 1024 * 1024;

/** An answer past MAX_RECORDED_BODY_BYTES: the recording fails, naming it. */
class BodyTooLargeError extends Error {}

/**
 * An msw handler for `<baseURL>/*` that sends the real request upstream, hands the
 * response to the client as it arrives (a stream stays a stream: the body is teed,
 * one branch to the client, one drained into the tape) and tapes a copy. A redirect is not
 * followed, and a body past MAX_RECORDED_BODY_BYTES is cut: either fails the recording.
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
      // Followed, a redirect to another host would get the key, and its answer would be taped
      // under this host.
      live = await guard.upstream(() =>
        globalThis.fetch(bypass(unmarked(request)), { redirect: 'manual' }),
      );
    } catch (error) {
      entry.settle(Promise.reject(error));
      return Response.error();
    }
    const refused = refusedRedirect(live, request, taped, entry);
    if (refused) return refused;
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
    const [toClient, toTape] = capped(live.body, `${taped.method} ${taped.path}`).tee();
    // A body cut off upstream is taped as cut: the tape folds it when the client retried, else fails.
    entry.settle(
      new Response(toTape)
        .text()
        .then(measured, (cut: unknown) =>
          cut instanceof BodyTooLargeError ? Promise.reject(cut) : { ...measured(''), cut },
        ),
    );
    return new Response(toClient, init);
  });
}

/**
 * A redirect from upstream: the recording fails naming where it led (its origin, never its
 * path or query), and the client gets an error it does not retry, saying so. Undefined when
 * the answer is no redirect.
 */
function refusedRedirect(
  live: Response,
  request: Request,
  taped: TapedRequest,
  entry: TapeEntry,
): Response | undefined {
  const location = live.headers.get('location');
  if (live.status < 300 || live.status >= 400 || location === null) return undefined;
  const message = `the API at ${new URL(request.url).host} answered ${taped.method} ${taped.path} with a redirect (${live.status}) to ${redirectTarget(location, request.url)}: recording follows no redirect (the key would go there, and its answer would be recorded under this host); set the base URL to where it leads`;
  // Not awaited: cancelling the body of a redirect can wait for good.
  live.body?.cancel().catch(() => {});
  entry.settle(Promise.reject(new Error(message)));
  const body = { type: 'error', error: { type: 'invalid_request_error', message } };
  return new Response(JSON.stringify(body), {
    status: 400,
    headers: { 'content-type': 'application/json', 'x-should-retry': 'false' },
  });
}

/** Where a redirect leads, as much as is safe to print: its origin (no path, no query). */
function redirectTarget(location: string, base: string): string {
  try {
    return new URL(location, base).origin;
  } catch {
    return 'an address that does not parse';
  }
}

/** The body, cut with BodyTooLargeError once past MAX_RECORDED_BODY_BYTES (the client's copy too). */
function capped(body: ReadableStream<Uint8Array>, where: string): ReadableStream<Uint8Array> {
  let bytes = 0;
  return body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        bytes += chunk.byteLength;
        if (bytes <= MAX_RECORDED_BODY_BYTES) return controller.enqueue(chunk);
        controller.error(
          new BodyTooLargeError(
            `the answer to ${where} is larger than ${MAX_RECORDED_BODY_BYTES / 1024 / 1024} MiB, more than a recording keeps: it was cut, and nothing is recorded`,
          ),
        );
      },
    }),
  );
}

/** The request as the agent sent it, without the recording's mark. */
function unmarked(request: Request): Request {
  const headers = new Headers(request.headers);
  headers.delete(RECORD_SESSION_HEADER);
  return new Request(request, { headers });
}
