import { errorMessage } from '../core/errors.js';
import { isThenable } from '../core/thenable.js';
import { type TraceEvent, TraceExistsError, type TraceSink, TraceWriteError } from './trace.js';
import type { RunStatus } from './types.js';

/** A trace sink that never throws into the run: it keeps its first failure instead. */
export interface GuardedTrace extends TraceSink {
  /**
   * The first write that failed, named; undefined while every write succeeded. Waits for the
   * writes of an async sink still in flight, so a rejected write is seen before the run goes on.
   */
  failure(): Promise<TraceWriteError | TraceExistsError | undefined>;
}

/** What the run's detail says to do about a failed trace. */
const TRACE_FIX = 'fix the trace (free disk space, or the sink)';

/**
 * Wraps the run's trace sink (a file on a full disk, a user's sink that throws, or an async one
 * that rejects) so that a failed write cannot escape the run loop half-way through a step. The
 * loop awaits `failure()` before it starts anything new and ends the run naming it. Events after
 * the first failure are dropped: the trace is every event up to the failed one, with no holes.
 * A sink is called synchronously, event by event; once one of its writes returns a promise,
 * the next event waits for it to settle (one write in flight at a time, in order).
 */
export function guardTrace(sink: TraceSink | undefined): GuardedTrace {
  let failed: TraceWriteError | TraceExistsError | undefined;
  /** The last async write still in flight, with every event queued behind it. */
  let inFlight: Promise<void> | undefined;
  const fail = (event: TraceEvent, error: unknown) => {
    if (failed !== undefined) return;
    // Another run's file: the run must not start, under exactly this error.
    if (error instanceof TraceExistsError) {
      failed = error;
      return;
    }
    const step = 'step' in event ? ` (step ${event.step})` : '';
    failed = new TraceWriteError(
      `the trace sink failed at the ${event.type} event${step}: ${errorMessage(error)}`,
      { cause: error },
    );
  };
  /** One write; a promise when the sink answered with one (settled, never rejected). */
  const attempt = (event: TraceEvent): Promise<void> | undefined => {
    if (sink === undefined || failed !== undefined) return undefined;
    try {
      const written: unknown = sink.write(event);
      if (!isThenable(written)) return undefined;
      return Promise.resolve(written).then(
        () => undefined,
        (error: unknown) => fail(event, error),
      );
    } catch (error) {
      fail(event, error);
      return undefined;
    }
  };
  const track = (write: Promise<void>) => {
    const settled: Promise<void> = write.then(() => {
      if (inFlight === settled) inFlight = undefined;
    });
    inFlight = settled;
  };
  return {
    write(event) {
      if (sink === undefined || failed !== undefined) return;
      if (inFlight === undefined) {
        const write = attempt(event);
        if (write) track(write);
      } else {
        track(inFlight.then(() => attempt(event)));
      }
    },
    async failure() {
      while (inFlight !== undefined) await inFlight;
      return failed;
    },
  };
}

/**
 * How a run that ended is reported: as it ended, or, when its trace failed, with status `error`
 * and a detail naming the trace and why, what became of the run, and the fix. (Its journal
 * still says how it ended, so a resume gives that result.)
 */
export async function reportedEnd(
  trace: GuardedTrace | undefined,
  run: { runId: string; resumable: boolean },
  status: RunStatus,
  detail: string | undefined,
): Promise<{ status: RunStatus; detail: string | undefined }> {
  const failure = await trace?.failure();
  if (failure === undefined) return { status, detail };
  const ended =
    status !== 'error'
      ? `The run had ended with status ${status}`
      : detail
        ? `The run had also failed: ${detail}`
        : 'The run stopped before its next step';
  const then = run.resumable
    ? `; its journal keeps what it did: ${TRACE_FIX}, then resume run ${run.runId}`
    : `: ${TRACE_FIX}, then run it again`;
  return { status: 'error', detail: `${failure.message}. ${ended}${then}` };
}

/** Why a run whose first events could not be written did not start. */
export function traceNotStarted(failure: TraceWriteError | TraceExistsError): Error {
  if (failure instanceof TraceExistsError) return failure;
  return new TraceWriteError(
    `${failure.message}. Nothing was done: ${TRACE_FIX}, then start the run again`,
    { cause: failure.cause },
  );
}
