/** What a finished test run left for the model: its normalised output and exit code. */
export interface FinishedRun {
  output: string;
  exitCode: number | null;
}

export interface TestRun extends FinishedRun {
  timedOut: boolean;
  aborted: boolean;
}

const finished = new Map<string, FinishedRun>();
const running = new Map<string, Promise<FinishedRun | undefined>>();

/**
 * Run a test at most once per key (same key, same program): a finished run of the key is
 * reused and a run in flight is awaited, so concurrent trials of the same code start one
 * process. A run that timed out or was cancelled is never reused: the next call runs again.
 * Without a key, `start` always runs.
 */
export async function runOncePerKey(
  key: string | undefined,
  start: () => Promise<TestRun>,
  signal?: AbortSignal,
): Promise<TestRun> {
  if (key === undefined) return start();
  const inFlight = running.get(key);
  // Waiting on another trial's run still answers this caller's cancel at once.
  const done = finished.get(key) ?? (inFlight && (await untilAborted(inFlight, signal)));
  if (done === ABORTED) return { output: '', exitCode: null, timedOut: false, aborted: true };
  if (done) return { ...done, timedOut: false, aborted: false };
  const run = start();
  const kept = run.then(
    (result) =>
      result.timedOut || result.aborted
        ? undefined
        : { output: result.output, exitCode: result.exitCode },
    () => undefined,
  );
  running.set(key, kept);
  try {
    const result = await run;
    const keep = await kept;
    if (keep) finished.set(key, keep);
    return result;
  } finally {
    if (running.get(key) === kept) running.delete(key);
  }
}

const ABORTED = Symbol('aborted');

function untilAborted<T>(promise: Promise<T>, signal: AbortSignal | undefined) {
  if (!signal) return promise;
  if (signal.aborted) return Promise.resolve(ABORTED);
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<typeof ABORTED>((resolve) => {
    onAbort = () => resolve(ABORTED);
    signal.addEventListener('abort', onAbort, { once: true });
  });
  return Promise.race([promise, aborted]).finally(() => {
    if (onAbort) signal.removeEventListener('abort', onAbort);
  });
}
