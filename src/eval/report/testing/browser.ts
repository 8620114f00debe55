import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { type BrowserContext, chromium, type Page } from 'playwright-core';

/**
 * The HTML report in a real browser, for the slow e2e tests: Debian's chromium driven by
 * playwright-core (which never downloads a browser). Locally the tests skip when chromium is
 * missing; with CI set they fail.
 */
export const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
export const browserAvailable = existsSync(CHROMIUM);
export const inCi = Boolean(process.env.CI) && process.env.CI !== 'false';
export const projectRoot = fileURLToPath(new URL('../../../..', import.meta.url));
/** Where every view's screenshot goes (gitignored; CI uploads it with the report). */
export const SCREENSHOTS = join(projectRoot, 'reports', 'screenshots');

/** A browser and one page, with everything the page asked for and every error it logged. */
export interface ViewerBrowser {
  page: Page;
  /** Every URL the page requested. */
  requests: string[];
  /** Console errors, uncaught exceptions, dialogs (alert, confirm) and CSP violations. */
  problems: string[];
  open(file: string, hash?: string): Promise<void>;
  screenshot(name: string): Promise<void>;
  close(): Promise<void>;
}

export async function openViewerBrowser(): Promise<ViewerBrowser> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  const profile = mkdtempSync(join(tmpdir(), 'chromium-profile-'));
  const context: BrowserContext = await chromium.launchPersistentContext(profile, {
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
  const page = context.pages()[0] ?? (await context.newPage());
  const requests: string[] = [];
  const problems: string[] = [];
  page.on('request', (request) => requests.push(request.url()));
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`exception: ${error.message}`));
  page.on('dialog', async (dialog) => {
    problems.push(`dialog: ${dialog.message()}`);
    await dialog.dismiss();
  });
  await page.addInitScript(
    "document.addEventListener('securitypolicyviolation', (event) => console.error('CSP violation: ' + event.violatedDirective + ' ' + event.blockedURI))",
  );
  return {
    page,
    requests,
    problems,
    async open(file, hash = '') {
      // From another page: a change of hash alone would not load the page again.
      await page.goto('about:blank');
      await page.goto(`${pathToFileURL(file).href}${hash}`);
      await page.locator('body[data-ready=true]').waitFor();
    },
    async screenshot(name) {
      await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`) });
    },
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** The transcript panes shown, by their trial labels ("T1 baseline trial 1"). */
export function shownTrials(page: Page): Promise<Array<string | null>> {
  return page
    .getByTestId('transcript')
    .evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-trial')));
}
