import { callClock } from '../core/call-clock.js';
import { callSignal } from '../core/call-signal.js';
import type { Clock } from '../core/clock.js';
import { raceDeadline } from '../core/deadline.js';
import { CallEndedError, errorMessage, isWriteNotMade, ToolTimeoutError } from '../core/errors.js';
import { withClock } from './run-state-view.js';
import type { ToolPipelineOptions } from './tool-call.js';
import type { RunState, ToolDefinition } from './types.js';

/** A tool's clock, as its author sees it. */
const CLOCKS = 'context.clock and context.run.clock';

/** How one execution of a tool ended. */
export type Executed =
  | { kind: 'ok'; value: unknown }
  /** `notMade`: its error is a WriteNotMadeError, the tool's word that its write did not take effect. */
  | { kind: 'failed'; message: string; notMade?: true }
  /** `late`: how it ends after its timeout, when it ends at all. */
  | { kind: 'timeout'; ms: number; late: Promise<Executed> }
  /** The run's signal had aborted: the tool was not called. */
  | { kind: 'not_run' };

/**
 * Run the tool, raced against its `timeoutMs` when timeouts are enforced (see raceDeadline: its
 * signal aborts at the deadline, and on a virtual clock its waits end then). Its signal also
 * aborts when the run's does, until the call ends. On a virtual clock its waits end with its
 * call, timeout or not (callClock): a wait it left running cannot move the run's time later; a
 * real clock is handed on as it is. Not called once the
 * run's signal aborted: a tool that fails on an aborted signal did not write, and must not be
 * taken for one stopped mid-way. Never rejects.
 */
export async function executeTool(
  tool: ToolDefinition,
  args: Record<string, unknown>,
  state: RunState,
  idempotencyKey: string | undefined,
  options: Pick<ToolPipelineOptions, 'timeouts' | 'signal'>,
): Promise<Executed> {
  if (options.signal?.aborted) return { kind: 'not_run' };
  const run = (raceClock: Clock, deadline: (() => AbortSignal) | undefined): Promise<Executed> => {
    const linked = callSignal(deadline, options.signal);
    const signal = linked.signal();
    const clock = callClock(raceClock, state.clock.hold !== undefined);
    const ended = () => {
      linked.release();
      clock.end((after) => new CallEndedError(tool.name, CLOCKS, after));
    };
    return (async () =>
      tool.execute(args as never, {
        signal,
        clock: clock.clock,
        run: withClock(state, clock.clock),
        ...(idempotencyKey !== undefined && { idempotencyKey }),
      }))().then(
      (value): Executed => {
        ended();
        return { kind: 'ok', value };
      },
      (error: unknown): Executed => {
        ended();
        return {
          kind: 'failed',
          message: errorMessage(error),
          ...(isWriteNotMade(error) && { notMade: true as const }),
        };
      },
    );
  };
  const timeoutMs = options.timeouts ? tool.timeoutMs : undefined;
  if (timeoutMs === undefined) return run(state.clock, undefined);
  const raced = await raceDeadline(
    state.clock,
    timeoutMs,
    () => new ToolTimeoutError(tool.name, timeoutMs),
    run,
  );
  return raced.kind === 'settled'
    ? raced.outcome
    : { kind: 'timeout', ms: timeoutMs, late: raced.late };
}
