import { describe, expect, it } from 'vitest';
import { lineDiff } from './line-diff.js';

describe('lineDiff', () => {
  it('shows added lines with the context around them', () => {
    expect(lineDiff('a\nb\nc', 'a\nb\nnew\nc')).toBe('  a\n  b\n+ new\n  c');
  });

  it('caps a long changed block', () => {
    const many = Array.from({ length: 10 }, (_, i) => `line ${i}`).join('\n');
    const diff = lineDiff('', many).split('\n');
    expect(diff.filter((line) => line.startsWith('+ '))).toHaveLength(7);
    expect(diff.at(-1)).toBe('+ ... (4 more lines)');
  });

  it('cuts a long single line to a window around the first difference', () => {
    const recorded = `${'x'.repeat(500)}OLD${'y'.repeat(500)}`;
    const diff = lineDiff(recorded, recorded.replace('OLD', 'NEW'));
    const [minus, plus] = diff.split('\n');
    expect(minus).toMatch(/^- \.\.\.x+OLDy+\.\.\.$/);
    expect(plus).toMatch(/^\+ \.\.\.x+NEWy+\.\.\.$/);
    expect(minus!.length).toBeLessThan(200);
  });
});
