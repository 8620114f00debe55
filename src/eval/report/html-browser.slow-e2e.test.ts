// biome-ignore-all lint/performance/useDomNodeTextContent: the test checks what a reader sees, which is innerText
import { execFile } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readCassette } from '../../replay/cassette-file.js';
import { buildReport } from './build-report.js';
import { renderHtml } from './html.js';
import { makeRecord } from './testing/records.js';
import { decodeTranscript } from './transcript.js';

/**
 * The HTML report in a real browser: Debian's chromium driven by playwright-core (which never
 * downloads a browser). Locally the test skips when chromium is missing; with CI set it fails.
 * Screenshots go to reports/screenshots/ (gitignored; CI uploads them as an artifact).
 */
const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const available = existsSync(CHROMIUM);
const inCi = Boolean(process.env.CI) && process.env.CI !== 'false';
const CARD = '6222020200112233445';
const root = fileURLToPath(new URL('../../..', import.meta.url));
const screenshots = join(root, 'reports', 'screenshots');
const run = promisify(execFile);

/** A throwaway project that shares this one's code and fixtures, so the eval writes its reports there. */
function scratchProject(): string {
  const dir = mkdtempSync(join(tmpdir(), 'html-report-'));
  for (const entry of [
    'evals',
    'fixtures',
    'src',
    'dist',
    'node_modules',
    'AGENTS.md',
    'package.json',
  ]) {
    symlinkSync(join(root, entry), join(dir, entry));
  }
  for (const entry of ['vitest.evals.config.ts', 'tsconfig.json']) {
    symlinkSync(join(root, entry), join(dir, entry));
  }
  return dir;
}

