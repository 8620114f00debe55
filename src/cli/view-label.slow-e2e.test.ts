// biome-ignore-all lint/performance/useDomNodeTextContent: the test checks what a reader sees, which is innerText
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  browserAvailable,
  openViewerBrowser,
  SCREENSHOTS,
  type ViewerBrowser,
} from '../eval/report/testing/browser.js';
import {
  CHECK,
  type LabelProject,
  OLD_HASH,
  writeLabelProject,
} from '../eval/report/testing/label-project.js';
import { createLabelApi } from './view-label.js';
import { serveReport } from './view-report.js';

/** What the person decides for each trial, as the committed T7 labels do. */
function decision(variant: string, trial: number) {
  return {
    label: variant === 'upgraded' ? 'pass' : 'fail',
    score: variant === 'upgraded' ? '0.9' : '0.1',
    note: `${variant} ${trial}: ${variant === 'upgraded' ? 'declines, says why' : 'says it resubmitted'}`,
  };
}

describe.skipIf(!browserAvailable)('view --label in Chromium', () => {
  let project: LabelProject;
  let server: { url: string; close: () => Promise<void> };
  let browser: ViewerBrowser;

  beforeAll(async () => {
    project = await writeLabelProject(mkdtempSync(join(tmpdir(), 'view-label-e2e-')));
    const label = createLabelApi({ projectDir: project.dir, reportFile: project.json });
    server = await serveReport({ file: project.html, label });
    browser = await openViewerBrowser();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    if (project) rmSync(project.dir, { recursive: true, force: true });
  });

  it('labels ten trials from the keyboard alone, into the labels file keyed by cassette hash, and updates the calibration', async () => {
    const { page } = browser;
    await page.goto(`${server.url}#label`);
    await page.locator('[data-testid=view-label][data-loaded=true]').waitFor();
    const calibration = page.getByTestId('label-calibration');
    expect(await calibration.innerText()).toMatch(/no human labels|labels none|— \(/);
    expect(await page.getByTestId('label-stale').count()).toBe(0);
    for (let step = 0; step < 10; step++) {
      const current = page.getByTestId('label-current');
      const name = (await current.getAttribute('data-item'))!;
      const [, variant, trial] = /^T7 (\w+) trial (\d+)/.exec(name)!;
      const wanted = decision(variant!, Number(trial));
      if (variant === 'upgraded' && trial === '1') {
        // The label the file had was for another cassette: shown as stale, not as this trial's.
        expect(await page.getByTestId('label-stale').innerText()).toContain('stale: labelled fail');
      }
      await page.keyboard.press('s');
      await page.keyboard.type(wanted.score);
      await page.keyboard.press('Enter');
      await page.keyboard.press('n');
      await page.keyboard.type(wanted.note);
      await page.keyboard.press('Enter');
      await page.keyboard.press(wanted.label === 'pass' ? 'p' : 'f');
      await page.getByTestId('label-status').getByText(`saved ${name}: ${wanted.label}`).waitFor();
      await page.keyboard.press('j');
    }
    const file = JSON.parse(readFileSync(project.labels, 'utf8'));
    expect(file.judge).toBe(CHECK);
    expect(file.labels).toHaveLength(10);
    for (const [key, cassette] of project.hashes) {
      const [variant, trial] = key.split('/') as [string, string];
      const wanted = decision(variant, Number(trial));
      expect(file.labels).toContainEqual({
        variant,
        trial: Number(trial),
        label: wanted.label,
        score: Number(wanted.score),
        note: wanted.note,
        cassette,
      });
    }
    expect(JSON.stringify(file)).not.toContain(OLD_HASH);
    // The judge fails upgraded trial 5, which the person passed: 9 of 10 agree, as docs/judges.md says.
    const row = await calibration.locator('tbody tr').first().innerText();
    expect(row).toMatch(
      /\t10\t9\/10 agree = 0\.90 \[0\.60, 0\.98\]; κ 0\.80 \[\+0\.\d\d, \+1\.00\]\t0$/,
    );
    expect(await page.getByTestId('label-item').allInnerTexts()).toEqual(
      [...project.hashes.keys()].map((key) => {
        const [variant, trial] = key.split('/') as [string, string];
        return `T7 ${variant} trial ${trial} · ${CHECK}: ${decision(variant, Number(trial)).label}`;
      }),
    );
    await page.screenshot({ path: join(SCREENSHOTS, 'label.png') });
    copyFileSync(join(SCREENSHOTS, 'label.png'), join(tmpdir(), 'label-view.png'));
    expect(browser.problems).toEqual([]);
    expect(browser.requests.every((url) => url.startsWith(server.url))).toBe(true);
  }, 120_000);

  it('shows the labels again after a reload, and the static report offers no labelling', async () => {
    const { page } = browser;
    await page.goto('about:blank');
    await page.goto(`${server.url}#label`);
    await page.locator('[data-testid=view-label][data-loaded=true]').waitFor();
    expect(await page.getByTestId('label-choice').innerText()).toMatch(/your label: (pass|fail)/);
    await browser.open(project.html);
    expect(await page.getByTestId('nav-label').count()).toBe(0);
    expect(browser.problems).toEqual([]);
  }, 60_000);
});
