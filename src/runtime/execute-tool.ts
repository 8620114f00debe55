import type { Clock } from '../core/clock.js';
import { raceDeadline } from '../core/deadline.js';
import { errorMessage, ToolTimeoutError } from '../core/errors.js';
import { withClock } from './run-state-view.js';
import type { RunState, ToolDefinition } from './types.js';
import type { LateOutcome } from './write-attempt.js';

/** How one execution of a tool ended. */
export type Executed =
  | { kind: 'ok'; value: unknown }
  /** `cutOff`: it failed with its deadline's own error (a wait the timeout ended). */
  | { kind: 'failed'; message: string; cutOff?: true }
  | { kind: 'timeout'; ms: number; late: LateOutcome };

/**
 * Run the tool, raced against its `timeoutMs` when timeouts are enforced (see raceDeadline: its
 * signal aborts and its waits on the clock it is given end at the deadline). Never rejects.
 */
export async function executeTool(
  tool: ToolDefinition,
  args: Record<string, unknown>,
  state: RunState,
  enforceTimeout: boolean,
  idempotencyKey: string | undefined,
): Promise<Executed> {
  const run = (clock: Clock, signal: () => AbortSignal): Promise<Executed> =>
    (async () =>
      tool.execute(args as never, {
        signal: signal(),
        clock,
        run: withClock(state, clock),
        ...(idempotencyKey !== undefined && { idempotencyKey }),
      }))().then(
      (value): Executed => ({ kind: 'ok', value }),
      (error: unknown): Executed => ({
        kind: 'failed',
        message: errorMessage(error),
        ...(error instanceof ToolTimeoutError && { cutOff: true as const }),
      }),
    );
  const timeoutMs = enforceTimeout ? tool.timeoutMs : undefined;
  if (timeoutMs === undefined) return run(state.clock, () => new AbortController().signal);
  const raced = await raceDeadline(
    state.clock,
    timeoutMs,
    () => new ToolTimeoutError(tool.name, timeoutMs),
    run,
  );
  return raced.kind === 'settled'
    ? raced.outcome
    : { kind: 'timeout', ms: timeoutMs, late: raced.late as LateOutcome };
}
