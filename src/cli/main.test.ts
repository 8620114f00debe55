import { describe, expect, it } from 'vitest';
import { runMainCli } from './dispatch.js';
import { captureCli } from './testing/cli.js';

/** The dispatcher in process: what it prints, and its exit code. */
async function cli(...args: string[]) {
  const { code, stdout, stderr } = await captureCli(async () => (await runMainCli(args)) ?? 0);
  return { code, output: stdout + stderr };
}

describe('the harness-evals dispatcher', () => {
  it('lists its subcommands', async () => {
    const result = await cli('--help');
    expect(result.code).toBe(0);
    for (const command of ['eval', 'record', 'init', 'simulator', 'trace']) {
      expect(result.output).toMatch(new RegExp(`^  ${command} `, 'm'));
    }
  });

  // The refund desk's CLI is this repository's `npm run agent`, not a command of the package.
  it('has no agent command: running the example agent is not part of the package', async () => {
    const help = await cli('--help');
    expect(help.output).not.toMatch(/^ {2}agent /m);
    const result = await cli('agent', '--help');
    expect(result.code).toBe(2);
    expect(result.output).toContain("harness-evals: unknown command 'agent'");
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
