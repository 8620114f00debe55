/** Every line break CommonMark knows, a lone CR included. */
export const LINE_BREAK = /\r\n|\r|\n/g;

/** Text safe inside a GFM table cell or an HTML summary: no HTML, no pipe ending the cell, one line. */
export function escapeText(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/\|/g, '\\|')
    .replace(LINE_BREAK, ' ');
}
