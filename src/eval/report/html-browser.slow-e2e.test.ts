// biome-ignore-all lint/performance/useDomNodeTextContent: the test checks what a reader sees, which is innerText
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readCassette } from '../../replay/cassette-file.js';
import { decodeTranscript } from '../transcript/transcript.js';
import { buildReport } from './build-report.js';
import { renderHtml } from './html.js';
import {
  browserAvailable,
  CHROMIUM,
  inCi,
  openViewerBrowser,
  projectRoot as root,
  shownTrials,
  type ViewerBrowser,
} from './testing/browser.js';
import { makeRecord } from './testing/records.js';

/**
 * reports/latest.html of a real eval (T1, 3 trials) in headless Chromium: every view, by mouse
 * and keyboard, with a screenshot of each in reports/screenshots/.
 */
const CARD = '6222020200112233445';
const run = promisify(execFile);

/** A throwaway project that shares this one's code and fixtures, so the eval writes its reports there. */
function scratchProject(): string {
  const dir = mkdtempSync(join(tmpdir(), 'html-report-'));
  for (const entry of ['evals', 'fixtures', 'src', 'dist', 'node_modules', 'AGENTS.md']) {
    symlinkSync(join(root, entry), join(dir, entry));
  }
  for (const entry of ['package.json', 'vitest.evals.config.ts', 'tsconfig.json']) {
    symlinkSync(join(root, entry), join(dir, entry));
  }
  return dir;
}

