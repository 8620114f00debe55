/**
 * What JSON.parse accepts but reads as something other than the text says, so two texts a
 * reviewer sees differ in would read (and hash, and replay) the same: a number a double cannot
 * hold (`1e400` reads as Infinity, written back as `null`; `9007199254740993` as ...992) and a
 * key given twice in one object (JSON.parse keeps the last). One line naming the first such
 * place, or undefined. `text` must already be valid JSON (JSON.parse accepted it).
 */
export function jsonTextProblem(text: string): string | undefined {
  const keys: Array<Set<string> | undefined> = [];
  let expectKey = false;
  for (let at = 0; at < text.length; at++) {
    const code = text.charCodeAt(at);
    if (code === QUOTE) {
      const end = stringEnd(text, at);
      if (expectKey) {
        const key = JSON.parse(text.slice(at, end + 1)) as string;
        const seen = keys[keys.length - 1];
        if (seen?.has(key))
          return `${lineOf(text, at)}: the key ${JSON.stringify(key)} appears twice in one object (JSON keeps only the last)`;
        seen?.add(key);
        expectKey = false;
      }
      at = end;
    } else if (code === OPEN_BRACE) {
      keys.push(new Set());
      expectKey = true;
    } else if (code === OPEN_BRACKET) {
      keys.push(undefined);
    } else if (code === CLOSE_BRACE || code === CLOSE_BRACKET) {
      keys.pop();
    } else if (code === COMMA) {
      expectKey = keys[keys.length - 1] !== undefined;
    } else if (code === MINUS || (code >= DIGIT_0 && code <= DIGIT_9)) {
      let end = at + 1;
      while (end < text.length && NUMBER_CHAR.test(text[end]!)) end++;
      const problem = numberProblem(text.slice(at, end));
      if (problem) return `${lineOf(text, at)}: ${problem}`;
      at = end - 1;
    }
  }
  return undefined;
}

/**
 * Why a number literal does not read as itself: out of a double's range, or more significant
 * digits than 15 (a double tells every 15-digit decimal apart) that are not the shortest digits of
 * the double it reads as (what JSON.stringify writes, so two accepted spellings of one double are
 * one number: `1E2` and `100`, `-0` and `0`).
 */
function numberProblem(literal: string): string | undefined {
  const value = Number(literal);
  if (!Number.isFinite(value))
    return `the number ${literal} is out of range for JSON (it reads as Infinity, which is written back as null)`;
  const digits = significantDigits(literal);
  if (digits.length <= 15 || digits === significantDigits(String(Math.abs(value))))
    return undefined;
  return `the number ${literal} has more digits than a double holds (it reads and replays as ${JSON.stringify(value)})`;
}

function significantDigits(literal: string): string {
  const mantissa = literal.replace(/^-/, '').split(/[eE]/)[0] ?? '';
  return mantissa.replace('.', '').replace(/^0+/, '').replace(/0+$/, '');
}

/** The index of the quote that closes the string opened at `start`. */
function stringEnd(text: string, start: number): number {
  let at = start + 1;
  for (;;) {
    const quote = text.indexOf('"', at);
    if (quote < 0) return text.length - 1;
    let slashes = 0;
    while (text.charCodeAt(quote - 1 - slashes) === BACKSLASH) slashes++;
    if (slashes % 2 === 0) return quote;
    at = quote + 1;
  }
}

function lineOf(text: string, index: number): string {
  let line = 1;
  for (let at = text.indexOf('\n'); at >= 0 && at < index; at = text.indexOf('\n', at + 1)) line++;
  return `line ${line}`;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const COMMA = 0x2c;
const MINUS = 0x2d;
const DIGIT_0 = 0x30;
const DIGIT_9 = 0x39;
const NUMBER_CHAR = /[0-9eE.+-]/;
