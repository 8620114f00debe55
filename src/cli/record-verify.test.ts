import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../..', import.meta.url));
let project: string;

/** A throwaway project with a copy of T2's cassettes, one of them with an edited final answer. */
beforeAll(() => {
  project = mkdtempSync(join(tmpdir(), 'record-verify-'));
  for (const name of ['src', 'node_modules']) symlinkSync(join(root, name), join(project, name));
  cpSync(join(root, 'package.json'), join(project, 'package.json'));
  cpSync(join(root, 'fixtures/T2'), join(project, 'fixtures/T2'), { recursive: true });
  const file = join(project, 'fixtures/T2/upgraded/trial-2.json');
  const cassette = JSON.parse(readFileSync(file, 'utf8'));
  const answer = cassette.exchanges
    .at(-1)
    .response.body.content.find((block: { type: string }) => block.type === 'text');
  answer.text = `${answer.text} (edited by hand)`;
  writeFileSync(file, `${JSON.stringify(cassette, null, 2)}\n`);
});
afterAll(() => rmSync(project, { recursive: true, force: true }));

describe('npm run record -- --verify', () => {
  it('lists the edited cassette and exits 1, in CI too', { timeout: 120_000 }, async () => {
    const result = await run(
      process.execPath,
      [join(root, 'src/cli/launch.mjs'), 'src/cli/record.ts', '--verify'],
      { cwd: project, env: { ...process.env, CI: '1' } },
    ).then(
      (ok) => ({ code: 0, stdout: ok.stdout }),
      (error: { code: number; stdout: string }) => error,
    );
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('✗ fixtures/T2/upgraded/trial-2.json (simulator)');
    expect(result.stdout).toMatch(
      /cassettes checked \(\d+ simulator re-derived, 0 from model scripts or Chat Completions: schema and secrets only, 0 live\): 1 does not match/,
    );
    expect(result.stdout).not.toContain('trial-1.json');
    expect(result.stdout).toContain(
      'Re-record with:\n  npm run record -- --task T2 --variant upgraded --trial 2 --simulated',
    );
  });
});
