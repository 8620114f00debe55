import { el } from './dom.js';
import { amount } from './format.js';
import type { TrialDetail } from './page-data.js';
import { longText } from './transcript.js';

/** A trace event as the page holds it: tool inputs as JSON text. */
type ShownEvent = NonNullable<TrialDetail['trace']>[number];
type EventOf<T extends ShownEvent['type']> = Extract<ShownEvent, { type: T }>;

/** The one-line summary of the events the page knows; others show as their JSON. */
const TRACE_LINES: { [T in ShownEvent['type']]?: (event: EventOf<T>) => string } = {
  run_start: (event) =>
    `variant ${event.variant} \u00b7 model ${event.model} \u00b7 mode ${event.mode}`,
  model_call: (event) =>
    `${event.role ? `${event.role} \u00b7 ` : ''}${event.stop_reason || 'no stop reason'} \u00b7 tokens in ${amount(event.input_tokens)} / out ${amount(event.output_tokens)} \u00b7 ${amount(event.ms)} ms`,
  tool_call: (event) =>
    `${event.tool} \u00b7 ${event.decision}${event.is_error ? ' \u00b7 is_error' : ''} \u00b7 ${amount(event.ms)} ms \u00b7 result ${amount(event.result_chars)} characters`,
  run_end: (event) => `${event.status}${event.detail ? `: ${event.detail}` : ''}`,
};

function lineOf(event: ShownEvent): string | null {
  const summary = Object.hasOwn(TRACE_LINES, event.type)
    ? (TRACE_LINES[event.type] as ((event: ShownEvent) => string) | undefined)
    : undefined;
  return summary ? summary(event) : null;
}

function traceLine(event: ShownEvent): HTMLElement {
  const text = lineOf(event);
  const rest: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(event))
    if (key !== 'type' && key !== 'input') rest[key] = value;
  const input = 'input' in event ? event.input : undefined;
  return el(
    'tr',
    { 'data-testid': 'trace-event' },
    el('td', { text: String(event.type) }),
    el('td', {
      cls: 'num',
      text: 'step' in event && event.step !== undefined ? String(event.step) : '',
    }),
    el(
      'td',
      null,
      text !== null ? text : JSON.stringify(rest),
      input !== undefined ? longText('pre', {}, input) : null,
    ),
  );
}

/** The run's trace events; for an adapter, the tool calls it reported (no results: adapters report none). */
export function traceOf(d: TrialDetail, open: boolean): HTMLElement | null {
  if (!d.trace) return null;
  const adapter = d.trace.some((e) => e.type === 'run_start' && e.mode === 'adapter');
  const title = adapter ? 'Adapter trace: tool calls as the adapter reported them' : 'Trace';
  const head = el(
    'tr',
    null,
    el('th', { text: 'event' }),
    el('th', { text: 'step' }),
    el('th', { text: '' }),
  );
  const body = el('tbody', null);
  for (const event of d.trace) body.appendChild(traceLine(event));
  return el(
    'details',
    { cls: 'trace', 'data-testid': 'trace', open: open ? 'open' : null },
    el('summary', { text: `${title} (${d.trace.length} events)` }),
    el('table', null, el('thead', null, head), body),
  );
}
