/**
 * C0 controls, DEL, C1 controls (U+009B is a one-byte CSI), Unicode line and paragraph
 * separators, and the bidirectional marks and overrides that reorder what is shown.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding them is the point.
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]/g;
const NAMED: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/**
 * Text from a file, a record or a model made safe to print on a terminal: each control
 * character becomes a visible escape (`\u001b`, `\n`), so a trace or an answer cannot write
 * the clipboard (OSC 52), retitle the window, clear the screen or hide text. With `lines`,
 * line feeds, tabs and CRLF are kept for text that is printed as several lines.
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
    return NAMED[char] ?? `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`;
  });
}

/** The bidirectional marks, embeddings, overrides and isolates: they reorder what a page shows. */
const BIDI = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/**
 * Text for a page that shows text as text (an HTML report): each bidirectional control becomes
 * a visible escape (`\u202e`), as on a terminal, so a recorded answer cannot show reordered.
 */
export function showBidiControls(text: string): string {
  return text.replace(BIDI, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