describe('reports/latest.html in headless Chromium', () => {
  it('has a browser to run in (required when CI is set)', (context) => {
    if (!browserAvailable && inCi) {
      throw new Error(
        `CI is set but there is no chromium at ${CHROMIUM}: install it (apt-get install -y chromium; .ci/run does) or set CHROMIUM_PATH`,
      );
    }
    if (!browserAvailable) {
      context.skip(
        `no chromium at ${CHROMIUM}: the browser test is skipped; install it (apt-get install -y chromium) or set CHROMIUM_PATH`,
      );
    }
    expect(browserAvailable).toBe(true);
  });

  describe.skipIf(!browserAvailable)('with a report of T1, 3 trials', () => {
    let project: string;
    let file: string;
    let browser: ViewerBrowser;

    beforeAll(async () => {
      project = scratchProject();
      // A price for the fixtures' model (made up for the test), read by the eval from the project.
      writeFileSync(
        join(project, 'harness-evals.prices.json'),
        JSON.stringify({
          models: { 'claude-opus-5': { input: 5, output: 25, cacheWrite: 6.25, cacheRead: 0.5 } },
        }),
      );
      await run(
        process.execPath,
        [join(root, 'src/cli/launch.mjs'), 'eval', '--task', 'T1', '--trials', '3'],
        { cwd: project, env: { ...process.env, GITHUB_STEP_SUMMARY: '' } },
      );
      file = join(project, 'reports', 'latest.html');
      browser = await openViewerBrowser();
      await browser.open(file);
    }, 300_000);

    afterAll(async () => {
      await browser?.close();
      if (project) rmSync(project, { recursive: true, force: true });
    });

    it('opens from file:// on the scores: variants as rows under their task, the suite summary with Δ and its interval', async () => {
      const { page } = browser;
      expect(await page.getByTestId('gate').innerText()).toMatch(/Gate: (passed|FAILED)/);
      expect(await page.getByTestId('provenance').innerText()).toContain('Fixtures: simulator');
      const rows = page.getByTestId('scores').getByTestId('score-row');
      expect(
        await rows.evaluateAll((nodes) =>
          nodes.map((node) => `${node.dataset.task} ${node.dataset.variant}`),
        ),
      ).toEqual(['T1 baseline', 'T1 upgraded']);
      // The Δ of upgraded against baseline, with its interval, as the markdown report has it.
      const markdown = readFileSync(join(project, 'reports', 'latest.md'), 'utf8');
      const delta = /\| T1 \| [^|]+ \| upgraded \|(?:[^|]*\|){4} ([^|]+) \|/.exec(markdown)?.[1];
      expect(delta).toMatch(/^[+−]?\d\.\d\d \[/);
      expect(await rows.nth(1).innerText()).toContain(delta!.trim());
      const summary = page.getByTestId('suite-summary');
      expect(await summary.innerText()).toContain('refund-desk');
      expect(await summary.getByTestId('suite-delta').innerText()).toMatch(
        /refund-desk upgraded vs baseline \(1 task, paired\): Δ pass@1 [+−]?\d\.\d\d/,
      );
      // What the trials cost: per row and variant (simulator estimates, ≈), and this run's $0.
      const cost = page.getByTestId('cost');
      expect(await cost.locator('tbody tr').allInnerTexts()).toEqual([
        expect.stringMatching(/^T1\tbaseline\t3\t≈\$0\.\d+\t≈\$0\.\d+\t—$/),
        expect.stringMatching(/^T1\tupgraded\t3\t≈\$0\.\d+\t≈\$0\.\d+\t—$/),
      ]);
      expect(await page.getByTestId('cost-variants').locator('tbody tr').count()).toBe(2);
      const costLines = await page.getByTestId('cost-line').allInnerTexts();
      expect(costLines).toContain(
        'This run cost $0: it replayed recorded trials and judge verdicts, no model was called.',
      );
      expect(costLines.join('\n')).toContain('claude-opus-5 $5.00 / $25.00 / $6.25 / $0.50');
      const rendered = await page.locator('body').getAttribute('data-rendered-ms');
      console.info(`latest.html rendered its scores ${rendered} ms after navigation`);
      await browser.screenshot('scores');
    }, 60_000);

    it('draws the plots, each an image with a title and labelled axes', async () => {
      const { page } = browser;
      await page.getByTestId('nav-plots').click();
      const forest = page.getByTestId('plot-forest');
      expect(await forest.getAttribute('role')).toBe('img');
      expect(await forest.getAttribute('aria-label')).toContain('Δ pass@1 against the baseline');
      expect(await forest.getByTestId('forest-row').allTextContents()).toEqual([
        expect.stringContaining('refund-desk · upgraded (1 task)'),
        expect.stringContaining('T1 upgraded'),
      ]);
      const passK = page.getByTestId('plot-passk');
      expect(await passK.count()).toBe(1);
      expect(await passK.getAttribute('aria-label')).toBe(
        'pass@k and pass^k against k for T1 (Business rules): baseline, upgraded',
      );
      expect(await passK.locator('text').allTextContents()).toEqual(
        expect.arrayContaining(['k (trials drawn)', 'rate', '1', '2', '3']),
      );
      const distributions = page.getByTestId('plot-distribution');
      expect(
        await distributions.evaluateAll((nodes) =>
          nodes.map((n) => n.querySelector('title')?.textContent),
        ),
      ).toEqual([
        'Model latency per trial, per variant (all tasks)',
        'Input tokens per trial, per variant (all tasks)',
        'Output tokens per trial, per variant (all tasks)',
      ]);
      // Each variant's counted trials, one dot each.
      expect(await distributions.first().locator('circle').count()).toBe(6);
      await browser.screenshot('plots');
    }, 60_000);

    it('selects a failing trial by keyboard and shows its transcript: tool calls, decisions, the assertion', async () => {
      const { page } = browser;
      await page.keyboard.press('/');
      await page.keyboard.type('outcome:failed');
      await page.keyboard.press('Enter');
      expect(await page.getByTestId('trial-count').innerText()).toBe('3 of 6 trials');
      const transcript = page.getByTestId('transcript');
      expect(await transcript.getAttribute('data-trial')).toBe('T1 baseline trial 1');
      // The trial's own recorded cost, beside its model (at the scratch project's price).
      expect(await page.locator('.meta', { hasText: 'model: ' }).first().innerText()).toMatch(
        /model: claude-opus-5 · cost: ≈\$0\.\d+/,
      );
      await page.keyboard.press('j');
      expect(await shownTrials(page)).toEqual(['T1 baseline trial 2']);
      await page.keyboard.press('k');
      expect(await shownTrials(page)).toEqual(['T1 baseline trial 1']);
      expect(await page.evaluate('location.hash')).toBe('#trial=refund-desk/T1/baseline/1');
      const calls = await transcript.getByTestId('tool-call').allInnerTexts();
      expect(calls.join('\n')).toContain('get_order');
      expect(calls.join('\n')).toContain('get_payment');
      expect(await transcript.getByTestId('decision').allInnerTexts()).toContain('allow');
      expect(await transcript.getByTestId('assertion').innerText()).toContain(
        'the answer must flag the overdue refund',
      );
      expect(await transcript.getByTestId('final-answer').innerText()).toContain('6222****3445');
      expect(await transcript.getByTestId('trace').locator('summary').innerText()).toMatch(
        /^Trace \(\d+ events\)$/,
      );
      await browser.screenshot('trial');
    }, 60_000);

    it('compares two variants side by side, moves the right-hand trial with j, and Esc ends it', async () => {
      const { page } = browser;
      await page.getByTestId('trial-filter').fill('');
      await page.getByTestId('trial-list').focus();
      await page.keyboard.press('c');
      const side = page.getByTestId('side-by-side');
      await side.waitFor();
      expect(await shownTrials(page)).toEqual(['T1 baseline trial 1', 'T1 upgraded trial 1']);
      expect(await page.evaluate('location.hash')).toBe(
        '#compare=refund-desk/T1/baseline/1,refund-desk/T1/upgraded/1',
      );
      await page.keyboard.press('j');
      expect(await shownTrials(page)).toEqual(['T1 baseline trial 1', 'T1 upgraded trial 2']);
      expect(await page.locator('.row.pinned').getAttribute('data-trial')).toBe(
        'T1 baseline trial 1',
      );
      await browser.screenshot('compare');
      await page.keyboard.press('Escape');
      expect(await shownTrials(page)).toEqual(['T1 upgraded trial 2']);
      // Any two trials: pin one, move to another.
      await page.locator('button[data-action=pin]').click();
      await page.keyboard.press('k');
      await page.keyboard.press('k');
      expect(await shownTrials(page)).toEqual(['T1 upgraded trial 2', 'T1 baseline trial 3']);
    }, 60_000);

    it('opens the trial a link names, and says so when the report has no such trial', async () => {
      const { page } = browser;
      await browser.open(file, '#trial=refund-desk/T1/upgraded/2');
      expect(await shownTrials(page)).toEqual(['T1 upgraded trial 2']);
      expect(
        await page
          .locator('[data-testid=trial-row][aria-selected=true]')
          .getAttribute('data-trial'),
      ).toBe('T1 upgraded trial 2');
      await browser.screenshot('link');
      await browser.open(file, '#compare=refund-desk/T1/baseline/3,refund-desk/T1/upgraded/3');
      expect(await shownTrials(page)).toEqual(['T1 baseline trial 3', 'T1 upgraded trial 3']);
      await browser.open(file, '#trial=refund-desk/T9/upgraded/1');
      expect(await page.getByTestId('missing-trial').innerText()).toBe(
        'This report has no trial refund-desk T9 upgraded 1.',
      );
    }, 60_000);

    it('never shows the full card number, in the file or in the rendered page', async () => {
      const { page } = browser;
      await browser.open(file, '#trial=refund-desk/T1/baseline/1');
      const html = readFileSync(file, 'utf8');
      // The baseline's cassettes hold it in a tool result: the report masked it.
      expect(readFileSync(join(root, 'fixtures/T1/baseline/trial-1.json'), 'utf8')).toContain(CARD);
      expect(html).not.toContain(CARD);
      // innerText is what a reader sees; outerHTML is everything the page holds.
      const dom: { html: string; text: string } = await page.evaluate(
        '({ html: document.documentElement.outerHTML, text: document.documentElement.innerText })',
      );
      expect(dom.text).toContain('6222****3445');
      expect(dom.html).not.toContain(CARD);
      expect(dom.text).not.toContain(CARD);
    }, 60_000);

    it('shows a stale trial with its diff and the command that re-records it', async () => {
      const fixture = join(root, 'fixtures/T1/upgraded/trial-2.json');
      const transcript = decodeTranscript(await readCassette(fixture));
      const command = 'npm run record -- --task T1 --variant upgraded --trial 2 --simulated';
      const record = makeRecord({
        trial: 2,
        outcome: 'stale',
        messages: [
          'exchanges[0] differs in body at /system/0/text:\n- says "Overdue"\n+ states "Overdue"',
        ],
      });
      const report = buildReport({ records: [record], trials: 2, floors: [], generatedAt: 'now' });
      const stalePage = join(project, 'reports', 'stale.html');
      writeFileSync(
        stalePage,
        renderHtml(report, [{ record, transcript: { format: 'anthropic-messages', transcript } }]),
      );
      await browser.open(stalePage);
      expect(await browser.page.getByTestId('mark').innerText()).toBe('fixture problems: 1 stale');
      await browser.page.getByRole('button', { name: 'trials' }).click();
      const stale = browser.page.getByTestId('transcript').getByTestId('stale');
      expect(await stale.innerText()).toContain('+ states "Overdue"');
      expect(await stale.innerText()).toContain(command);
      expect(await browser.page.getByTestId('gate').innerText()).toContain('FAILED');
      await browser.screenshot('stale');
    }, 60_000);

    it('fetched nothing and logged no error in any of these views', () => {
      expect(browser.requests.length).toBeGreaterThan(0);
      expect(browser.requests.filter((url) => !url.startsWith('file://'))).toEqual([]);
      expect(browser.problems).toEqual([]);
    });
  });
});
