import { describe, expect, it } from 'vitest';
import { otelTarget, otlpHeaders } from './otel-flags.js';

const FAKE_KEY = 'sk-ant-api03-FAKEheaderKEY0123456789abcdefABCDEF';

describe('otelTarget', () => {
  it('asks for nothing when no flag and no OTLP endpoint is given', () => {
    expect(otelTarget({}, {})).toBeUndefined();
  });

  it('sends to {endpoint}/v1/traces, from the flag or OTEL_EXPORTER_OTLP_ENDPOINT', () => {
    const url = (flag: string | undefined, env: NodeJS.ProcessEnv) =>
      otelTarget({ 'otel-endpoint': flag }, env)?.endpoint?.url;
    expect(url('http://127.0.0.1:4318', {})).toBe('http://127.0.0.1:4318/v1/traces');
    expect(url('http://127.0.0.1:6006/', {})).toBe('http://127.0.0.1:6006/v1/traces');
    expect(url('https://cloud.langfuse.com/api/public/otel', {})).toBe(
      'https://cloud.langfuse.com/api/public/otel/v1/traces',
    );
    expect(url('http://127.0.0.1:4318/v1/traces', {})).toBe('http://127.0.0.1:4318/v1/traces');
    expect(url(undefined, { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' })).toBe(
      'http://collector:4318/v1/traces',
    );
    // The signal's own variable is the traces URL itself.
    expect(url(undefined, { OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://c:4318/custom' })).toBe(
      'http://c:4318/custom',
    );
  });

  it('refuses a bad endpoint, --otel-content alone and gRPC, one line each naming the fix', () => {
    expect(() => otelTarget({ 'otel-endpoint': 'localhost' }, {})).toThrow(
      /^--otel-endpoint is not a URL \(\(not a URL\)\): give the collector's OTLP\/HTTP address/,
    );
    expect(() => otelTarget({ 'otel-endpoint': 'grpc://127.0.0.1:4317' }, {})).toThrow(
      '--otel-endpoint must be an http:// or https:// URL (OTLP/HTTP), not grpc:; e.g. http://127.0.0.1:4318',
    );
    expect(() => otelTarget({ otel: '' }, {})).toThrow('--otel takes a file to write the trace to');
    expect(() => otelTarget({ 'otel-content': true }, {})).toThrow(
      '--otel-content goes with --otel FILE or --otel-endpoint URL',
    );
    expect(() =>
      otelTarget(
        { 'otel-endpoint': 'http://127.0.0.1:4317' },
        { OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' },
      ),
    ).toThrow(
      "OTEL_EXPORTER_OTLP_PROTOCOL is grpc, but eval sends OTLP over HTTP: set it to http/json or http/protobuf (or unset it), and point the endpoint at the collector's HTTP port (4318)",
    );
  });

  it('sends JSON unless OTEL_EXPORTER_OTLP_PROTOCOL asks for protobuf', () => {
    const encoding = (env: NodeJS.ProcessEnv) =>
      otelTarget({ 'otel-endpoint': 'http://127.0.0.1:6006' }, env)?.endpoint?.encoding;
    expect(encoding({})).toBe('json');
    expect(encoding({ OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' })).toBe('json');
    expect(encoding({ OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf' })).toBe('protobuf');
    expect(
      encoding({
        OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc',
        OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/protobuf',
      }),
    ).toBe('protobuf');
  });

  it('writes the file without sending when only --otel is given', () => {
    const target = otelTarget({ otel: 'reports/trace.json', 'otel-content': true }, {});
    expect(target).toMatchObject({
      file: 'reports/trace.json',
      content: true,
      serviceName: 'harness-evals',
    });
    expect(target?.endpoint).toBeUndefined();
  });
});

describe('otlpHeaders', () => {
  it('reads key=value pairs, URL-decoded, the traces variable first', () => {
    expect(
      otlpHeaders({
        OTEL_EXPORTER_OTLP_HEADERS: 'Authorization=Basic%20abc123xyz, x-team = evals',
      }),
    ).toEqual({ Authorization: 'Basic abc123xyz', 'x-team': 'evals' });
    expect(
      otlpHeaders({
        OTEL_EXPORTER_OTLP_HEADERS: 'a=1',
        OTEL_EXPORTER_OTLP_TRACES_HEADERS: 'b=2',
      }),
    ).toEqual({ b: '2' });
  });

  it('names the broken entry, never its value', () => {
    const broken = () => otlpHeaders({ OTEL_EXPORTER_OTLP_HEADERS: `x=1,${FAKE_KEY}` });
    expect(broken).toThrow(
      "OTEL_EXPORTER_OTLP_HEADERS: entry 2 is not key=value (a header name, '=', its URL-encoded value); fix it or unset OTEL_EXPORTER_OTLP_HEADERS",
    );
    const undecodable = () =>
      otlpHeaders({ OTEL_EXPORTER_OTLP_HEADERS: `authorization=${FAKE_KEY}%zz` });
    expect(undecodable).toThrow(
      'OTEL_EXPORTER_OTLP_HEADERS: the value of authorization is not URL-encoded correctly; fix it',
    );
  });
});
