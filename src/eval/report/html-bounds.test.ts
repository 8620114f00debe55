import { describe, expect, it } from 'vitest';
import { buildReport } from './build-report.js';
import { renderHtml } from './html.js';
import { makeRecord } from './testing/records.js';

const ANSWER = 'The refund is overdue. '.repeat(220_000); // ≈5 MB

function render(answer: string, turns = 1) {
  const record = makeRecord({ outcome: 'failed', messages: [`expected: ${answer}`] });
  const transcript = {
    system: 's',
    user: 'hi',
    turns: Array.from({ length: turns }, () => ({
      blocks: [{ kind: 'text' as const, text: answer }],
    })),
    finalAnswer: answer,
  };
  const report = buildReport({ records: [record], trials: 1, floors: [], generatedAt: 'now' });
  return renderHtml(report, [
    { record, transcript: { format: 'anthropic-messages', transcript } as never },
  ]);
}

describe('the HTML report of a trial with a huge answer', () => {
  it('embeds a bounded head of each text, with how much was kept and the cassette to read', () => {
    const html = render(ANSWER);
    expect(html.length).toBeLessThan(1_600_000);
    expect(html).toContain(
      `[truncated: 500000 of ${ANSWER.length} characters kept; the whole text: fixtures/T1/upgraded/trial-1.json]`,
    );
  });

  it('bounds the trial as a whole: many long turns embed at most two million characters', () => {
    const html = render('x'.repeat(150_000), 40);
    expect(html.length).toBeLessThan(2_100_000);
    expect(html).toContain('[truncated: 0 of 150000 characters kept; the whole text:');
  });

  it('embeds a text under the bound whole', () => {
    const text = 'y'.repeat(150_000);
    const html = render(text);
    expect(html).toContain(`"finalAnswer":"${text}"`);
    expect(html).not.toContain('[truncated:');
  });
});
