import { describe, expect, it } from 'vitest';
import { escapeForTerminal, showInvisible } from './terminal-text.js';

const ESC = '\u001b';

describe('escapeForTerminal', () => {
  it('shows escape sequences as visible text: clipboard writes, titles, screen clears', () => {
    const evil = `${ESC}]52;c;Y3VybA==\u0007${ESC}]0;PWNED\u0007${ESC}[2J${ESC}[31mget_order`;
    expect(escapeForTerminal(evil)).toBe(
      '\\u001b]52;c;Y3VybA==\\u0007\\u001b]0;PWNED\\u0007\\u001b[2J\\u001b[31mget_order',
    );
  });

  it('escapes DEL, the C1 controls (a lone CSI) and bidirectional overrides', () => {
    expect(escapeForTerminal('a\u007fb\u009b2Jc\u202eevil\u2066x')).toBe(
      'a\\u007fb\\u009b2Jc\\u202eevil\\u2066x',
    );
  });

  it('escapes line breaks, tabs and carriage returns on one line', () => {
    expect(escapeForTerminal('a\nb\tc\rd\r\ne\u2028')).toBe('a\\nb\\tc\\rd\\r\\ne\\u2028');
  });

  it('keeps line feeds, tabs and CRLF in multi-line text, but not a lone carriage return', () => {
    expect(escapeForTerminal('a\nb\tc\r\nd\rspoofed', { lines: true })).toBe(
      'a\nb\tc\r\nd\\rspoofed',
    );
  });

  it('returns ordinary text unchanged, accents, CJK and emoji included', () => {
    const text = 'Refund of 12,50 € für Zoë: 已退款 ✅ (ORD1001)';
    expect(escapeForTerminal(text)).toBe(text);
  });
});

describe('invisible characters', () => {
  it('are escaped: tag characters, zero-width spaces and joiners, BOM, soft hyphen, selectors', () => {
    const text = `a\u{e0041}\u{e0042}b\u200bc\u200dd\u2060e\ufefff\u00adg\u{e0100}h\u180ei`;
    const shown =
      '\\u{e0041}\\u{e0042}b\\u200bc\\u200dd\\u2060e\\ufefff\\u00adg\\u{e0100}h\\u180ei';
    expect(escapeForTerminal(text)).toBe(`a${shown}`);
    expect(escapeForTerminal(text, { lines: true })).toBe(`a${shown}`);
    expect(showInvisible(text)).toBe(`a${shown}`);
  });

  it('leave emoji sequences whole: a joiner between emoji, the emoji presentation selector', () => {
    const family = '👨\u200d👩\u200d👧 ❤\ufe0f';
    expect(showInvisible(family)).toBe(family);
    expect(escapeForTerminal(family)).toBe(family);
  });
});
