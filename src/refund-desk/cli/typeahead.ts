/** A terminal's input as process.stdin is: a stream, with a raw mode when it is a TTY. */
export interface TypeaheadInput extends NodeJS.ReadableStream {
  readableEnded?: boolean;
  isTTY?: boolean;
  isRaw?: boolean;
  setRawMode?: (mode: boolean) => unknown;
}

/** How long the drain waits on a terminal, and what it does when the input never goes quiet. */
export interface DrainOptions {
  /** The input counts as quiet after this long without data (after a poll of the terminal). */
  quietMs?: number;
  /** Input still arriving after this long: `onLong` is called once, and the drain goes on. */
  maxMs?: number;
  /** Shows the question while the input keeps arriving; gets what was dropped so far. */
  onLong?: (dropped: string) => void;
  /** Ends the drain when it aborts (the question was withdrawn): the caller checks it after. */
  signal?: AbortSignal | undefined;
}

/**
 * A terminal delivers what was typed ahead when reading starts, but when exactly is its own
 * business: a poll or two later on Linux, later still where a helper thread reads the terminal
 * (macOS, Windows) or keystrokes are in flight (ssh, tmux). So the drain reads until the input
 * has been quiet for 50 ms, which a question asked of a human can afford.
 */
export const TYPEAHEAD_QUIET_MS = 50;
/**
 * Input that never goes quiet (a key held down, a long paste) would hold the question back,
 * unseen: after 1 s it is shown (`onLong`), and the input is still dropped until it is quiet,
 * so the rest of a paste answers nothing. Ctrl-C or Ctrl-D ends the drain at any time.
 */
export const TYPEAHEAD_MAX_MS = 1000;

/** Ctrl-C or Ctrl-D as raw mode delivers them: the human wants out, as at the prompt. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: these two control characters are the point.
export const INTERRUPT_KEYS = /[\u0003\u0004]/;

/**
 * Reads and drops what was typed before a question is shown: whole lines and a half-typed one
 * (raw mode for the drain releases the line a terminal holds back until Enter), until the input
 * has been quiet for a moment, ended, or brought a Ctrl-C or Ctrl-D (the last character of the
 * text returned then). Returns the dropped text ('' when nothing was typed). The input is left
 * paused (it does not keep the process alive) and in the mode it was in.
 *
 * @example
 * if (await discardTypeahead(process.stdin)) console.log('(ignored input typed before this question)');
 */
export async function discardTypeahead(
  input: TypeaheadInput,
  options: DrainOptions = {},
): Promise<string> {
  const { quietMs = TYPEAHEAD_QUIET_MS, maxMs = TYPEAHEAD_MAX_MS, onLong, signal } = options;
  let dropped = '';
  let arrived = false;
  // Chunks already buffered come in one go, before the drain's cleanup runs: once it is over,
  // more data is not added, so a Ctrl-C or Ctrl-D stays the last character returned.
  let over = false;
  let finish = () => {};
  let fail = (_error: unknown) => {};
  const finished = new Promise<void>((resolve, reject) => {
    finish = () => {
      over = true;
      resolve();
    };
    fail = (error) => {
      over = true;
      reject(error);
    };
  });
  let quiet: NodeJS.Timeout | undefined;
  let bound: NodeJS.Timeout | undefined;
  let polled: NodeJS.Immediate | undefined;
  let longPolled: NodeJS.Immediate | undefined;
  // A timer measures the wall clock: after a stall (a parallel tool call's synchronous work, a
  // GC pause) it fires before the terminal was polled. setImmediate runs after a poll phase, so
  // the drain decides then, and ends only if that poll brought nothing.
  const whenQuiet = () => {
    arrived = false;
    polled = setImmediate(() => {
      if (!arrived) finish();
    });
  };
  const whenLong = () => {
    longPolled = setImmediate(() => {
      try {
        onLong?.(dropped);
      } catch (error) {
        fail(error);
      }
    });
  };
  const drop = (chunk: unknown) => {
    if (over) return;
    const text = String(chunk);
    const interrupt = text.search(INTERRUPT_KEYS);
    dropped += interrupt < 0 ? text : text.slice(0, interrupt + 1);
    arrived = true;
    clearTimeout(quiet);
    if (interrupt < 0) quiet = setTimeout(whenQuiet, quietMs);
    else finish();
  };
  const wasRaw = input.isRaw === true;
  try {
    input.setRawMode?.(true);
    quiet = setTimeout(whenQuiet, quietMs);
    bound = setTimeout(whenLong, maxMs);
    input.on('data', drop);
    input.once('end', finish);
    signal?.addEventListener('abort', finish, { once: true });
    if (signal?.aborted) finish();
    input.resume();
    await finished;
  } finally {
    signal?.removeEventListener('abort', finish);
    clearTimeout(quiet);
    clearTimeout(bound);
    clearImmediate(polled);
    clearImmediate(longPolled);
    input.removeListener('data', drop);
    input.removeListener('end', finish);
    input.pause();
    input.setRawMode?.(wasRaw);
  }
  return dropped;
}
