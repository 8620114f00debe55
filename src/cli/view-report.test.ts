import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { resolveReport, serveReport } from './view-report.js';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../..', import.meta.url));
const tsx = pathToFileURL(join(root, 'node_modules/tsx/dist/loader.mjs')).href;
const dir = mkdtempSync(join(tmpdir(), 'view-cli-'));
const report = join(dir, 'report.html');
writeFileSync(report, '<!doctype html><title>r</title>');

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('npm run view', () => {
  it('resolves reports/latest.html by default and says to run the eval when it is missing', () => {
    expect(() => resolveReport(dir)).toThrow(
      /reports\/latest.html does not exist yet: run npm run eval/,
    );
    expect(() => resolveReport(dir, 'other.html')).toThrow(/other.html: no such file/);
    expect(() => resolveReport(tmpdir(), dir)).toThrow(/: a directory; give an HTML report/);
    expect(resolveReport(dir, 'report.html')).toBe(report);
  });

  it('serves the report on 127.0.0.1 and stops when closed', async () => {
    const server = await serveReport({ file: report });
    try {
      expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
      const response = await fetch(server.url);
      expect(response.headers.get('content-type')).toContain('text/html');
      expect(await response.text()).toContain('<title>r</title>');
    } finally {
      await server.close();
    }
    await expect(fetch(server.url)).rejects.toThrow();
  });

  it('answers only requests addressed to this machine (no DNS rebinding)', async () => {
    const server = await serveReport({ file: report, allowHosts: ['Box-8080.app.github.dev'] });
    const { port } = new URL(server.url);
    const statusFor = (host: string, path = '/') =>
      new Promise<{ status: number; body: string }>((done, fail) => {
        const asked = request(server.url, { headers: { host }, path }, (response) => {
          let body = '';
          response.on('data', (chunk) => (body += chunk));
          response.on('end', () => done({ status: response.statusCode ?? 0, body }));
        });
        asked.on('error', fail).end();
      });
    try {
      // A page on attacker.example whose name now resolves to 127.0.0.1 sends its own Host.
      const rebound = await statusFor(`attacker.example:${port}`);
      expect(rebound.status).toBe(403);
      expect(rebound.body).not.toContain('<title>r</title>');
      expect(rebound.body).toContain(`http://127.0.0.1:${port}/`);
      // A forwarded port keeps the loopback name, not the port.
      for (const host of [
        `127.0.0.1:${port}`,
        'localhost:8080',
        'LOCALHOST',
        '[::1]:9000',
        'box-8080.app.github.dev',
      ]) {
        expect((await statusFor(host)).status, host).toBe(200);
      }
      // Look-alikes, userinfo tricks, and a full URL as the target (it names its own host).
      for (const host of ['localhost:1@evil.example', 'localhost.', '127.1', 'evil.github.dev']) {
        expect((await statusFor(host)).status, host).toBe(403);
      }
      expect((await statusFor('localhost', 'http://attacker.example/')).status).toBe(403);
    } finally {
      await server.close();
    }
  });

  it('refuses an --allow-host that is not a bare host name, naming it', async () => {
    for (const name of ['https://box.dev', 'box.dev:8080', 'box.dev/x', '', '*.dev']) {
      await expect(serveReport({ file: report, allowHosts: [name] })).rejects.toThrow(
        `--allow-host ${JSON.stringify(name)}: give a host name`,
      );
    }
  });

  it('prints the file:// URL and exits without a terminal (never blocks)', async () => {
    const cli = join(root, 'src/cli/view.ts');
    const { stdout } = await run(process.execPath, ['--import', tsx, cli, report], { cwd: dir });
    expect(stdout.trim()).toBe(pathToFileURL(report).href);
    const failed = await run(process.execPath, ['--import', tsx, cli], { cwd: dir }).catch(
      (error: { code: number; stderr: string }) => error,
    );
    expect(failed).toMatchObject({ code: 2 });
    expect((failed as { stderr: string }).stderr).toContain('run npm run eval first');
  }, 60_000);
});
