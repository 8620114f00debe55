import { errorMessage } from '../core/errors.js';
import { isThenable } from '../core/thenable.js';
import { type TraceEvent, TraceExistsError, type TraceSink, TraceWriteError } from './trace.js';
import type { RunStatus } from './types.js';

/** A trace sink that never throws into the run: it keeps its first failure instead. */
export interface GuardedTrace extends TraceSink {
  /** The first write that failed, named; undefined while every write succeeded. */
  failure(): TraceWriteError | TraceExistsError | undefined;
}

/**
 * Wraps the run's trace sink (a file on a full disk, a user's sink that throws, or an async one
 * that rejects) so that a failed write cannot escape the run loop half-way through a step. The
 * loop asks `failure()` before it starts anything new and ends the run naming it. Events after
 * the first failure are dropped: the trace is every event up to the failed one, with no holes.
 */
export function guardTrace(sink: TraceSink | undefined): GuardedTrace {
  let failure: TraceWriteError | TraceExistsError | undefined;
  const fail = (event: TraceEvent, error: unknown) => {
    if (failure !== undefined) return;
    // Another run's file: the run must not start, under exactly this error.
    if (error instanceof TraceExistsError) {
      failure = error;
      return;
    }
    const step = 'step' in event ? ` (step ${event.step})` : '';
    failure = new TraceWriteError(
      `the trace sink failed at the ${event.type} event${step}: ${errorMessage(error)}`,
      { cause: error },
    );
  };
  return {
    write(event) {
      if (sink === undefined || failure !== undefined) return;
      try {
        const written: unknown = sink.write(event);
        // Typed to return nothing, but an async sink's rejection is its failure, not an
        // unhandled rejection.
        if (isThenable(written)) written.then(undefined, (error: unknown) => fail(event, error));
      } catch (error) {
        fail(event, error);
      }
    },
    failure: () => failure,
  };
}

/**
 * How a run that ended is reported: as it ended, or, when its trace failed, with status `error`
 * and a detail naming the trace and why, what became of the run, and the fix. (Its checkpoint
 * still says how it ended, so a resume gives that result.)
 */
export function reportedEnd(
  trace: GuardedTrace | undefined,
  run: { runId: string; resumable: boolean },
  status: RunStatus,
  detail: string | undefined,
): { status: RunStatus; detail: string | undefined } {
  const failure = trace?.failure();
  if (failure === undefined) return { status, detail };
  const ended =
    status !== 'error'
      ? `The run had ended with status ${status}`
      : detail
        ? `The run had also failed: ${detail}`
        : 'The run stopped before its next step';
  const fix = 'fix the trace (free disk space, or the sink)';
  const then = run.resumable
    ? `; its checkpoint and write log keep what it did: ${fix}, then resume run ${run.runId}`
    : `: ${fix}, then run it again`;
  return { status: 'error', detail: `${failure.message}. ${ended}${then}` };
}

/** Why a run whose first events could not be written did not start. */
export function traceNotStarted(failure: TraceWriteError | TraceExistsError): Error {
  if (failure instanceof TraceExistsError) return failure;
  return new TraceWriteError(
    `${failure.message}. Nothing was done: fix the trace (free disk space, or the sink), then start the run again`,
    { cause: failure.cause },
  );
}
