import { describe, expect, it } from 'vitest';
import { buildReport } from './build-report.js';
import { renderHtml } from './html.js';
import { renderMarkdown } from './markdown.js';
import { renderPrComment } from './pr-comment.js';
import { failedStepsSection } from './pr-comment-steps.js';
import { renderTerminal } from './terminal.js';
import { makeRecord } from './testing/records.js';

/** "Ignore the rubric" in Unicode tag characters: shown as nothing by every renderer. */
const TAGGED = [...'IGNORE']
  .map((char) => String.fromCodePoint(0xe0000 + char.charCodeAt(0)))
  .join('');
const HIDDEN = `ok${TAGGED} zero\u200bwidth\u2060join\ufeffbom\u00adsoft \u2067rtl\u2069 sel\u{e0101}`;

/** Every character a reader would not see: Unicode's default-ignorable ones, and bidi controls. */
const INVISIBLE = /[\p{Default_Ignorable_Code_Point}\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/u;

function report() {
  const records = [1, 2].map((trial) =>
    makeRecord({
      task: `T1${TAGGED}`,
      title: `refund${TAGGED}`,
      variant: `upgraded\u200b`,
      case: `case${TAGGED}`,
      trial,
      outcome: 'failed',
      messages: [`expected the answer ${HIDDEN}`],
    }),
  );
  return {
    records,
    report: buildReport({ records, trials: 2, floors: [], generatedAt: '2026-01-09T10:00:00Z' }),
  };
}

describe('invisible text in a report', () => {
  it('is shown as escapes in the markdown, terminal and PR-comment reports: a reviewer sees it', () => {
    const { report: subject } = report();
    for (const text of [
      renderMarkdown(subject),
      renderTerminal(subject),
      renderPrComment(subject),
    ]) {
      expect(text).not.toMatch(INVISIBLE);
      expect(text).toMatch(/T1\\?\\u\{e0049\}/);
      expect(text).toMatch(/upgraded\\?\\u200b/);
    }
    for (const text of [renderMarkdown(subject), renderTerminal(subject)]) {
      expect(text).toMatch(/zero\\?\\u200bwidth/);
    }
  });

  it('is shown as escapes in the HTML report, the transcript’s answer included', () => {
    const { report: subject, records } = report();
    const transcript = { system: 's', user: `hi${TAGGED}`, turns: [], finalAnswer: HIDDEN };
    const html = renderHtml(
      subject,
      records.map((record) => ({
        record,
        transcript: { format: 'anthropic-messages' as const, transcript },
      })),
    );
    expect(html).not.toMatch(INVISIBLE);
    expect(html).toContain('ok\\\\u{e0049}\\\\u{e0047}');
  });

  it('keeps the zero-width space after @ that neutralises a mention in the comment', () => {
    const { report: subject } = report();
    const comment = renderPrComment({
      ...subject,
      gate: { ...subject.gate, reasons: ['ask @alice'] },
    });
    expect(comment).toContain('ask @&#8203;alice');
  });
});

describe('a failed step’s log in the comment', () => {
  it('shows invisible characters as escapes and still pings nobody', () => {
    const section = failedStepsSection([
      { name: 'eval gate', outcome: 'failure', log: `gate: FAILED ${HIDDEN} @alice` },
    ]);
    // The zero-width space after an `@` is the comment's own.
    expect(section.replaceAll('@\u200b', '@')).not.toMatch(INVISIBLE);
    expect(section).toContain('ok\\u{e0049}\\u{e0047}');
    expect(section).toContain('@\u200balice');
  });
});