describe('reports/latest.html in headless Chromium', () => {
  it('has a browser to run in (required when CI is set)', (context) => {
    if (!available && inCi) {
      throw new Error(
        `CI is set but there is no chromium at ${CHROMIUM}: install it (apt-get install -y chromium; .ci/run does) or set CHROMIUM_PATH`,
      );
    }
    if (!available) {
      context.skip(
        `no chromium at ${CHROMIUM}: the browser test is skipped; install it (apt-get install -y chromium) or set CHROMIUM_PATH`,
      );
    }
    expect(existsSync(CHROMIUM)).toBe(true);
  });

  describe.skipIf(!available)('with a report of T1, 3 trials', () => {
    let project: string;
    let profile: string;
    let browser: BrowserContext;
    let page: Page;
    const requests: string[] = [];

    beforeAll(async () => {
      project = scratchProject();
      await run(
        process.execPath,
        [join(root, 'src/cli/launch.mjs'), 'eval', '--task', 'T1', '--trials', '3'],
        { cwd: project, env: { ...process.env, GITHUB_STEP_SUMMARY: '' } },
      );
      mkdirSync(screenshots, { recursive: true });
      profile = mkdtempSync(join(tmpdir(), 'chromium-profile-'));
      browser = await chromium.launchPersistentContext(profile, {
        executablePath: CHROMIUM,
        headless: true,
        viewport: { width: 1400, height: 1000 },
        args: [
          '--headless',
          '--no-sandbox',
          '--disable-gpu',
          '--disable-quic',
          '--no-first-run',
          '--disable-background-networking',
          '--disable-component-update',
          '--disable-sync',
        ],
      });
      page = browser.pages()[0] ?? (await browser.newPage());
      page.on('request', (request) => requests.push(request.url()));
      const file = join(project, 'reports', 'latest.html');
      await page.goto(pathToFileURL(file).href);
      await page.getByTestId('scores').waitFor();
      await page.locator('body[data-ready=true]').waitFor();
    }, 300_000);

    afterAll(async () => {
      await browser?.close();
      for (const dir of [project, profile]) if (dir) rmSync(dir, { recursive: true, force: true });
    });

    it('opens from file:// with the scores, the gate and the provenance, and fetches nothing', async () => {
      expect(await page.getByTestId('gate').innerText()).toMatch(/Gate: (passed|FAILED)/);
      expect(await page.getByTestId('provenance').innerText()).toContain('Fixtures: simulator');
      const scores = await page.getByTestId('scores').innerText();
      expect(scores).toContain('T1');
      expect(scores).toContain('baseline pass@1');
      expect(scores).toContain('upgraded pass@1');
      expect(requests.every((url) => url.startsWith('file://'))).toBe(true);
      const rendered = await page.locator('body').getAttribute('data-rendered-ms');
      console.info(`latest.html rendered its scores ${rendered} ms after navigation`);
      await page.screenshot({ path: join(screenshots, 'scores.png') });
    }, 60_000);

    it('filters to a failing trial and shows its transcript: tool calls, decisions, the assertion', async () => {
      await page.locator('[data-filter=task]').selectOption('T1');
      await page.locator('[data-filter=outcome]').selectOption('failed');
      const rows = page.getByTestId('trial-list').locator('tbody tr');
      expect(await rows.count()).toBe(3);
      expect(await rows.allInnerTexts()).toEqual(
        expect.arrayContaining([expect.stringMatching(/T1\s+baseline\s+1\s+failed/)]),
      );
      await rows.first().locator('button[data-action=transcript]').click();
      const transcript = page.getByTestId('transcript');
      await transcript.waitFor();
      expect(await transcript.getAttribute('data-trial')).toBe('T1 baseline trial 1');
      const calls = await transcript.getByTestId('tool-call').allInnerTexts();
      expect(calls.join('\n')).toContain('get_order');
      expect(calls.join('\n')).toContain('get_payment');
      expect(await transcript.getByTestId('decision').allInnerTexts()).toContain('allow');
      expect(await transcript.getByTestId('assertion').innerText()).toContain(
        'the answer must flag the overdue refund',
      );
      expect(await transcript.getByTestId('final-answer').innerText()).toContain('6222****3445');
      await page.screenshot({ path: join(screenshots, 'transcript.png'), fullPage: true });
    }, 60_000);

    it('shows the same trial number of both variants side by side', async () => {
      await page
        .getByTestId('trial-list')
        .locator('tbody tr')
        .first()
        .locator('button[data-action=side-by-side]')
        .click();
      const side = page.getByTestId('side-by-side');
      await side.waitFor();
      const shown = await side
        .getByTestId('transcript')
        .evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-trial')));
      expect(shown).toEqual(['T1 baseline trial 1', 'T1 upgraded trial 1']);
      await page.screenshot({ path: join(screenshots, 'side-by-side.png'), fullPage: true });
    }, 60_000);

    it('never shows the full card number, in the file or in the rendered page', async () => {
      const file = readFileSync(join(project, 'reports', 'latest.html'), 'utf8');
      // The baseline's cassettes hold it in a tool result: the report masked it.
      expect(readFileSync(join(root, 'fixtures/T1/baseline/trial-1.json'), 'utf8')).toContain(CARD);
      expect(file).not.toContain(CARD);
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
        rerecordCommand: command,
      });
      const report = buildReport({ records: [record], trials: 2, floors: [], generatedAt: 'now' });
      const file = join(project, 'reports', 'stale.html');
      writeFileSync(file, renderHtml(report, [{ record, transcript: { transcript } }]));
      await page.goto(pathToFileURL(file).href);
      await page.locator('body[data-ready=true]').waitFor();
      await page.locator('[data-filter=outcome]').selectOption('stale');
      await page.locator('button[data-action=transcript]').click();
      const stale = page.getByTestId('transcript').getByTestId('stale');
      expect(await stale.innerText()).toContain('+ states "Overdue"');
      expect(await stale.innerText()).toContain(command);
      expect(await page.getByTestId('gate').innerText()).toContain('FAILED');
    }, 60_000);
  });
});
