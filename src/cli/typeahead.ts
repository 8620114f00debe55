/** A terminal's input as process.stdin is: a stream, with a raw mode when it is a TTY. */
export interface TypeaheadInput extends NodeJS.ReadableStream {
  readableEnded?: boolean;
  isTTY?: boolean;
  isRaw?: boolean;
  setRawMode?: (mode: boolean) => unknown;
}

/**
 * Two turns of the event loop. The second starts after a poll phase, in which a terminal
 * delivers what it held when reading started.
 */
const pollTurns = async () => {
  await new Promise(setImmediate);
  await new Promise(setImmediate);
};

/**
 * Reads and drops what was typed before a question is shown: whole lines and a half-typed one
 * (raw mode for the drain releases the line a terminal holds back until Enter). Returns the
 * dropped text ('' when nothing was typed). The input is left paused (it does not keep the
 * process alive) and in the mode it was in.
 *
 * @example
 * if (await discardTypeahead(process.stdin)) console.log('(ignored input typed before this question)');
 */
export async function discardTypeahead(input: TypeaheadInput): Promise<string> {
  let dropped = '';
  const drop = (chunk: unknown) => {
    dropped += String(chunk);
  };
  const wasRaw = input.isRaw === true;
  input.setRawMode?.(true);
  input.on('data', drop);
  input.resume();
  try {
    await pollTurns();
  } finally {
    input.removeListener('data', drop);
    input.pause();
    input.setRawMode?.(wasRaw);
  }
  return dropped;
}
