import { showInvisible } from './terminal-text.js';

/** Every line break CommonMark knows, a lone CR included. */
export const LINE_BREAK = /\r\n|\r|\n/g;

/**
 * The ASCII punctuation that can mean something in a GFM table cell or list item: a backslash
 * (else `a\|b` ends the cell after all), code, emphasis, strikethrough, links, and the pipe.
 */
const MARKDOWN_PUNCTUATION = /[\\`*_~[\]|]/g;

/**
 * Text safe as raw HTML (a `<summary>`): no tag, no entity, one line, no reordering, and no
 * mention: a zero-width space after each `@` that starts a name, so `@user` and `@org/team` from a
 * task name, a case id or an answer notify nobody on GitHub (`#123` stays a cross-reference).
 */
export function escapeHtmlText(text: string): string {
  return showInvisible(text)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(LINE_BREAK, ' ')
    .replace(MENTION, '@&#8203;');
}

/**
 * An `@` a name could follow, not right after a letter or digit: GitHub makes `@name` a mention
 * that notifies, but not `pass@1` or `a@b.example`.
 */
const MENTION = /(?<![\p{L}\p{N}])@(?=[\p{L}\p{N}_-])/gu;

/**
 * Text safe inside a GFM table cell or list item: no HTML, no markup, no pipe ending the cell,
 * one line. It renders as the text itself (`__init__` stays `__init__`, not bold "init").
 */
export function escapeText(text: string): string {
  return escapeHtmlText(text).replace(MARKDOWN_PUNCTUATION, '\\$&');
}
