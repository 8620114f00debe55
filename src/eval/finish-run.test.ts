import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError } from '../core/errors.js';
import { loadReference } from './finish-run.js';

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
