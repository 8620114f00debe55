// biome-ignore-all lint/performance/useDomNodeTextContent: the test checks what a reader sees, which is innerText
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readCassette } from '../../replay/cassette-file.js';
import type { TraceEvent } from '../../runtime/trace.js';
import type { TrialRecord } from '../spec/trial-record.js';
import {
  decodeCassette,
  type TrialTranscript,
  trialTranscript,
} from '../transcript/transcript-formats.js';
import { buildReport } from './build-report.js';
import { type HtmlTrial, renderHtml } from './html.js';
import {
  browserAvailable,
  openViewerBrowser,
  projectRoot,
  shownTrials,
  type ViewerBrowser,
} from './testing/browser.js';
import { weatherCassette } from './testing/chat-cassettes.js';
import { makeRecord } from './testing/records.js';
import { responsesCassette } from './testing/responses-cassette.js';

/**
 * The viewer with what one eval of T1 does not show: three variants of a task, every
 * transcript format (Messages, Chat Completions, Responses, an adapter's trace, a format nothing decodes),
 * row marks, and 2,000 trials in the list.
 */
const adapterTrace: TraceEvent[] = [
  {
    type: 'run_start',
    run_id: 'W1-v1-1',
    task: 'W1',
    variant: 'v1',
    model: 'gpt-test',
    mode: 'adapter',
    system_chars: 0,
    ts: '2026-01-01T00:00:00.000Z',
  },
  {
    type: 'tool_call',
    step: 0,
    tool: 'get_weather',
    input: { city: 'Oslo' },
    decision: 'allow',
    is_error: false,
    ms: 0,
    result_chars: 0,
  },
];

async function messagesTrial(variant: string, trial: number): Promise<TrialTranscript> {
  const file = join(projectRoot, 'fixtures/T1', variant, `trial-${trial}.json`);
  return trialTranscript(await readCassette(file), []);
}

const LONG_ANSWER = 'a very long answer line\n'.repeat(12_500);

/** The trial with an answer of 300,000 characters. */
function withLongAnswer(trial: HtmlTrial): HtmlTrial {
  const loaded = trial.transcript;
  if (!('transcript' in loaded)) throw new Error('no transcript');
  return {
    ...trial,
    transcript: { ...loaded, transcript: { ...loaded.transcript, finalAnswer: LONG_ANSWER } },
  };
}

async function trials(): Promise<HtmlTrial[]> {
  const t1 = async (variant: string, trial: number, record: Partial<TrialRecord>) => ({
    record: makeRecord({ variant, trial, ...record }),
    transcript: await messagesTrial(variant === 'strict' ? 'upgraded' : variant, trial),
  });
  const weather = { suite: 'weather', task: 'W1', title: 'weather', variant: 'v1' };
  return [
    await t1('baseline', 1, {
      outcome: 'failed',
      messages: ['no Overdue'],
      expected: 'Overdue, refund in 3 days',
      judgments: [
        {
          check: 'polite',
          verdict: 'fail',
          score: 0.4,
          threshold: 0.7,
          votes: { pass: 1, fail: 2 },
          models: ['claude-judge'],
          samples: [
            { model: 'claude-judge', sample: 1, label: 'pass', score: 0.8, reasoning: 'kind tone' },
            { model: 'claude-judge', sample: 2, label: 'fail', score: 0.2, reasoning: 'curt' },
            { model: 'claude-judge', sample: 3, error: 'no tool call' },
          ],
          calls: 'replayed',
        },
      ],
    }),
    await t1('baseline', 2, { outcome: 'failed', messages: ['no Overdue'] }),
    await t1('baseline', 3, {}),
    await t1('upgraded', 1, {}),
    await t1('upgraded', 2, {}),
    await t1('upgraded', 3, { outcome: 'stale', messages: ['request 1 differs'] }),
    await t1('strict', 1, {}),
    await t1('strict', 2, { model: 'claude-other' }),
    withLongAnswer(await t1('strict', 3, {})),
    {
      record: makeRecord({ ...weather, trial: 1 }),
      transcript: { ...decodeCassette(weatherCassette(), adapterTrace), trace: adapterTrace },
    },
    {
      record: makeRecord({ ...weather, trial: 2 }),
      transcript: { ...decodeCassette(unknownFormatCassette(), adapterTrace), trace: adapterTrace },
    },
    // Written by a later version: a format this page has no renderer for.
    {
      record: makeRecord({ ...weather, trial: 3 }),
      transcript: {
        format: 'judge-calls',
        transcript: { system: '', user: '', turns: [], finalAnswer: '' },
      },
    },
    {
      record: makeRecord({ ...weather, trial: 4 }),
      transcript: trialTranscript(responsesCassette(), []),
    },
  ];
}

