/** The signal of one call of user code, and how to let go of the run's signal when it ends. */
export interface CallSignal {
  /** Made when first asked for (most hooks never ask); the same signal after. */
  signal(): AbortSignal;
  /** The call ended: the run's signal keeps nothing of it. Also done at the deadline. */
  release(): void;
}

/**
 * The signal of one call of a hook or a tool: aborted at the call's deadline (`deadline`, made
 * when first asked for) or when `outer` (the run's signal) aborts, with that one's reason.
 * Not `AbortSignal.any`: Node keeps a composite that user code listens on alive as long as its
 * sources live, and a run's signal lives for the run (+59 MB over 50k hook calls). Here the
 * call's own controller hangs on `outer` by one `{ once: true }` listener, which `release`
 * removes; a call that settled no longer hears the run's cancellation.
 */
export function callSignal(
  deadline: (() => AbortSignal) | undefined,
  outer: AbortSignal | undefined,
): CallSignal {
  if (!outer && deadline) return { signal: deadline, release: () => {} };
  let controller: AbortController | undefined;
  let released = false;
  const onOuterAbort = () => {
    released = true;
    controller?.abort(outer?.reason);
  };
  const release = () => {
    if (released) return;
    released = true;
    outer?.removeEventListener('abort', onOuterAbort);
  };
  const signal = (): AbortSignal => {
    if (controller) return controller.signal;
    const own = new AbortController();
    controller = own;
    const inner = deadline?.();
    if (inner?.aborted) own.abort(inner.reason);
    else if (outer?.aborted) own.abort(outer.reason);
    else {
      inner?.addEventListener(
        'abort',
        () => {
          release();
          own.abort(inner.reason);
        },
        { once: true },
      );
      if (!released) outer?.addEventListener('abort', onOuterAbort, { once: true });
    }
    return own.signal;
  };
  return { signal, release };
}
