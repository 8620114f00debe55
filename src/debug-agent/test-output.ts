import type { Sandbox } from './sandbox.js';

// biome-ignore lint/suspicious/noControlCharactersInRegex: ANSI escapes start with ESC.
const ANSI = /\x1b\[[0-9;?]*[A-Za-z]/g;
/** Stack frames name Node's internals, whose line numbers change with every Node release. */
const STACK_FRAME = /^\s+at .*$\n?/gm;
const NODE_MODULES = /(?:file:\/\/)?[^\s'"()]*?[\\/]node_modules[\\/]/g;
const DURATION = /\b(duration_ms)[ :=]+\d+(?:\.\d+)?/g;
const MILLISECONDS = /\b\d+(?:\.\d+)?\s?ms\b/g;

/**
 * Test output as the model sees it, identical from run to run: no sandbox location (it
 * differs per trial), no colours, no stack frames, no timings, no installation paths.
 * A recorded run_test result must replay byte for byte.
 *
 * @example
 * normaliseTestOutput('✔ adds (12.3ms)\n', sandbox); // '✔ adds (<n> ms)'
 */
export function normaliseTestOutput(text: string, sandbox: Sandbox): string {
  return sandbox
    .scrub(text)
    .replace(/\r\n?/g, '\n')
    .replace(ANSI, '')
    .replace(STACK_FRAME, '')
    .replace(NODE_MODULES, 'node_modules/')
    .replace(DURATION, '$1 <n>')
    .replace(MILLISECONDS, '<n> ms')
    .split('\n')
    .map((line) => line.trimEnd())
    .join('\n')
    .trim();
}

/** The last `lines` lines, each capped, with a note when the head was dropped. */
export function tail(text: string, lines: number, maxLineChars = 300): string {
  const all = text === '' ? [] : text.split('\n');
  const kept = all
    .slice(-lines)
    .map((line) => (line.length > maxLineChars ? `${line.slice(0, maxLineChars)}...` : line));
  const dropped = all.length - kept.length;
  return [dropped > 0 ? `[${dropped} earlier lines not shown]` : '', ...kept]
    .filter((line, index) => index > 0 || line !== '')
    .join('\n');
}
