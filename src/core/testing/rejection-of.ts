/**
 * The error a promise rejects with, when it is an instance of `type`; a promise that resolves,
 * or rejects with anything else, fails the test with what it got instead.
 *
 * @example expect((await rejectionOf(resumeAgent(options), CheckpointError)).code).toBe('checkpoint_missing');
 */
export async function rejectionOf<E extends Error>(
  promise: Promise<unknown>,
  // biome-ignore lint/suspicious/noExplicitAny: any constructor of E, whatever its parameters
  type: new (...args: any[]) => E,
): Promise<E> {
  const outcome = await promise.then(
    (value: unknown) => ({ value }),
    (error: unknown) => ({ error }),
  );
  if ('error' in outcome && outcome.error instanceof type) return outcome.error;
  const got = 'error' in outcome ? String(outcome.error) : `a value: ${String(outcome.value)}`;
  throw new Error(`expected a ${type.name}, got ${got}`);
}
