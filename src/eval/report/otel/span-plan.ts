/** An attribute value as OpenTelemetry takes it: a scalar, or a list of strings. */
export type PlanValue = string | number | boolean | string[];
export type PlanAttributes = Record<string, PlanValue>;

export interface PlanEvent {
  name: string;
  timeMs: number;
  attributes: PlanAttributes;
}

/**
 * One span to export, as plain data with its children: what the report model says about a run,
 * laid out in time. The exporter turns it into SDK spans; tests read it without the SDK.
 */
export interface SpanPlan {
  name: string;
  kind: 'internal' | 'client';
  /** Milliseconds since the epoch. */
  startMs: number;
  endMs: number;
  attributes: PlanAttributes;
  events: PlanEvent[];
  /** Set when the operation itself failed (an errored trial, an HTTP error, a tool error). */
  error?: string;
  children: SpanPlan[];
}

/** Our own attributes, beside the semantic conventions' (`gen_ai.*`, `test.*`). */
export const OURS = 'harness_evals';

/** A span plan with no events or children yet. */
export function span(
  fields: Pick<SpanPlan, 'name' | 'startMs' | 'endMs' | 'attributes'> &
    Partial<Pick<SpanPlan, 'kind' | 'events' | 'error' | 'children'>>,
): SpanPlan {
  return { kind: 'internal', events: [], children: [], ...fields };
}
