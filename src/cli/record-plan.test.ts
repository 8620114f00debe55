import { describe, expect, it } from 'vitest';
import { fixedTrials } from '../eval/stats/sequential-forecast.js';
import { runRecordCli } from './record.js';
import { captureCli } from './testing/cli.js';

describe('npm run record -- --plan', () => {
  it('forecasts each row against the reference and beside its baseline, and spends nothing', async () => {
    const { code, stdout } = await captureCli(() => runRecordCli(['--plan', '--task', 'T2']));
    expect(code).toBe(0);
    // Three compared rows: T2 baseline and upgraded against the reference, upgraded beside baseline.
    const fixed = fixedTrials(1, 0.9, 0.05 / 3, 0.2);
    expect(stdout).toContain(`T2 upgraded | vs reference (3/3) | ${fixed} |`);
    expect(stdout).toContain(`T2 upgraded | paired with baseline | ${fixed} |`);
    expect(stdout).toMatch(/^Expected total when nothing changed: about \d+ trials/m);
    // reports/reference.json is from before costs: the dollars are unknown, never $0.
    expect(stdout).toContain('cost unknown');
    expect(stdout).not.toMatch(/\$0\.00/);
  });

  it('refuses a bad decision flag, and the flags only recording reads, in one line', async () => {
    const { code, stderr } = await captureCli(() => runRecordCli(['--plan', '--delta', '0.001']));
    expect(code).toBe(2);
    expect(stderr).toMatch(/^record: --delta 0\.001 is below 0\.01/);
    const unread = await captureCli(() =>
      runRecordCli(['--plan', '--budget', '5', '--batch', '2', '--simulated']),
    );
    expect(unread.code).toBe(2);
    expect(unread.stdout).toBe('');
    expect(unread.stderr).toBe(
      'record: --plan spends nothing and records nothing: drop --batch, --budget, --simulated\n',
    );
  });
});
