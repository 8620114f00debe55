/** A terminal's input as process.stdin is: a stream, with a raw mode when it is a TTY. */
export interface TypeaheadInput extends NodeJS.ReadableStream {
  readableEnded?: boolean;
  isTTY?: boolean;
  isRaw?: boolean;
  setRawMode?: (mode: boolean) => unknown;
}

/** How long the drain waits on a terminal: quiet for `quietMs`, at most `maxMs` in all. */
export interface DrainTimes {
  quietMs?: number;
  maxMs?: number;
}

/**
 * A terminal delivers what was typed ahead when reading starts, but when exactly is its own
 * business: a poll or two later on Linux, later still where a helper thread reads the terminal
 * (macOS, Windows) or keystrokes are in flight (ssh, tmux). So the drain reads until the input
 * has been quiet for 50 ms, which a question asked of a human can afford.
 */
export const TYPEAHEAD_QUIET_MS = 50;
/**
 * Input that never goes quiet (a key held down, a program writing to the terminal) would hold
 * the question back forever, unseen: after 1 s the question is asked anyway. What arrives
 * after it is the answer's line, and only a whole line "y" or "yes" is a yes.
 */
export const TYPEAHEAD_MAX_MS = 1000;

/**
 * Reads and drops what was typed before a question is shown: whole lines and a half-typed one
 * (raw mode for the drain releases the line a terminal holds back until Enter), until the input
 * has been quiet for a moment (or ended). Returns the dropped text ('' when nothing was typed).
 * The input is left paused (it does not keep the process alive) and in the mode it was in.
 *
 * @example
 * if (await discardTypeahead(process.stdin)) console.log('(ignored input typed before this question)');
 */
export async function discardTypeahead(
  input: TypeaheadInput,
  times: DrainTimes = {},
): Promise<string> {
  const { quietMs = TYPEAHEAD_QUIET_MS, maxMs = TYPEAHEAD_MAX_MS } = times;
  let dropped = '';
  let finish = () => {};
  const finished = new Promise<void>((resolve) => {
    finish = resolve;
  });
  let quiet = setTimeout(finish, quietMs);
  const bound = setTimeout(finish, maxMs);
  const drop = (chunk: unknown) => {
    dropped += String(chunk);
    clearTimeout(quiet);
    quiet = setTimeout(finish, quietMs);
  };
  const wasRaw = input.isRaw === true;
  input.setRawMode?.(true);
  input.on('data', drop);
  input.once('end', finish);
  input.resume();
  try {
    await finished;
  } finally {
    clearTimeout(quiet);
    clearTimeout(bound);
    input.removeListener('data', drop);
    input.removeListener('end', finish);
    input.pause();
    input.setRawMode?.(wasRaw);
  }
  return dropped;
}
