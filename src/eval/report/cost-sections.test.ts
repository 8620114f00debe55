import { describe, expect, it } from 'vitest';
import type { TrialRecord } from '../spec/trial-record.js';
import { buildReport } from './build-report.js';
import { renderHtml } from './html.js';
import { renderMarkdown } from './markdown.js';
import { renderPrComment } from './pr-comment.js';
import { parseReport } from './report-schema.js';
import { renderTerminal } from './terminal.js';
import { makeRecord } from './testing/records.js';

/** 10,000 input and 1,000 output tokens: $0.045 on claude-sonnet-4-5 ($3 / $15 per million). */
function trial(overrides: Partial<TrialRecord>): TrialRecord {
  const base = makeRecord({ source: 'live' });
  return {
    ...base,
    stats: { ...base.stats!, inputTokens: 10_000, outputTokens: 1000 },
    ...overrides,
  };
}

const records = [
  trial({ variant: 'baseline', trial: 1 }),
  trial({ variant: 'baseline', trial: 2, outcome: 'failed' }),
  trial({ variant: 'upgraded', trial: 1 }),
  trial({ variant: 'upgraded', trial: 2 }),
  trial({ task: 'T2', variant: 'upgraded', trial: 1, model: 'claude-opus-5' }),
  trial({ task: 'T3', variant: 'upgraded', trial: 1, source: 'simulator' }),
];
const replayed = buildReport({ records, trials: 2, floors: [], generatedAt: 'now' });

describe('the cost section', () => {
  it('shows per row its trials, the mean per trial and the recorded total, in the terminal', () => {
    const text = renderTerminal(replayed);
    expect(text).toContain('Cost in US dollars, from the recorded token counts');
    expect(text).toMatch(/T1\s+│\s+baseline\s+│\s+2\s+│\s+\$0\.045\s+│\s+\$0\.090\s+│\s+—/);
    expect(text).toMatch(/T2\s+│\s+upgraded\s+│\s+1\s+│\s+unknown\s+│\s+unknown/);
    expect(text).toMatch(/T3\s+│\s+upgraded\s+│\s+1\s+│\s+≈\$0\.045\s+│\s+≈\$0\.045/);
  });

  it('shows per variant and per run, with what recording cost apart from what this run spent', () => {
    const text = renderTerminal(replayed);
    expect(text).toMatch(/refund-desk\s+│\s+baseline\s+│\s+2\s+│\s+\$0\.045\s+│\s+\$0\.090/);
    expect(text).toMatch(/refund-desk\s+│\s+upgraded\s+│\s+4\s+│\s+unknown/);
    expect(text).toContain('Recording these trials cost unknown (6 trials)');
    expect(text).toContain('This run cost $0: it replayed recorded trials');
    expect(text).toContain(
      'unknown: no price for claude-opus-5; add it to harness-evals.prices.json',
    );
    expect(text).toContain('≈: simulator token counts are estimates, so is their cost');
    expect(text.replace(/\s+/g, ' ')).toContain(
      'claude-sonnet-4-5 $3.00 / $15.00 / $3.75 / $0.30 (built in, entered by hand 2026-12-07: check them)',
    );
  });

  it('says what a recording run spent on the trials it wrote', () => {
    const recorded = records.slice(0, 2).map((record) => ({ ...record, written: true }));
    const report = buildReport({ records: recorded, trials: 2, floors: [], generatedAt: 'now' });
    expect(renderTerminal(report)).toContain('This run cost $0.090 for the 2 trials it recorded.');
  });

  it('is in the markdown, the HTML and the PR comment too', () => {
    const markdown = renderMarkdown(replayed);
    expect(markdown).toContain('## Cost in US dollars, from the recorded token counts');
    expect(markdown).toContain('| T1 | baseline | 2 | $0.045 | $0.090 | — |');
    expect(markdown).toContain('| refund-desk | upgraded | 4 | unknown | unknown | — |');
    const html = renderHtml(replayed, []);
    expect(html).toContain(
      '"head":["Task","Variant","Trials","Per trial","Recorded","Judges (recorded)"]',
    );
    expect(html).toContain('["T1","baseline","2","$0.045","$0.090","—"]');
    expect(html).toContain('This run cost $0: it replayed recorded trials');
    const comment = renderPrComment(replayed);
    expect(comment).toContain('Recording these trials cost unknown (6 trials)');
    expect(comment).toContain('| T1 | upgraded | 2 | $0.045 | $0.090 | — |');
  });

  it("puts each trial's own cost in the HTML's trial view", () => {
    const html = renderHtml(
      replayed,
      records.map((record) => ({ record, transcript: { unavailable: 'not read in this test' } })),
    );
    const details = [...html.matchAll(/id="trial-\d+">(.*?)<\/script>/g)].map(
      (match) => JSON.parse(match[1]!) as { task: string; trial: number; cost?: string },
    );
    expect(details.map((detail) => [detail.task, detail.trial, detail.cost])).toEqual([
      ['T1', 1, '$0.045'],
      ['T1', 2, '$0.045'],
      ['T1', 1, '$0.045'],
      ['T1', 2, '$0.045'],
      ['T2', 1, 'unknown'],
      ['T3', 1, '≈$0.045'],
    ]);
  });

  it('is left out for a report from before costs (schemaVersion 3), which still renders', () => {
    const { cost: _cost, ...rest } = replayed;
    const old = parseReport(
      {
        ...rest,
        schemaVersion: 3,
        tasks: replayed.tasks.map(({ cost: _row, ...row }) => row),
        summary: replayed.summary.map(({ cost: _row, ...row }) => row),
      },
      'reference.json',
    );
    expect(renderTerminal(old)).not.toContain('Cost in US dollars');
    expect(renderPrComment(old)).not.toContain('Recording these trials cost');
  });
});
