import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { captureCli } from './cli-testing.js';
import { runRecordCli } from './record.js';

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
afterAll(() => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
  rmSync(project, { recursive: true, force: true });
});

describe('npm run record -- --verify', () => {
  it('lists the edited cassette and exits 1, in CI too', async () => {
    // In process, run from the throwaway project as `npm run record -- --verify` would be.
    vi.spyOn(process, 'cwd').mockReturnValue(project);
    vi.stubEnv('CI', '1');
    const result = await captureCli(() => runRecordCli(['--verify']));
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
