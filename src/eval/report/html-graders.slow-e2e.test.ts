// biome-ignore-all lint/performance/useDomNodeTextContent: the test checks what a reader sees, which is innerText
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { judgmentOf } from '../spec/judgment.js';
import type { TrialRecord } from '../spec/trial-record.js';
import { buildReport } from './build-report.js';
import { renderHtml } from './html.js';
import { browserAvailable, openViewerBrowser, type ViewerBrowser } from './testing/browser.js';
import { makeRecord } from './testing/records.js';

/** The graders' panel of the HTML report in a real browser: below the viewer, never over it. */

const PAYLOAD = '<img src=x onerror=alert(1)> says the card 6222020200112233445';

function judged(variant: string, trial: number, label: 'pass' | 'fail', reasoning: string) {
  const judgment = judgmentOf(
    {
      check: 'polite-refusal',
      threshold: 0.5,
      models: ['claude-sonnet-5'],
      calls: 'replayed',
      source: 'simulator',
    },
    [{ model: 'claude-sonnet-5', sample: 1, label, score: label === 'pass' ? 1 : 0, reasoning }],
  );
  return makeRecord({
    task: 'T7',
    variant,
    trial,
    outcome: label === 'pass' ? 'passed' : 'failed',
    judgments: [judgment],
    scores: [
      {
        name: 'polite-refusal',
        value: judgment.score ?? 0,
        threshold: 0.5,
        passed: label === 'pass',
        source: 'judge',
      },
    ],
  });
}

describe.skipIf(!browserAvailable)('the graders in the HTML report', () => {
  let dir: string;
  let file: string;
  let browser: ViewerBrowser;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'html-graders-'));
    file = join(dir, 'latest.html');
    // Enough trials that the open panel is taller than the window: it must scroll, not push.
    const records: TrialRecord[] = [
      judged('upgraded', 1, 'pass', PAYLOAD),
      ...Array.from({ length: 40 }, (_, index) => [
        judged('baseline', index + 1, 'fail', 'claims it resubmitted'),
        judged('upgraded', index + 2, 'pass', 'declines and says why'),
      ]).flat(),
    ];
    const report = buildReport({ records, trials: 41, floors: [], generatedAt: 'now' });
    const trials = records.map((record) => ({ record, transcript: { unavailable: 'not read' } }));
    writeFileSync(file, renderHtml(report, trials));
    browser = await openViewerBrowser();
    await browser.open(file);
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('folds the graders below the viewer, which keeps its room whether the panel is open or not', async () => {
    const { page } = browser;
    const viewHeight = async () => (await page.locator('#view').boundingBox())?.height ?? 0;
    expect(await viewHeight()).toBeGreaterThan(500);
    await page.locator('#graders > details > summary').click();
    await page.getByTestId('judged-trials').locator('summary').click();
    expect(await page.getByTestId('judges').isVisible()).toBe(true);
    expect(await viewHeight()).toBeGreaterThan(300);
    await browser.screenshot('graders');
    expect(browser.problems).toEqual([]);
  });

  // Issue 33: the judges drawer and the header squeezed the trial view to 200-400 px.
  it('gives the header and the open judges drawer together at most a third of the window', async () => {
    const { page } = browser;
    const height = async (selector: string) =>
      (await page.locator(selector).boundingBox())?.height ?? 0;
    // A header far taller than the window (many provenance lines, warnings).
    await page.evaluate(
      "for (let i = 0; i < 60; i += 1) document.getElementById('header').append(Object.assign(document.createElement('p'), { textContent: 'a long provenance line' }))",
    );
    for (const size of [
      { width: 1280, height: 800 },
      { width: 1000, height: 600 },
    ]) {
      await page.setViewportSize(size);
      if (!(await page.getByTestId('judges').isVisible())) {
        await page.locator('#graders > details > summary').click();
      }
      const taken = (await height('#header')) + (await height('#graders'));
      expect(taken).toBeLessThanOrEqual(size.height / 3 + 1);
    }
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  it('shows the mean scores and the judge, and a reasoning as inert, redacted text', async () => {
    const { page } = browser;
    const scores = await page.getByTestId('score-means').innerText();
    expect(scores).toMatch(/T7\s+upgraded\s+polite-refusal \(judge\)\s+1\.00 \[0\.91, 1\.00\]/);
    expect(await page.getByTestId('judges').innerText()).toContain('claude-sonnet-5 × 1');
    const verdicts = await page.getByTestId('judged-trials').innerText();
    expect(verdicts).toContain('<img src=x onerror=alert(1)> says the card 6222****3445');
    expect(await page.locator('#graders img').count()).toBe(0);
    expect(browser.problems).toEqual([]);
  });
});
