interface Flushable {
  write(chunk: string, callback: (error?: Error | null) => void): boolean;
}

/**
 * End the CLI once stdout and stderr have taken everything written to them, instead of
 * waiting for Node's own teardown of a large heap (about 35 ms after an eval run).
 * Only for a command that has finished: every command awaits its writes before it returns
 * its exit code, and `process.exit` still runs the `exit` handlers (locks, scratch folders).
 * A pipe is asynchronous on macOS: the empty write's callback fires after the earlier
 * writes went out, or with an error when the reader is gone, which ends the wait as well.
 */
export async function exitAfterFlush(
  code: number,
  streams: readonly Flushable[] = [process.stdout, process.stderr],
  exit: (code: number) => void = (value) => process.exit(value),
): Promise<void> {
  await Promise.all(
    streams.map(
      (stream) =>
        new Promise<void>((resolve) => {
          try {
            stream.write('', () => resolve());
          } catch {
            resolve();
          }
        }),
    ),
  );
  exit(code);
}
