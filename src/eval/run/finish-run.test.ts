import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError } from '../../core/errors.js';
import { makeRecord } from '../report/testing/records.js';
import { finishRun, loadReference } from './finish-run.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A project whose reports/reference.json was written by an older version (schema 1). */
function projectWithOldReference(): string {
  const dir = mkdtempSync(join(tmpdir(), 'finish-run-'));
  dirs.push(dir);
  mkdirSync(join(dir, 'reports'));
  writeFileSync(join(dir, 'reports/reference.json'), JSON.stringify({ schemaVersion: 1 }));
  return dir;
}

describe('loadReference', () => {
  it('refuses an older-version reference, saying how to regenerate it', async () => {
    const dir = projectWithOldReference();
    await expect(loadReference(dir, undefined)).rejects.toThrow(ConfigError);
    await expect(loadReference(dir, undefined)).rejects.toThrow(/--update-reference/);
  });

  it('skips it when this run is about to replace it (--update-reference)', async () => {
    const dir = projectWithOldReference();
    await expect(loadReference(dir, undefined, true)).resolves.toBeUndefined();
  });

  it('has nothing to compare with when there is no reference', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'finish-run-'));
    dirs.push(dir);
    await expect(loadReference(dir, undefined)).resolves.toBeUndefined();
    await expect(loadReference(dir, join(dir, 'nope.json'))).rejects.toThrow(/no such file/);
  });
});

describe('finishRun: transcripts', () => {
  it('uses the transcripts read during the run and reads the others, each with its own trial', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'finish-run-'));
    dirs.push(dir);
    const early = makeRecord({ trial: 1, fixture: 'fixtures/T1/upgraded/trial-1.json' });
    const late = makeRecord({ trial: 2, fixture: 'fixtures/T1/upgraded/trial-2.json' });
    await finishRun(
      {
        projectDir: dir,
        records: [late, early],
        floors: [],
        loadErrors: [],
        declared: new Set(),
        trials: 2,
        reference: undefined,
        transcripts: new Map([[early, Promise.resolve({ unavailable: 'read during the run' })]]),
      },
      {},
    );
    const html = readFileSync(join(dir, 'reports/latest.html'), 'utf8');
    const first = html.indexOf('read during the run');
    expect(first).toBeGreaterThan(-1);
    expect(html.indexOf('read during the run', first + 1)).toBe(-1);
    // The other trial was read at the end: its cassette is missing, and its transcript says so.
    expect(html).toContain('trial-2.json is missing');
    expect(html).not.toContain('trial-1.json is missing');
  });
});

describe('finishRun: writing the reports', () => {
  const input = (dir: string) => ({
    projectDir: dir,
    records: [makeRecord({ trial: 1 })],
    floors: [],
    loadErrors: [],
    declared: new Set<string>(),
    trials: 1,
    reference: undefined,
  });

  // A read-only reports/ used to throw away the whole result: no scores, no gate, one line
  // naming a temp file. Root ignores file modes, so a directory in a report's place stands in.
  it('keeps the scores and the gate when the reports cannot be written, and replaces none of them', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'finish-run-'));
    dirs.push(dir);
    mkdirSync(join(dir, 'reports/latest.html'), { recursive: true });
    writeFileSync(join(dir, 'reports/latest.json'), 'the previous run');
    const finished = await finishRun(input(dir), {});
    expect(finished.terminal).toContain('T1');
    expect(finished.report.gate.passed).toBe(true);
    expect(finished.written).toEqual([]);
    expect(finished.writeError).toContain('the reports were not written');
    expect(finished.writeError).toContain('latest.html is a directory');
    expect(readFileSync(join(dir, 'reports/latest.json'), 'utf8')).toBe('the previous run');
  });

  it('writes latest.json, .md and .html as one set', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'finish-run-'));
    dirs.push(dir);
    const finished = await finishRun(input(dir), {});
    expect(finished.writeError).toBeUndefined();
    expect(finished.written).toEqual([
      'reports/latest.json',
      'reports/latest.md',
      'reports/latest.html',
    ]);
    expect(JSON.parse(readFileSync(join(dir, 'reports/latest.json'), 'utf8')).trials).toBe(1);
  });
});
