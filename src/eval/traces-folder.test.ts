import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError } from '../core/errors.js';
import { rejectionOf } from '../core/testing/rejection-of.js';
import { runEvals } from './run-evals.js';
import { checkTracesFolder } from './traces-folder.js';

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});
function project(): string {
  const dir = mkdtempSync(join(tmpdir(), 'traces-folder-'));
  made.push(dir);
  return dir;
}

describe('the traces folder, checked before any trial runs', () => {
  it('is created when missing, and the check leaves nothing behind', async () => {
    const dir = project();
    await checkTracesFolder(dir);
    expect(readdirSync(join(dir, 'runs', 'eval'))).toEqual([]);
  });

  it('names runs/ and the fix when a file is in its way', async () => {
    const dir = project();
    writeFileSync(join(dir, 'runs'), 'not a folder\n');
    const error = await rejectionOf(checkTracesFolder(dir), ConfigError);
    expect(error.message).toMatch(/^cannot write the trial traces under runs\/eval: /);
    expect(error.message).toContain('ENOTDIR');
    expect(error.message).toContain('make runs/eval a writable folder');
  });

  it('stops an eval before vitest starts, instead of erroring every trial', async () => {
    const dir = project();
    writeFileSync(join(dir, 'vitest.evals.config.ts'), 'export default {};\n');
    writeFileSync(join(dir, 'runs'), 'not a folder\n');
    const error = await rejectionOf(
      runEvals({ projectDir: dir, mode: 'replay', trials: 1, writeReports: false }),
      ConfigError,
    );
    expect(error.message).toMatch(/^cannot write the trial traces under runs\/eval: /);
  });
});
