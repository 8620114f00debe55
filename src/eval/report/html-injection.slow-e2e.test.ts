// biome-ignore-all lint/performance/useDomNodeTextContent: the test checks what a reader sees, which is innerText
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TraceEvent } from '../../runtime/trace.js';
import type { Transcript } from '../transcript/transcript.js';
import { buildReport } from './build-report.js';
import { type HtmlTrial, renderHtml } from './html.js';
import { browserAvailable, openViewerBrowser, type ViewerBrowser } from './testing/browser.js';
import { makeRecord } from './testing/records.js';

/**
 * Hostile text in every field the viewer shows (a shard file or a cassette edited by anyone):
 * each payload tries to run script or add markup, in every view. None may run or become markup;
 * each must show as the text it is.
 */
const PAYLOADS = [
  '<img src=x onerror="window.__ran=(window.__ran||0)+1">',
  '</script><script>window.__ran=(window.__ran||0)+1</script>',
  '"><svg onload="window.__ran=(window.__ran||0)+1">',
  '\'><iframe srcdoc="<script>parent.__ran=1</script>"></iframe>',
  '<a href="javascript:window.__ran=1" id="evil-link">x</a>',
  '<style>body{display:none}</style><base href="http://example.invalid/">',
  '__proto__',
  'javascript:window.__ran=1',
];

function hostileTranscript(payload: string): Transcript {
  const call = { name: payload, input: payload, decision: payload, result: payload, ms: 1 };
  return {
    system: payload,
    user: payload,
    turns: [
      {
        step: 1,
        stopReason: payload,
        blocks: [
          { kind: 'text', text: payload },
          { kind: 'thinking', text: payload },
          { kind: 'tool', call },
        ],
        tokens: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0 },
        latencyMs: 1,
        error: payload,
      },
    ],
    finalAnswer: payload,
  };
}

function hostileTrace(payload: string): TraceEvent[] {
  return [
    {
      type: 'run_start',
      run_id: payload,
      variant: payload,
      model: payload,
      mode: payload,
    } as TraceEvent,
    {
      type: 'tool_call',
      step: 1,
      tool: payload,
      input: { [payload]: payload },
      decision: payload,
    } as TraceEvent,
    { type: payload, step: payload } as unknown as TraceEvent,
  ];
}

/** Each payload in a suite of its own: suite, task, title, variant, messages, paths, model, format. */
function hostileTrials(): HtmlTrial[] {
  return PAYLOADS.flatMap((payload, index) =>
    ['baseline', payload].map((variant, at) => ({
      record: makeRecord({
        suite: `${payload} ${index}`,
        task: payload,
        title: payload,
        variant,
        trial: 1,
        outcome: at === 0 ? 'failed' : 'stale',
        messages: [payload],
        model: payload,
        fixture: payload,
        tracePath: payload,
      }),
      transcript:
        at === 0
          ? {
              format: 'anthropic-messages',
              transcript: hostileTranscript(payload),
              trace: hostileTrace(payload),
            }
          : { format: payload, undecoded: payload, trace: hostileTrace(payload) },
    })),
  );
}

describe.skipIf(!browserAvailable)('the viewer with hostile text in every field', () => {
  let dir: string;
  let file: string;
  let browser: ViewerBrowser;
  let views = 0;

  /** Nothing ran, nothing became markup, the page is still shown. */
  async function expectInert(): Promise<void> {
    const { page } = browser;
    const found: Record<string, unknown> = await page.evaluate(`({
      ran: window.__ran,
      scripts: document.scripts.length,
      injected: document.querySelectorAll('img, iframe, base, body style, a#evil-link, svg:not([data-testid])').length,
      handlers: [...document.querySelectorAll('*')].filter((node) =>
        [...node.attributes].some((attribute) => attribute.name.startsWith('on'))).length,
      hrefs: [...document.querySelectorAll('[href]')].map((node) => node.getAttribute('href'))
        .filter((href) => !href.startsWith('#')),
      shown: getComputedStyle(document.body).display,
    })`);
    expect(found).toEqual({
      ran: undefined,
      scripts: 3 + PAYLOADS.length * 2,
      injected: 0,
      handlers: 0,
      hrefs: [],
      shown: 'flex',
    });
    views += 1;
  }

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'html-injection-'));
    file = join(dir, 'latest.html');
    const trials = hostileTrials();
    const records = trials.map((trial) => trial.record);
    const report = buildReport({ records, trials: 1, floors: [], generatedAt: PAYLOADS[0]! });
    writeFileSync(file, renderHtml(report, trials));
    browser = await openViewerBrowser();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('shows the payloads as text on the scores and the plots, running none', async () => {
    await browser.open(file);
    await expectInert();
    const text = await browser.page.locator('main').innerText();
    for (const payload of PAYLOADS) expect(text).toContain(payload);
    await browser.screenshot('injection-scores');
    await browser.page.getByTestId('nav-plots').click();
    await expectInert();
    for (const task of await browser.page
      .getByTestId('plot-task')
      .locator('option')
      .allInnerTexts()) {
      await browser.page.getByTestId('plot-task').selectOption({ label: task });
      await expectInert();
    }
  }, 120_000);

  it('shows every trial, its transcript, stale box, unknown format and trace as text, running none', async () => {
    const { page } = browser;
    await browser.open(file, '#trials');
    for (let trial = 0; trial < PAYLOADS.length * 2; trial += 1) {
      await page.keyboard.press('j');
      await page
        .locator('[data-testid=trace]')
        .first()
        .evaluate((node) => node.setAttribute('open', ''));
      await expectInert();
      const pane = page.getByTestId('transcript');
      const label = (await pane.getAttribute('data-trial')) ?? '';
      const payload = PAYLOADS.find((text) => label.startsWith(`${text} `));
      expect(payload, label).toBeDefined();
      const text = await pane.innerText();
      expect(text).toContain(payload);
      if (!label.endsWith(' baseline trial 1')) {
        expect(text).toContain(`this transcript format cannot be shown: ${payload}`);
      }
    }
    await page.keyboard.press('c');
    await expectInert();
    await browser.screenshot('injection-trial');
  }, 120_000);

  it('treats a hostile link as a trial it does not have', async () => {
    const { page } = browser;
    for (const payload of PAYLOADS) {
      for (const hash of [
        `#trial=${payload}`,
        `#compare=${payload},${encodeURIComponent(payload)}`,
        `#${payload}`,
      ]) {
        await browser.open(file, hash);
        await expectInert();
      }
    }
    await browser.open(file, `#trial=${encodeURIComponent(PAYLOADS[0]!)}`);
    expect(await page.getByTestId('missing-trial').innerText()).toContain(PAYLOADS[0]!);
  }, 120_000);

  it(`ran nothing and logged no error in any view`, () => {
    console.info(`injection: ${PAYLOADS.length} payloads, ${views} views checked`);
    expect(views).toBeGreaterThan(40);
    expect(browser.problems).toEqual([]);
    expect(browser.requests.filter((url) => !url.startsWith('file://'))).toEqual([]);
  });
});
