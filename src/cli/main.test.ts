import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../..', import.meta.url));
const launch = join(root, 'src/cli/launch.mjs');

async function cli(...args: string[]) {
  try {
    const { stdout, stderr } = await run('node', [launch, 'src/cli/main.ts', ...args], {
      cwd: root,
    });
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, output: failed.stdout + failed.stderr };
  }
}

describe('the harness-evals dispatcher', () => {
  it('lists its subcommands', async () => {
    const result = await cli('--help');
    expect(result.code).toBe(0);
    for (const command of ['eval', 'record', 'init', 'simulator', 'trace', 'agent']) {
      expect(result.output).toMatch(new RegExp(`^  ${command} `, 'm'));
    }
  });

  it('hands the flags to the subcommand as if it ran alone', async () => {
    const result = await cli('trace', '--help');
    expect(result.code).toBe(0);
    expect(result.output).toMatch(/^usage: npm run trace/);
  });

  it('refuses an unknown command with exit code 2 and the usage', async () => {
    const result = await cli('evaluate');
    expect(result.code).toBe(2);
    expect(result.output).toContain("harness-evals: unknown command 'evaluate'");
    expect(result.output).toContain('usage: harness-evals <command>');
  });
});
