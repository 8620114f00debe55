import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import type {
  IAnyValue,
  IKeyValue,
} from '@opentelemetry/otlp-transformer/build/src/common/internal-types.js';
import type {
  IExportTraceServiceRequest,
  ISpan,
} from '@opentelemetry/otlp-transformer/build/src/trace/internal-types.js';
import { decodeProtobufRequest } from './otlp-protobuf.js';

/** An attribute value decoded from its OTLP AnyValue. */
export type DecodedValue = string | number | boolean | DecodedValue[];

export interface DecodedSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string | undefined;
  name: string;
  /** OTLP SpanKind: 1 internal, 3 client. */
  kind: number;
  startNs: bigint;
  endNs: bigint;
  attributes: Record<string, DecodedValue>;
  events: Array<{ name: string; timeNs: bigint; attributes: Record<string, DecodedValue> }>;
  /** 0 unset, 1 ok, 2 error. */
  status: { code: number; message?: string };
}

export interface ReceivedExport {
  path: string;
  headers: IncomingHttpHeaders;
  /** The body as sent, for what must not be in it anywhere. */
  text: string;
  resource: Record<string, DecodedValue>;
  scope: string;
  spans: DecodedSpan[];
}

/** A decoding failure: the request is not a valid OTLP/JSON ExportTraceServiceRequest. */
function fail(what: string): never {
  throw new Error(`not an OTLP/JSON ExportTraceServiceRequest: ${what}`);
}

/** One AnyValue: exactly one of its fields is set (the OTLP oneof). */
function anyValue(value: IAnyValue, key: string): DecodedValue {
  const set = Object.entries(value).filter(([, item]) => item !== undefined && item !== null);
  if (set.length !== 1) fail(`${key} sets ${set.length} value fields`);
  if (typeof value.stringValue === 'string') return value.stringValue;
  if (typeof value.boolValue === 'boolean') return value.boolValue;
  if (value.intValue !== undefined && value.intValue !== null) {
    const int = Number(value.intValue);
    if (!Number.isSafeInteger(int)) fail(`${key} intValue ${String(value.intValue)}`);
    return int;
  }
  if (typeof value.doubleValue === 'number') return value.doubleValue;
  if (value.arrayValue) return value.arrayValue.values.map((item) => anyValue(item, key));
  return fail(`${key} holds an unexpected value kind`);
}

function attributesOf(list: IKeyValue[] | undefined): Record<string, DecodedValue> {
  const decoded: Record<string, DecodedValue> = {};
  for (const { key, value } of list ?? []) {
    if (key in decoded) fail(`attribute ${key} appears twice`);
    decoded[key] = anyValue(value, key);
  }
  return decoded;
}

function hex(value: unknown, length: number, what: string): string {
  if (typeof value !== 'string' || !new RegExp(`^[0-9a-f]{${length}}$`).test(value)) {
    fail(`${what} ${String(value)} is not ${length} hex digits`);
  }
  return value;
}

function nanos(value: unknown, what: string): bigint {
  if (!/^\d+$/.test(String(value))) fail(`${what} ${String(value)} is not a count of nanoseconds`);
  return BigInt(String(value));
}

function decodeSpan(span: ISpan): DecodedSpan {
  return {
    traceId: hex(span.traceId, 32, 'traceId'),
    spanId: hex(span.spanId, 16, 'spanId'),
    parentSpanId: span.parentSpanId ? hex(span.parentSpanId, 16, 'parentSpanId') : undefined,
    name: span.name,
    kind: span.kind,
    startNs: nanos(span.startTimeUnixNano, 'startTimeUnixNano'),
    endNs: nanos(span.endTimeUnixNano, 'endTimeUnixNano'),
    attributes: attributesOf(span.attributes),
    events: span.events.map((event) => ({
      name: event.name,
      timeNs: nanos(event.timeUnixNano, 'event timeUnixNano'),
      attributes: attributesOf(event.attributes),
    })),
    status: {
      code: span.status.code,
      ...(span.status.message !== undefined && { message: span.status.message }),
    },
  };
}

/** Decode an export request (JSON text) with the otlp-transformer's request types. */
export function decodeExport(text: string): Omit<ReceivedExport, 'path' | 'headers'> {
  return decodeRequest(JSON.parse(text) as IExportTraceServiceRequest, text);
}

/** Decode an export request in protobuf (its strings stay readable in `text`). */
export function decodeProtobufExport(bytes: Uint8Array): Omit<ReceivedExport, 'path' | 'headers'> {
  return decodeRequest(decodeProtobufRequest(bytes), Buffer.from(bytes).toString('utf8'));
}

/** Decode an export request in either encoding, by its content type. */
function decodeBody(body: Buffer, contentType: string | undefined) {
  if (contentType === 'application/json') return decodeExport(body.toString('utf8'));
  if (contentType === 'application/x-protobuf') return decodeProtobufExport(body);
  return undefined;
}

function decodeRequest(
  request: IExportTraceServiceRequest,
  text: string,
): Omit<ReceivedExport, 'path' | 'headers'> {
  const [resourceSpans, ...more] = request.resourceSpans ?? [];
  if (!resourceSpans || more.length > 0) fail('expected exactly one resourceSpans');
  const [scopeSpans, ...others] = resourceSpans.scopeSpans;
  if (!scopeSpans || others.length > 0) fail('expected exactly one scopeSpans');
  return {
    text,
    resource: attributesOf(resourceSpans.resource?.attributes),
    scope: scopeSpans.scope?.name ?? fail('the scope has no name'),
    spans: (scopeSpans.spans ?? []).map(decodeSpan),
  };
}

/**
 * Test double: an OTLP/HTTP collector on 127.0.0.1 that decodes every `POST /v1/traces`
 * (JSON or protobuf, by its content type) and answers 200, or `status` when given one (a refusing collector).
 */
export async function startOtlpReceiver(options: { status?: number } = {}) {
  const received: ReceivedExport[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks);
      if (options.status) {
        response.writeHead(options.status, { 'content-type': 'application/json' });
        response.end('{"code":16,"message":"missing credentials"}');
        return;
      }
      const decoded =
        request.url === '/v1/traces'
          ? decodeBody(body, request.headers['content-type'])
          : undefined;
      const ok = decoded !== undefined;
      if (ok) received.push({ path: request.url ?? '', headers: request.headers, ...decoded });
      response.writeHead(ok ? 200 : 415, { 'content-type': 'application/json' });
      response.end(ok ? '{"partialSuccess":{}}' : '{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
