import type { RunLock } from '../../core/run-lock.js';
import type { TraceSink } from '../trace.js';

/**
 * Run `work` while holding the run's lock, when the store can lock; the lock is released on
 * every way out (result, error). A takeover of a stale lock is written to the trace.
 */
export async function withRunLock<T>(
  store: { lock?(runId: string): Promise<RunLock> } | undefined,
  runId: string,
  trace: TraceSink | undefined,
  work: () => Promise<T>,
): Promise<T> {
  const lock = await store?.lock?.(runId);
  try {
    // Inside: a trace that refuses its first event (another run's file) still frees the lock.
    if (lock?.tookOverFrom) {
      const { pid, host, startedAt } = lock.tookOverFrom;
      trace?.write({
        type: 'run_lock_taken_over',
        run_id: runId,
        pid,
        host,
        started_at: startedAt,
        ts: lock.holder.startedAt,
      });
    }
    return await work();
  } finally {
    await lock?.release();
  }
}