/** A cassette of an API no transcript decodes: the weather run's calls, sent to /v1/complete. */
function unknownFormatCassette() {
  const cassette = weatherCassette();
  return {
    ...cassette,
    exchanges: cassette.exchanges.map((exchange) => ({
      ...exchange,
      request: { ...exchange.request, path: '/v1/complete' },
    })),
  };
}

describe.skipIf(!browserAvailable)(
  'the viewer with three variants and every transcript format',
  () => {
    let dir: string;
    let file: string;
    let browser: ViewerBrowser;

    beforeAll(async () => {
      dir = mkdtempSync(join(tmpdir(), 'html-viewer-'));
      file = join(dir, 'latest.html');
      const shown = await trials();
      const records = shown.map((trial) => trial.record);
      const report = buildReport({ records, trials: 3, floors: [], generatedAt: 'now' });
      writeFileSync(file, renderHtml(report, shown));
      browser = await openViewerBrowser();
      await browser.open(file);
    }, 120_000);

    afterAll(async () => {
      await browser?.close();
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    it('gives each variant its row and its Δ against the baseline, in the scores and the suite summary', async () => {
      const { page } = browser;
      const t1 = page.locator('[data-testid=score-row][data-task=T1]');
      expect(await t1.evaluateAll((nodes) => nodes.map((node) => node.dataset.variant))).toEqual([
        'baseline',
        'strict',
        'upgraded',
      ]);
      expect(await t1.getByTestId('delta').allInnerTexts()).toEqual([
        '',
        expect.stringMatching(/^\+0\.67 \[[^\]]+\]( ~)?$/),
        expect.stringMatching(/^\+0\.67 \[[^\]]+\]( ~)?$/),
      ]);
      const sentences = await page.getByTestId('suite-delta').allInnerTexts();
      expect(sentences).toEqual([
        expect.stringMatching(
          /^refund-desk strict vs baseline \(1 task, paired\): Δ pass@1 \+0\.67/,
        ),
        expect.stringMatching(
          /^refund-desk upgraded vs baseline \(1 task, paired\): Δ pass@1 \+0\.67/,
        ),
      ]);
      await browser.screenshot('variants');
    }, 60_000);

    it('marks the row that mixed models and the row with a fixture problem', async () => {
      const marks = browser.page.getByTestId('mark');
      expect(
        await marks.evaluateAll((nodes) =>
          nodes.map((node) => [
            node.closest('tr')?.dataset.variant,
            node.dataset.kind,
            node.textContent,
          ]),
        ),
      ).toEqual([
        ['strict', 'mixed-models', 'mixed models: claude-other, claude-sonnet-4-5'],
        ['upgraded', 'fixture-problems', 'fixture problems: 1 stale'],
      ]);
      expect(await marks.first().getAttribute('title')).toContain('different models');
    }, 60_000);

    it('plots a Δ for each variant against the baseline', async () => {
      const { page } = browser;
      await page.getByTestId('nav-plots').click();
      expect(await page.getByTestId('forest-row').allTextContents()).toEqual([
        expect.stringContaining('refund-desk · strict (1 task)'),
        expect.stringContaining('T1 strict'),
        expect.stringContaining('refund-desk · upgraded (1 task)'),
        expect.stringContaining('T1 upgraded'),
      ]);
      expect(await page.getByTestId('plot-passk').count()).toBe(2);
      await page.getByTestId('plot-task').selectOption('W1');
      expect(await page.getByTestId('plot-distribution').first().getAttribute('aria-label')).toBe(
        'Model latency per trial, per variant (W1)',
      );
    }, 60_000);

    it('shows a Chat Completions transcript and the adapter trace beside it', async () => {
      const { page } = browser;
      await browser.open(file, '#trial=weather/W1/v1/1');
      const pane = page.getByTestId('transcript');
      expect(await pane.locator('[data-format]').getAttribute('data-format')).toBe(
        'openai-chat-completions',
      );
      expect(await pane.getByTestId('final-answer').innerText()).toBe(
        'It is 4 °C and raining in Oslo.',
      );
      const trace = pane.getByTestId('trace');
      expect(await trace.locator('summary').innerText()).toBe(
        'Adapter trace: tool calls as the adapter reported them (2 events)',
      );
      expect(await trace.getAttribute('open')).toBeNull();
    }, 60_000);

    it('names a format it cannot show instead of an empty transcript, and opens the trace', async () => {
      const { page } = browser;
      await browser.open(file, '#trial=weather/W1/v1/2');
      const pane = page.getByTestId('transcript');
      expect(await pane.getByTestId('unknown-format').locator('strong').innerText()).toBe(
        'this transcript format cannot be shown: POST /v1/complete',
      );
      expect(await pane.getByTestId('turn').count()).toBe(0);
      const trace = pane.getByTestId('trace');
      expect(await trace.getAttribute('open')).not.toBeNull();
      expect(await trace.getByTestId('trace-event').nth(1).innerText()).toContain('get_weather');
      expect(await trace.getByTestId('trace-event').nth(1).innerText()).toContain('"city": "Oslo"');
      await browser.screenshot('unknown-format');
      // The page's own registry: a format it has no renderer for is named too.
      await page.keyboard.press('j');
      expect(await shownTrials(page)).toEqual(['W1 v1 trial 3']);
      expect(await pane.getByTestId('unknown-format').innerText()).toContain(
        'this transcript format cannot be shown: judge-calls',
      );
    }, 60_000);

    it('shows a Responses API transcript: its instructions, the call with its output, the answer', async () => {
      const { page } = browser;
      await browser.open(file, '#trial=weather/W1/v1/4');
      const pane = page.getByTestId('transcript');
      expect(await pane.locator('[data-format]').getAttribute('data-format')).toBe(
        'openai-responses',
      );
      expect(await pane.getByTestId('turn').count()).toBe(2);
      expect(await pane.innerText()).toContain('get_weather');
      expect(await pane.innerText()).toContain('Oslo: 4 °C, rain');
      expect(await pane.getByTestId('final-answer').innerText()).toBe(
        'It is 4 °C and raining in Oslo.',
      );
      await browser.screenshot('responses-transcript');
    }, 60_000);

    // Issue 33: the trial view showed neither the case's expected nor the trial's judge votes.
    it("shows the trial's expected answer and each judge sample's vote", async () => {
      const { page } = browser;
      await browser.open(file, '#trial=refund-desk/T1/baseline/1');
      const pane = page.getByTestId('transcript');
      expect(await pane.getByTestId('expected').innerText()).toContain('Overdue, refund in 3 days');
      const votes = await pane.getByTestId('judge-votes').innerText();
      expect(votes).toContain('polite: fail (1 pass, 2 fail; mean score 0.40, threshold 0.70)');
      expect(votes).toContain('claude-judge #1: pass 0.80 (kind tone)');
      expect(votes).toContain('claude-judge #2: fail 0.20 (curt)');
      expect(votes).toContain('claude-judge #3: error: no tool call');
    }, 60_000);

    // Issue 33: comparing two trials showed them side by side with nothing marking what differs.
    it('marks what differs between two compared trials, and nothing when they are the same', async () => {
      const { page } = browser;
      await browser.open(file, '#compare=refund-desk/T1/baseline/1,refund-desk/T1/upgraded/1');
      const panes = page.getByTestId('side-by-side').getByTestId('transcript');
      expect(await panes.count()).toBe(2);
      for (const at of [0, 1]) {
        expect(await panes.nth(at).locator('.differs').count()).toBeGreaterThan(0);
        expect(await panes.nth(at).getByTestId('final-answer').getAttribute('class')).toContain(
          'differs',
        );
      }
      // strict trial 1 replays upgraded trial 1's cassette: the same transcript.
      await browser.open(file, '#compare=refund-desk/T1/upgraded/1,refund-desk/T1/strict/1');
      expect(await page.getByTestId('side-by-side').locator('.differs').count()).toBe(0);
    }, 60_000);

    it('shows the head of a very long text and the rest on request', async () => {
      const { page } = browser;
      await browser.open(file, '#trial=refund-desk/T1/strict/3');
      const answer = page.getByTestId('final-answer');
      expect((await answer.textContent())?.length).toBe(100_000);
      await page.getByRole('button', { name: 'show the other 200,000 characters' }).click();
      expect(await answer.textContent()).toBe(LONG_ANSWER);
    }, 60_000);

    it('logged no error and fetched nothing', () => {
      expect(browser.problems).toEqual([]);
      expect(browser.requests.filter((url) => !url.startsWith('file://'))).toEqual([]);
    });
  },
);

