import { afterEach, describe, expect, it, vi } from 'vitest';
import { runEvalCli } from './eval.js';
import { refuseWithWatch } from './eval-watch.js';
import { captureCli } from './testing/cli.js';

describe('eval --watch flags', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it.each([
    [['--shard', '1/2'], '--shard'],
    [['--merge', 'reports/shards'], '--merge'],
    [['--update-reference'], '--update-reference'],
    [['--rescore'], '--rescore'],
    [['--rescore', '--record-judge'], '--rescore'],
    [['--otel', 'trace.json'], '--otel'],
    [['--otel-endpoint', 'http://127.0.0.1:4318'], '--otel-endpoint'],
  ])('refuses --watch %j in one line naming the flag, before any run', async (args, flag) => {
    vi.stubEnv('CI', '');
    const { code, stdout, stderr } = await captureCli(() => runEvalCli(['--watch', ...args]));
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).toContain(`does not take ${flag} `);
    expect(stderr).toContain('drop one of them');
  });

  it('refuses --watch when CI is set: a watch never ends', () => {
    expect(() => refuseWithWatch({}, { CI: 'true' })).toThrow(
      /--watch .* refused when CI is set: CI runs npm run eval/,
    );
  });

  it('takes --watch with a selection, the trials and the replay mode', () => {
    expect(() => refuseWithWatch({}, { CI: '' })).not.toThrow();
    expect(() => refuseWithWatch({}, {})).not.toThrow();
  });
});
