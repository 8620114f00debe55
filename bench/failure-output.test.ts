import { describe, expect, it } from 'vitest';
import { whyItFailed } from './failure-output.js';

describe('whyItFailed', () => {
  it("shows the gate's reasons from the middle of a long output, and its last lines", () => {
    const output = [
      'T1 upgraded trial 1: passed',
      'gate: failed',
      '  - T2 upgraded trial 601 was edited after it was recorded',
      ...Array.from({ length: 400 }, (_, index) => `│ row ${index} │ 3/3 │`),
      'written: reports/latest.md',
    ].join('\n');
    // The break: the last 2,000 characters were table rows, never the reason.
    expect(output.slice(-2000)).not.toContain('edited');
    const shown = whyItFailed(output);
    expect(shown).toContain('  gate: failed');
    expect(shown).toContain('T2 upgraded trial 601 was edited after it was recorded');
    expect(shown).toContain('  written: reports/latest.md');
    expect(shown.split('\n').length).toBeLessThan(30);
  });
});
