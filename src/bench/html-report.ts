import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { chromium } from 'playwright-core';
import { positiveInteger } from '../cli/args.js';
import { buildReport } from '../eval/report/build-report.js';
import { type HtmlTrial, renderHtml } from '../eval/report/html.js';
import { loadTranscript } from '../eval/report/load-transcripts.js';
import type { Transcript } from '../eval/report/transcript.js';
import type { TrialRecord } from '../eval/trial/trial-record.js';

/**
 * The HTML report's size and load time at many trials: figures, not pass/fail.
 * `node src/cli/launch.mjs src/bench/html-report.ts --trials 100 [--unique]`
 *
 * Trial n of every task and variant reuses the committed cassette ((n-1) % recorded) + 1 (and its
 * trace under runs/eval when there is one). With --unique every text of every trial is made
 * distinct, the worst case for the report's shared-text table.
 */
const { values } = parseArgs({
  options: { trials: { type: 'string' }, unique: { type: 'boolean' } },
});
const trials = positiveInteger('--trials', values.trials, 100);
const ROUNDS = 7;
const root = process.cwd();
const fixtures = join(root, 'fixtures');

function distinct(transcript: Transcript, tag: string): Transcript {
  const texts = new Set(['system', 'user', 'text', 'input', 'result', 'finalAnswer']);
  return JSON.parse(JSON.stringify(transcript), (key, value: unknown) =>
    texts.has(key) && typeof value === 'string' ? `${value} ${tag}` : value,
  );
}

const rows: HtmlTrial[] = [];
for (const task of readdirSync(fixtures).sort()) {
  for (const variant of readdirSync(join(fixtures, task)).sort()) {
    const recorded = readdirSync(join(fixtures, task, variant)).filter((f) => f.endsWith('.json'));
    const sources = new Map<number, Awaited<ReturnType<typeof loadTranscript>>>();
    for (let trial = 1; trial <= trials; trial += 1) {
      const source = ((trial - 1) % recorded.length) + 1;
      const record: TrialRecord = {
        suite: task.startsWith('D') ? 'debug-agent' : 'refund-desk',
        task,
        title: task,
        variant,
        trial,
        outcome: trial % 4 === 0 ? 'failed' : 'passed',
        messages:
          trial % 4 === 0 ? [`synthetic assertion message of ${task} ${variant} ${trial}`] : [],
        modelLatenciesMs: [100, 200],
        fixture: `fixtures/${task}/${variant}/trial-${source}.json`,
        tracePath: `runs/eval/${task}/${variant}/trial-${source}.jsonl`,
        source: 'simulator',
        model: 'claude-opus-5',
      };
      if (!sources.has(source)) sources.set(source, await loadTranscript(record, root));
      const loaded = sources.get(source)!;
      const transcript =
        values.unique && 'transcript' in loaded
          ? { transcript: distinct(loaded.transcript, `#${trial}`) }
          : loaded;
      rows.push({ record, transcript });
    }
  }
}

const report = buildReport({
  records: rows.map((row) => row.record),
  trials,
  floors: [],
  generatedAt: new Date(),
});
const started = performance.now();
const html = renderHtml(report, rows);
const renderMs = performance.now() - started;
const dir = mkdtempSync(join(tmpdir(), 'html-report-bench-'));
const file = join(dir, 'latest.html');
writeFileSync(file, html);
if (process.env.KEEP_HTML) writeFileSync(process.env.KEEP_HTML, html);
console.log(
  `${rows.length} trials (--trials ${trials}${values.unique ? ', every text unique' : ''}): ` +
    `${(Buffer.byteLength(html) / 1024).toFixed(0)} KiB, rendered in ${renderMs.toFixed(0)} ms`,
);

const browserPath = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
if (existsSync(browserPath)) {
  const profile = mkdtempSync(join(tmpdir(), 'chromium-profile-'));
  const browser = await chromium.launchPersistentContext(profile, {
    executablePath: browserPath,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'],
  });
  const page = browser.pages()[0] ?? (await browser.newPage());
  // The first navigation also warms the browser up; the figures are from the loads after it.
  const scores: number[] = [];
  const parsed: number[] = [];
  for (let round = 0; round <= ROUNDS; round += 1) {
    await page.goto(pathToFileURL(file).href);
    await page.locator('body[data-ready=true]').waitFor();
    const body = page.locator('body');
    if (round === 0) continue;
    scores.push(Number(await body.getAttribute('data-rendered-ms')));
    parsed.push(Number(await body.getAttribute('data-details-ms')));
  }
  const spread = (values: number[]) => {
    const sorted = [...values].sort((left, right) => left - right);
    return `best ${sorted[0]} ms, median ${sorted[Math.floor(sorted.length / 2)]} ms`;
  };
  console.log(`navigation to rendered scores and trial list: ${spread(scores)}`);
  console.log(`navigation to parsed transcripts: ${spread(parsed)}`);
  const opened = performance.now();
  await page.locator('button[data-action=transcript]').first().click();
  await page.getByTestId('transcript').waitFor();
  const openMs = performance.now() - opened;
  console.log(`opening a transcript (click to shown): ${openMs.toFixed(0)} ms`);
  await browser.close();
  rmSync(profile, { recursive: true, force: true });
} else {
  console.log(`no chromium at ${browserPath}: load time not measured`);
}
rmSync(dir, { recursive: true, force: true });
