import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Page } from 'playwright-core';
import { medianAndBest } from './figures.js';
import { benchReportHtml, type ReportWorkload } from './html-report-workload.js';
import type { Row } from './print-rows.js';

/**
 * The HTML report's viewer in headless Chromium: size, time to the scores, time to open a
 * transcript. Figures, never pass/fail. Part of `npm run bench`; alone: `npm run bench -- --viewer`.
 */
const ROUNDS = 5;
/** Transcripts opened per round, spread over the list (the last trial among them). */
const OPENED = 6;
const BROWSER = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

const WORKLOADS: Array<{ name: string; workload: ReportWorkload }> = [
  { name: '60 trials', workload: { trials: 3 } },
  { name: '2,000 trials, every text unique', workload: { trials: 100, unique: true } },
  {
    name: '2,000 trials padded to 50 MB',
    workload: { trials: 100, unique: true, targetBytes: 50 * 1024 * 1024 },
  },
];

/**
 * In the page (a string: a function would be serialised with the TypeScript loader's helpers):
 * open OPENED trials spread over the list through their links, each from the hash change to
 * the frame after its pane is shown.
 */
const OPEN_TRANSCRIPTS = `(async () => {
  const trials = JSON.parse(document.getElementById('report-model').textContent).trials;
  const times = [];
  for (let at = 1; at <= ${OPENED}; at += 1) {
    const t = trials[Math.round((at / ${OPENED}) * (trials.length - 1))];
    const key = [t.suite, t.task, t.variant, String(t.trial)].map(encodeURIComponent).join('/');
    const started = performance.now();
    location.hash = 'trial=' + key;
    await new Promise((done) => {
      const check = () => {
        const pane = document.querySelector('[data-testid=transcript]');
        const shown = pane && pane.getAttribute('data-trial') === t.task + ' ' + t.variant + ' trial ' + t.trial &&
          !pane.querySelector('[data-testid=loading]');
        if (shown) requestAnimationFrame(() => setTimeout(done)); else requestAnimationFrame(check);
      };
      check();
    });
    times.push(performance.now() - started);
  }
  return times;
})()`;

interface Load {
  scoresMs: number;
  readyMs: number;
  openMs: number[];
}

/**
 * Navigation start to the scores in the page, and to every trial's details parsed; then
 * transcripts opened through their links (#trial=...): hash change to the pane painted.
 */
async function load(page: Page, url: string): Promise<Load> {
  await page.goto(url);
  await page.locator('body[data-ready=true]').waitFor({ timeout: 120_000 });
  const body = page.locator('body');
  const scoresMs = Number(await body.getAttribute('data-rendered-ms'));
  const readyMs = Number(await body.getAttribute('data-details-ms'));
  const openMs = (await page.evaluate(OPEN_TRANSCRIPTS)) as number[];
  return { scoresMs, readyMs, openMs };
}

async function measure(file: string, page: Page): Promise<Load[]> {
  const url = pathToFileURL(file).href;
  // The first load warms the browser up (and the OS file cache): not counted.
  await load(page, url);
  const loads: Load[] = [];
  for (let round = 0; round < ROUNDS; round += 1) loads.push(await load(page, url));
  return loads;
}

function rowsOf(name: string, bytes: number, loads: readonly Load[]): Row[] {
  const size =
    bytes >= 1024 * 1024
      ? `${(bytes / 1024 / 1024).toFixed(1)} MB`
      : `${(bytes / 1024).toFixed(0)} KiB`;
  const command = `headless chromium, ${ROUNDS} loads`;
  return [
    {
      target: `viewer, ${name} (${size}): scores shown`,
      ...medianAndBest(loads.map((entry) => entry.scoresMs)),
      goal: '< 1 s',
      ratio: '',
      command: `${command} (navigation start to scores rendered)`,
    },
    {
      target: '  a transcript opened',
      ...medianAndBest(loads.flatMap((entry) => entry.openMs)),
      goal: '< 200 ms',
      ratio: '',
      command: `${OPENED} per load, spread over the list (#trial=... to painted)`,
    },
    {
      target: '  the slowest transcript of a load',
      ...medianAndBest(loads.map((entry) => Math.max(...entry.openMs))),
      goal: '< 200 ms',
      ratio: '',
      command: '(same loads)',
    },
    {
      target: '  every trial parsed (DOMContentLoaded)',
      ...medianAndBest(loads.map((entry) => entry.readyMs)),
      goal: '',
      ratio: '',
      command: '(same loads)',
    },
  ];
}

/** The viewer's figures for each workload; none (and a line saying why) without a browser. */
export async function viewerRows(projectDir: string, log: (line: string) => void): Promise<Row[]> {
  if (!existsSync(BROWSER)) {
    log(
      `bench: no chromium at ${BROWSER} (set CHROMIUM_PATH): the viewer's figures are not measured`,
    );
    return [];
  }
  const dir = mkdtempSync(join(tmpdir(), 'html-report-bench-'));
  const profile = mkdtempSync(join(tmpdir(), 'chromium-profile-'));
  const browser = await chromium.launchPersistentContext(profile, {
    executablePath: BROWSER,
    headless: true,
    viewport: { width: 1400, height: 1000 },
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'],
  });
  try {
    const page = browser.pages()[0] ?? (await browser.newPage());
    const rows: Row[] = [];
    for (const { name, workload } of WORKLOADS) {
      log(`bench: the viewer with ${name}`);
      const { html } = await benchReportHtml(projectDir, workload);
      const file = join(dir, 'latest.html');
      writeFileSync(file, html);
      rows.push(...rowsOf(name, Buffer.byteLength(html), await measure(file, page)));
    }
    return rows;
  } finally {
    await browser.close();
    rmSync(profile, { recursive: true, force: true });
    rmSync(dir, { recursive: true, force: true });
  }
}

export const VIEWER_TITLE = `the HTML report's viewer in headless Chromium (${ROUNDS} loads each)`;
