import {
  type Context,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  type Tracer,
  trace,
} from '@opentelemetry/api';
import { JsonTraceSerializer, ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { redactForReport } from '../redact.js';
import type { PlanAttributes, SpanPlan } from './span-plan.js';

/** The instrumentation scope every span is exported under. */
export const SCOPE_NAME = 'harness-evals';

/**
 * Every string the export holds, redacted as the reports are (card numbers, credential shapes,
 * every configured key's exact value): names, attributes, events and errors alike, content or
 * not, so no credential leaves whatever a task or a transcript holds.
 */
function redacted(attributes: PlanAttributes): PlanAttributes {
  return Object.fromEntries(
    Object.entries(attributes).map(([key, value]) => [
      key,
      typeof value === 'string'
        ? redactForReport(value)
        : Array.isArray(value)
          ? value.map((item) => redactForReport(item))
          : value,
    ]),
  );
}

function startSpans(tracer: Tracer, plan: SpanPlan, parent: Context): void {
  const span = tracer.startSpan(
    redactForReport(plan.name),
    {
      kind: plan.kind === 'client' ? SpanKind.CLIENT : SpanKind.INTERNAL,
      startTime: plan.startMs,
      attributes: redacted(plan.attributes),
    },
    parent,
  );
  for (const event of plan.events) {
    span.addEvent(event.name, redacted(event.attributes), event.timeMs);
  }
  if (plan.error !== undefined) {
    span.setStatus({ code: SpanStatusCode.ERROR, message: redactForReport(plan.error) });
  }
  const context = trace.setSpan(parent, span);
  for (const child of plan.children) startSpans(tracer, child, context);
  span.end(plan.endMs);
}

/** The plan as SDK spans (one trace), under a resource naming the service. */
export async function spansOf(
  plan: SpanPlan,
  resource: Record<string, string>,
): Promise<ReadableSpan[]> {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes(resource),
    spanProcessors: [new SimpleSpanProcessor(exporter)],
    // A trial with many checks or tool calls keeps them all.
    spanLimits: { attributeCountLimit: 1000, eventCountLimit: 10_000 },
  });
  startSpans(provider.getTracer(SCOPE_NAME), plan, ROOT_CONTEXT);
  await provider.forceFlush();
  const spans = exporter.getFinishedSpans();
  await provider.shutdown();
  return spans;
}

/** How an export request is encoded: OTLP/JSON (the file, the default) or binary protobuf. */
export type OtlpEncoding = 'json' | 'protobuf';

export const CONTENT_TYPES: Record<OtlpEncoding, string> = {
  json: 'application/json',
  protobuf: 'application/x-protobuf',
};

const SERIALIZERS = { json: JsonTraceSerializer, protobuf: ProtobufTraceSerializer };

/**
 * An `ExportTraceServiceRequest` of the spans: what a collector's `POST /v1/traces` takes with
 * the encoding's content type (`eval --otel FILE` writes the JSON one).
 */
export function encodeSpans(spans: ReadableSpan[], encoding: OtlpEncoding): Uint8Array {
  const body = SERIALIZERS[encoding].serializeRequest(spans);
  if (!body) throw new Error(`the OpenTelemetry ${encoding} serializer returned nothing`);
  return body;
}

/** A collector's answer (its partial success), decoded as the encoding it was asked in. */
export function decodeAnswer(bytes: Uint8Array, encoding: OtlpEncoding) {
  return SERIALIZERS[encoding].deserializeResponse(bytes);
}
