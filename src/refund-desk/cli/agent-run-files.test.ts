import { mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { captureCli } from '../../cli/testing/cli.js';
import { runAgentCli } from './agent.js';

let base: string;
let cwd: string;
let outside: string;
beforeEach(() => {
  base = mkdtempSync(join(tmpdir(), 'agent-run-files-'));
  cwd = join(base, 'project');
  outside = join(base, 'elsewhere');
  mkdirSync(cwd);
  mkdirSync(outside);
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

// Nothing listens on port 9: the run must be refused before any model call.
const agentCli = (args: string[]) =>
  captureCli(() =>
    runAgentCli(args, {
      cwd,
      env: { ANTHROPIC_BASE_URL: 'http://127.0.0.1:9', ANTHROPIC_API_KEY: 'any' },
    }),
  );

describe('npm run agent: run files stay inside the project', () => {
  it.each([
    ['runs/journals', ['runs']],
    ['runs', []],
  ])('refuses a symlinked %s in one line and writes nothing outside', async (folder, parents) => {
    if (parents.length > 0) mkdirSync(join(cwd, ...parents));
    symlinkSync(outside, join(cwd, folder));
    const { code, stderr } = await agentCli(['where is my refund?']);
    expect(code).toBe(2);
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).toContain(`${folder} leads outside the project`);
    expect(readdirSync(outside)).toEqual([]);
  });
});
