import { describe, expect, it } from 'vitest';
import { escapeHtmlText, escapeText } from './markdown-text.js';

/** GFM's cell split: a pipe ends a cell unless an odd number of backslashes precede it. */
function cells(row: string): string[] {
  return row
    .slice(2, -2)
    .split(/(?<=(?:^|[^\\])(?:\\\\)*)\|/)
    .map((cell) => cell.trim());
}

describe('escapeText', () => {
  it('keeps a backslash before a pipe from ending the table cell', () => {
    const row = `| ${['regex a\\|b', 'upgraded', '1/3'].map(escapeText).join(' | ')} |`;
    expect(cells(row)).toHaveLength(3);
    expect(escapeText('a\\|b')).toBe('a\\\\\\|b');
  });

  it('shows emphasis, code, strikethrough and link characters as themselves', () => {
    expect(escapeText('__init__')).toBe('\\_\\_init\\_\\_');
    expect(escapeText('*x* `y` ~~z~~ [a](b)')).toBe('\\*x\\* \\`y\\` \\~\\~z\\~\\~ \\[a\\](b)');
  });

  it('still escapes HTML and keeps one line', () => {
    expect(escapeText('<img src=x> & \r\n b')).toBe('&lt;img src=x> &amp;   b');
  });
});

describe('escapeHtmlText', () => {
  it('escapes HTML only: raw HTML shows markdown escapes literally', () => {
    expect(escapeHtmlText('T_1 <b> & a|b\nc')).toBe('T_1 &lt;b> &amp; a|b c');
  });
});

describe('bidirectional controls', () => {
  it('are shown as escapes in cells, list items and summaries: text cannot show reordered', () => {
    expect(escapeText('Refund \u202eevil\u202c')).toBe('Refund \\\\u202eevil\\\\u202c');
    expect(escapeHtmlText('x \u2067y')).toBe('x \\u2067y');
  });
});

describe('mentions', () => {
  it('are neutralised in table cells and raw HTML, so GitHub notifies nobody', () => {
    expect(escapeText('cc @org/team and @bob-1')).toBe('cc @&#8203;org/team and @&#8203;bob-1');
    expect(escapeHtmlText('@alice')).toBe('@&#8203;alice');
    expect(escapeText('a lone @, pass@1, a@b.example and #123 stay')).toBe(
      'a lone @, pass@1, a@b.example and #123 stay',
    );
  });
});