describe.skipIf(!browserAvailable)('the viewer with 2,000 trials', () => {
  let dir: string;
  let browser: ViewerBrowser;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'html-viewer-'));
    const transcript = await messagesTrial('upgraded', 1);
    const shown: HtmlTrial[] = [];
    for (const task of ['T1', 'T2', 'T3', 'T4', 'T5']) {
      for (const variant of ['baseline', 'upgraded']) {
        for (let trial = 1; trial <= 200; trial += 1) {
          const outcome = trial % 7 === 0 ? 'failed' : 'passed';
          shown.push({ record: makeRecord({ task, variant, trial, outcome }), transcript });
        }
      }
    }
    const records = shown.map((trial) => trial.record);
    const report = buildReport({ records, trials: 200, floors: [], generatedAt: 'now' });
    writeFileSync(join(dir, 'latest.html'), renderHtml(report, shown));
    browser = await openViewerBrowser();
    await browser.open(join(dir, 'latest.html'), '#trials');
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('keeps only the rows in sight in the page, and finds a trial far down by filter and keys', async () => {
    const { page } = browser;
    expect(await page.getByTestId('trial-count').innerText()).toBe('2000 of 2000 trials');
    const rendered = await page.locator('.list .row').count();
    expect(rendered).toBeGreaterThan(20);
    expect(rendered).toBeLessThan(120);
    await page.keyboard.press('/');
    await page.keyboard.type('task:T5 variant:upgraded outcome:failed');
    await page.keyboard.press('Enter');
    expect(await page.getByTestId('trial-count').innerText()).toBe('28 of 2000 trials');
    await page.keyboard.press('k');
    expect(await shownTrials(page)).toEqual(['T5 upgraded trial 7']);
    for (let press = 0; press < 27; press += 1) await page.keyboard.press('j');
    expect(await shownTrials(page)).toEqual(['T5 upgraded trial 196']);
    expect(await page.locator('[aria-selected=true]').getAttribute('data-trial')).toBe(
      'T5 upgraded trial 196',
    );
    await page.getByTestId('trial-filter').fill('');
    await page.getByTestId('trial-list').evaluate((node) => {
      node.scrollTop = node.scrollHeight;
    });
    await page.locator('[data-testid=trial-row][data-trial="T5 upgraded trial 200"]').waitFor();
    await browser.screenshot('trials-2000');
    expect(browser.problems).toEqual([]);
  }, 60_000);
});
