import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LabelState } from '../eval/report/label-state.js';
import {
  CHECK,
  type LabelProject,
  OLD_HASH,
  writeLabelProject,
} from '../eval/report/testing/label-project.js';
import { createLabelApi, LABELS_PATH } from './view-label.js';
import { serveReport } from './view-report.js';

let project: LabelProject;
let server: { url: string; close: () => Promise<void> };
let origin: string;

beforeAll(async () => {
  project = await writeLabelProject(mkdtempSync(join(tmpdir(), 'view-label-')));
  const label = createLabelApi({ projectDir: project.dir, reportFile: project.json });
  server = await serveReport({ file: project.html, label });
  origin = server.url.replace(/\/$/, '');
}, 60_000);

afterAll(async () => {
  await server?.close();
  if (project) rmSync(project.dir, { recursive: true, force: true });
});

function request(overrides: Record<string, unknown> = {}) {
  return {
    suite: 'refund-desk',
    task: 'T7',
    variant: 'baseline',
    trial: 2,
    check: CHECK,
    cassette: project.hashes.get('baseline/2'),
    label: 'fail',
    score: 0.1,
    note: 'says it resubmitted',
    ...overrides,
  };
}

function post(body: string, headers: Record<string, string> = {}) {
  return fetch(`${server.url}api/labels`, {
    method: 'POST',
    headers: { origin, 'content-type': 'application/json', ...headers },
    body,
  });
}

describe('view --label', () => {
  it('serves the page with connect-src self and the label marker; plain --serve keeps no network', async () => {
    const labelled = await (await fetch(server.url)).text();
    expect(labelled).toContain("default-src 'none'; connect-src 'self';");
    expect(labelled).toContain(`<meta name="harness-label" content="${LABELS_PATH}">`);
    const plain = await serveReport({ file: project.html });
    expect((await fetch(`${plain.url}api/labels`, { method: 'POST' })).status).toBe(405);
    const page = await (await fetch(plain.url)).text();
    await plain.close();
    expect(page).not.toContain('connect-src');
    expect(page).not.toContain('<meta name="harness-label"');
  });

  it('lists every judged trial with its label, showing a label of another cassette as stale', async () => {
    const state = (await (await fetch(`${server.url}api/labels`)).json()) as LabelState;
    expect(state.items).toHaveLength(10);
    const first = state.items.find((item) => item.variant === 'upgraded' && item.trial === 1);
    expect(first?.human).toMatchObject({ label: 'fail', standing: 'stale', cassette: OLD_HASH });
    expect(state.checks[0]).toMatchObject({ stale: 1, calibration: { labelled: 0, compared: 0 } });
  });

  it.each([
    ['a cassette the trial does not replay', { cassette: OLD_HASH }, 409, /replays cassette/],
    ['an unknown check', { check: 'tone' }, 400, /no judged check 'tone'/],
    ['a trial the run lacks', { trial: 9 }, 404, /T7 baseline trial 9/],
    ['a note past 2000 characters', { note: 'x'.repeat(2001) }, 400, /note.*2000/],
    ['a score past 1', { score: 1.5 }, 400, /score/],
    ['a field it does not know', { extra: true }, 400, /extra/],
    ['a label that is not pass or fail', { label: 'maybe' }, 400, /label/],
  ])('refuses %s and writes nothing', async (_what, overrides, status, message) => {
    const before = readFileSync(project.labels, 'utf8');
    const response = await post(JSON.stringify(request(overrides)));
    expect(response.status).toBe(status);
    expect(((await response.json()) as { error: string }).error).toMatch(message);
    expect(readFileSync(project.labels, 'utf8')).toBe(before);
  });

  it.each([
    ['a body that is not JSON', '{"label": pass', {}, 400, /body is not JSON/],
    [
      'another content type',
      JSON.stringify({}),
      { 'content-type': 'text/plain' },
      415,
      /application\/json/,
    ],
    ['another origin', JSON.stringify({}), { origin: 'http://evil.example' }, 403, /evil\.example/],
    ['a body past 16 KiB', 'x'.repeat(20_000), {}, 413, /at most 16384 bytes/],
  ])('refuses %s and writes nothing', async (_what, body, headers, status, message) => {
    const before = readFileSync(project.labels, 'utf8');
    const response = await post(body, headers);
    expect(response.status).toBe(status);
    expect(((await response.json()) as { error: string }).error).toMatch(message);
    expect(readFileSync(project.labels, 'utf8')).toBe(before);
  });

  it('refuses a request for another host name, as --serve does', async () => {
    const { request: send } = await import('node:http');
    const status = await new Promise<number | undefined>((done) => {
      const url = new URL(`${server.url}api/labels`);
      send(
        {
          host: '127.0.0.1',
          port: url.port,
          path: url.pathname,
          headers: { host: 'evil.example' },
        },
        (response) => {
          response.resume();
          done(response.statusCode);
        },
      ).end();
    });
    expect(status).toBe(403);
  });

  it('saves a label keyed by the cassette hash, keeps the file, and answers with the calibration recomputed', async () => {
    const response = await post(JSON.stringify(request()));
    expect(response.status).toBe(200);
    const state = (await response.json()) as LabelState;
    const file = JSON.parse(readFileSync(project.labels, 'utf8'));
    expect(file).toMatchObject({ judge: CHECK, by: 'tests' });
    expect(file.labels).toContainEqual({
      variant: 'baseline',
      trial: 2,
      label: 'fail',
      score: 0.1,
      note: 'says it resubmitted',
      cassette: project.hashes.get('baseline/2'),
    });
    expect(file.labels).toHaveLength(2);
    expect(state.checks[0]).toMatchObject({
      stale: 1,
      calibration: { labelled: 1, compared: 1, agree: 1, accuracy: 1 },
    });
  });

  it('saves labels posted at the same moment one after another, losing none', async () => {
    const trials = [3, 4, 5];
    const responses = await Promise.all(
      trials.map((trial) =>
        post(JSON.stringify(request({ trial, cassette: project.hashes.get(`baseline/${trial}`) }))),
      ),
    );
    expect(responses.map((response) => response.status)).toEqual([200, 200, 200]);
    const file = JSON.parse(readFileSync(project.labels, 'utf8'));
    const baseline = file.labels
      .filter((label: { variant: string }) => label.variant === 'baseline')
      .map((label: { trial: number }) => label.trial);
    expect(baseline).toEqual(expect.arrayContaining(trials));
  });
});
