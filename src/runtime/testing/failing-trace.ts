import type { TraceEvent, TraceSink } from '../trace.js';

/** How a failing sink fails: a write throws, or its promise rejects at once or a timer later. */
export type TraceFailure = 'throws' | 'rejects' | 'rejects later';

/**
 * A sink that keeps the events before the first one `failOn` names (a type, or a predicate),
 * then throws on that and every later one, or rejects (at once, or a timer later, as a write to
 * a slow disk would).
 */
export function createFailingTrace(
  failOn: TraceEvent['type'] | ((event: TraceEvent) => boolean),
  how: TraceFailure = 'throws',
): TraceSink & { events: TraceEvent[] } {
  const events: TraceEvent[] = [];
  const matches =
    typeof failOn === 'function' ? failOn : (event: TraceEvent) => event.type === failOn;
  let broken = false;
  return {
    events,
    write(event) {
      if (matches(event)) broken = true;
      if (!broken) {
        events.push(event);
        return;
      }
      if (how === 'throws') throw new Error('disk full');
      // An async sink written against the type (write returns void): its rejection is the failure.
      if (how === 'rejects') return Promise.reject(new Error('disk full')) as never;
      return new Promise((_, reject) =>
        setTimeout(() => reject(new Error('disk full')), 5),
      ) as never;
    },
  };
}
