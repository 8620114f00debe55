/**
 * C0 controls, DEL, C1 controls (U+009B is a one-byte CSI), Unicode line and paragraph
 * separators, and what INVISIBLE finds.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding them is the point.
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/u;
const NAMED: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/**
 * What a reader would not see: the Unicode default-ignorable code points (tag characters
 * U+E0000-U+E0FFF, zero-width spaces and joiners, word joiner, BOM, soft hyphen, variation
 * selectors, Hangul fillers) and the bidirectional marks, embeddings, overrides and isolates
 * that reorder what is shown. A text can hide an instruction in them. Left alone: a joiner
 * between two emoji and the emoji presentation selector after one, which a family or a red
 * heart is made of.
 */
const INVISIBLE =
  /(?<!\p{Extended_Pictographic})\ufe0f|(?<!\p{Extended_Pictographic}\ufe0f?)\u200d|\u200d(?!\p{Extended_Pictographic})|(?![\u200d\ufe0f])[\p{Default_Ignorable_Code_Point}\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/u;

const UNSAFE = new RegExp(`${CONTROL.source}|${INVISIBLE.source}`, 'gu');
const SHOWN_INVISIBLE = new RegExp(INVISIBLE.source, 'gu');

/** `\u200b`, or `\u{e0041}` past the BMP: the escape a reader can see and look up. */
function escapeOf(char: string): string {
  const code = char.codePointAt(0) ?? 0;
  return code > 0xffff ? `\\u{${code.toString(16)}}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

/**
 * Text from a file, a record or a model made safe to print on a terminal: each control or
 * invisible character becomes a visible escape (`\u001b`, `\n`, `\u{e0041}`), so a trace or an
 * answer cannot write the clipboard (OSC 52), retitle the window, clear the screen or hide text.
 * With `lines`, line feeds, tabs and CRLF are kept for text that is printed as several lines.
 *
 * @example console.log(escapeForTerminal(result.answer, { lines: true }))
 */
export function escapeForTerminal(text: string, options: { lines?: boolean } = {}): string {
  UNSAFE.lastIndex = 0;
  if (!UNSAFE.test(text)) return text;
  const lines = options.lines ?? false;
  return text.replace(UNSAFE, (char, offset: number) => {
    if (lines && (char === '\n' || char === '\t')) return char;
    if (lines && char === '\r' && text[offset + 1] === '\n') return char;
    return NAMED[char] ?? escapeOf(char);
  });
}

/**
 * Text for a page that shows text as text (an HTML or markdown report): each invisible or
 * bidirectional character becomes a visible escape (`\u202e`, `\u{e0041}`), as on a terminal, so
 * a recorded answer cannot show reordered or hide an instruction from a reviewer.
 */
export function showInvisible(text: string): string {
  return text.replace(SHOWN_INVISIBLE, escapeOf);
}
