import { errorMessage } from '../../../core/errors.js';
import { shownUrl } from '../../../core/shown-url.js';
import { redactForReport } from '../redact.js';
import { CONTENT_TYPES, decodeAnswer, type OtlpEncoding } from './export-trace.js';

export interface SendTraceOptions {
  /** The traces URL itself (`.../v1/traces`). */
  url: string;
  /** OTEL_EXPORTER_OTLP_HEADERS: sent, never printed (only their names are). */
  headers: Readonly<Record<string, string>>;
  timeoutMs: number;
  /** OTEL_EXPORTER_OTLP_PROTOCOL: http/json (the default) or http/protobuf (Phoenix). */
  encoding: OtlpEncoding;
}

const ADVICE =
  'start a collector there, or drop --otel-endpoint (and unset OTEL_EXPORTER_OTLP_ENDPOINT)';

/** What a collector said, short and redacted: it may echo a header back. */
function said(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return redactForReport(line.length > 200 ? `${line.slice(0, 200)}...` : line);
}

/** Spans the collector took but dropped (OTLP partial success), as a problem; undefined: none. */
function partialProblem(
  bytes: Uint8Array,
  encoding: OtlpEncoding,
  where: string,
): string | undefined {
  let rejected = 0;
  let message = '';
  try {
    const { partialSuccess } = decodeAnswer(bytes, encoding);
    rejected = Number(partialSuccess?.rejectedSpans ?? 0);
    message = partialSuccess?.errorMessage ?? '';
  } catch {
    // An answer in another encoding than asked (some collectors answer JSON to protobuf).
    return undefined;
  }
  if (!(rejected > 0)) return undefined;
  return `the collector at ${where} rejected ${rejected} span${rejected === 1 ? '' : 's'}${message ? ` (${said(message)})` : ''}`;
}

/**
 * POST one OTLP/JSON export request. Returns what went wrong, in one line naming the endpoint
 * (its userinfo and query masked) and the fix; undefined when the collector took every span.
 */
export async function sendTrace(
  body: Uint8Array,
  options: SendTraceOptions,
): Promise<string | undefined> {
  const where = shownUrl(options.url);
  let response: Response;
  try {
    response = await fetch(options.url, {
      method: 'POST',
      headers: { ...options.headers, 'content-type': CONTENT_TYPES[options.encoding] },
      body,
      signal: AbortSignal.timeout(options.timeoutMs),
    });
  } catch (error) {
    // fetch says "fetch failed"; what happened is in its cause ("connect ECONNREFUSED ...").
    const cause = (error as { cause?: { message?: string } }).cause?.message;
    const why =
      (error as Error).name === 'TimeoutError'
        ? `no answer within ${options.timeoutMs} ms (OTEL_EXPORTER_OTLP_TIMEOUT)`
        : (cause ?? errorMessage(error));
    return `could not send the trace to ${where}: ${said(why)}; ${ADVICE}`;
  }
  const bytes = new Uint8Array(await response.arrayBuffer().catch(() => new ArrayBuffer(0)));
  const text = new TextDecoder().decode(bytes);
  if (!response.ok) {
    const auth =
      response.status === 401 || response.status === 403
        ? '; check the credentials in OTEL_EXPORTER_OTLP_HEADERS'
        : '';
    return `the collector at ${where} refused the trace: HTTP ${response.status}${text ? ` ${said(text)}` : ''}${auth}`;
  }
  return partialProblem(bytes, options.encoding, where);
}
