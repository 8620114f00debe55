import { ConfigError } from '../core/errors.js';
import { maskSecretValue } from '../core/secret-values.js';
import { shownUrl } from '../core/shown-url.js';

/** Where a run's trace goes (the exporter's own type; the module itself loads only to export). */
export type OtelTarget = import('../eval/report/otel/export-run.js').OtelTarget;

import type { EvalReport } from '../eval/report/report-schema.js';
import { formatShard, type Shard } from '../eval/spec/shard.js';
import type { TrialRecord } from '../eval/spec/trial-record.js';
import { nonEmpty, positiveInteger } from './args.js';
import { terminalLine } from './terminal-text.js';

/** `eval --otel FILE`, `--otel-endpoint URL`, `--otel-content` (docs/observability.md). */
export const OTEL_FLAGS = {
  otel: { type: 'string' },
  'otel-endpoint': { type: 'string' },
  'otel-content': { type: 'boolean' },
} as const;

export const OTEL_USAGE =
  '       npm run eval -- [...] [--otel FILE] [--otel-endpoint URL] [--otel-content]   (a trace: docs/observability.md)';

const TRACES_PATH = '/v1/traces';

/** An http(s) URL, or a one-line error naming where it came from. */
function checkedUrl(value: string, from: string): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigError(
      `${from} is not a URL (${shownUrl(value)}): give the collector's OTLP/HTTP address, e.g. http://127.0.0.1:4318`,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigError(
      `${from} must be an http:// or https:// URL (OTLP/HTTP), not ${url.protocol}; e.g. http://127.0.0.1:4318`,
    );
  }
  return url;
}

/** A base endpoint gets /v1/traces, as the OTLP exporters do; a URL already ending so is kept. */
function tracesUrl(value: string, from: string): string {
  const url = checkedUrl(value, from);
  if (!url.pathname.endsWith(TRACES_PATH)) {
    url.pathname = `${url.pathname.replace(/\/+$/, '')}${TRACES_PATH}`;
  }
  return url.toString();
}

function endpointUrl(flag: string | undefined, env: NodeJS.ProcessEnv): string | undefined {
  if (flag !== undefined) return tracesUrl(flag, '--otel-endpoint');
  const traces = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT;
  // The signal's own endpoint is used as it is (the OTLP exporter specification).
  if (traces) return checkedUrl(traces, 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT').toString();
  const base = env.OTEL_EXPORTER_OTLP_ENDPOINT;
  return base ? tracesUrl(base, 'OTEL_EXPORTER_OTLP_ENDPOINT') : undefined;
}

/**
 * OTEL_EXPORTER_OTLP_PROTOCOL (or the traces one): http/json, the default here, or
 * http/protobuf (Phoenix takes only that over HTTP). gRPC is not spoken: one line naming the fix.
 */
function encodingOf(env: NodeJS.ProcessEnv): 'json' | 'protobuf' {
  const name = env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL
    ? 'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL'
    : 'OTEL_EXPORTER_OTLP_PROTOCOL';
  const protocol = env[name] || 'http/json';
  if (protocol === 'http/json') return 'json';
  if (protocol === 'http/protobuf') return 'protobuf';
  throw new ConfigError(
    `${name} is ${protocol}, but eval sends OTLP over HTTP: set it to http/json or http/protobuf (or unset it), and point the endpoint at the collector's HTTP port (4318)`,
  );
}

/**
 * OTEL_EXPORTER_OTLP_HEADERS (`key=value,key2=value2`, values URL-encoded): each value is masked
 * wherever text is redacted from now on, and no message quotes one.
 */
export function otlpHeaders(env: NodeJS.ProcessEnv): Record<string, string> {
  const name = env.OTEL_EXPORTER_OTLP_TRACES_HEADERS
    ? 'OTEL_EXPORTER_OTLP_TRACES_HEADERS'
    : 'OTEL_EXPORTER_OTLP_HEADERS';
  const text = env[name] ?? '';
  const headers: Record<string, string> = {};
  for (const [index, entry] of text.split(',').entries()) {
    if (entry.trim() === '') continue;
    const at = entry.indexOf('=');
    const key = at > 0 ? entry.slice(0, at).trim() : '';
    if (!/^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/.test(key)) {
      throw new ConfigError(
        `${name}: entry ${index + 1} is not key=value (a header name, '=', its URL-encoded value); fix it or unset ${name}`,
      );
    }
    let value: string;
    try {
      value = decodeURIComponent(entry.slice(at + 1).trim());
    } catch {
      throw new ConfigError(`${name}: the value of ${key} is not URL-encoded correctly; fix it`);
    }
    maskSecretValue(value, name);
    headers[key] = value;
  }
  return headers;
}

/**
 * Where the run's trace goes, checked before the run starts; undefined when nothing asks for
 * one (no --otel, no --otel-endpoint, no OTLP endpoint in the environment).
 */
export function otelTarget(
  values: {
    otel?: string | undefined;
    'otel-endpoint'?: string | undefined;
    'otel-content'?: boolean | undefined;
  },
  env: NodeJS.ProcessEnv,
): OtelTarget | undefined {
  nonEmpty(
    '--otel',
    values.otel,
    'a file to write the trace to (e.g. --otel reports/trace.otlp.json)',
  );
  nonEmpty(
    '--otel-endpoint',
    values['otel-endpoint'],
    'a collector URL (e.g. http://127.0.0.1:4318)',
  );
  const url = endpointUrl(values['otel-endpoint'], env);
  if (values.otel === undefined && url === undefined) {
    if (values['otel-content']) {
      throw new ConfigError(
        '--otel-content goes with --otel FILE or --otel-endpoint URL (it adds prompts and answers to the trace)',
      );
    }
    return undefined;
  }
  const timeoutMs = positiveInteger(
    'OTEL_EXPORTER_OTLP_TIMEOUT',
    env.OTEL_EXPORTER_OTLP_TIMEOUT || undefined,
    10_000,
    600_000,
  );
  return {
    ...(values.otel !== undefined && { file: values.otel }),
    ...(url !== undefined && {
      endpoint: { url, headers: otlpHeaders(env), timeoutMs, encoding: encodingOf(env) },
    }),
    content: values['otel-content'] === true,
    serviceName: env.OTEL_SERVICE_NAME || 'harness-evals',
    startedAt: new Date(),
  };
}

/**
 * Export the finished run when a target was asked for: one line per thing done on stdout, one
 * per failure on stderr. Returns `code`, or 2 when the export was asked for and did not happen.
 * The OpenTelemetry packages load only here.
 */
export async function exportOtel(
  target: OtelTarget | undefined,
  run: { projectDir: string; records: readonly TrialRecord[]; report: EvalReport },
  code: number,
  shard?: Shard,
): Promise<number> {
  if (!target) return code;
  const { exportRunTrace } = await import('../eval/report/otel/export-run.js');
  const { done, problems } = await exportRunTrace(
    { ...target, ...(shard && { shard: formatShard(shard) }) },
    run,
  );
  for (const line of done) console.log(`otel: ${terminalLine(line)}`);
  for (const line of problems) console.error(`eval: ${terminalLine(line)}`);
  return problems.length > 0 ? 2 : code;
}
