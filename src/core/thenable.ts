/**
 * Whether user code answered with something `await` would wait on. Reading `then` runs a
 * getter or a Proxy trap, which may throw: call it where a throw is caught.
 */
export function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    (typeof value === 'object' || typeof value === 'function') &&
    value !== null &&
    typeof (value as { then?: unknown }).then === 'function'
  );
}
