import { describe, expect, it } from 'vitest';
import type { JudgmentRecord } from '../spec/judgment.js';
import type { PricesFile } from '../spec/prices.js';
import { priceTable } from '../spec/prices-file.js';
import type { TrialRecord } from '../spec/trial-record.js';
import { buildReport } from './build-report.js';
import { costsOf } from './cost.js';
import { EvalReportSchema, parseReport } from './report-schema.js';
import { makeRecord } from './testing/records.js';

const prices = priceTable();

/** 2,000 input, 500 output, 10,000 cache-read and 4,000 cache-write tokens. */
function trial(overrides: Partial<TrialRecord> = {}): TrialRecord {
  const base = makeRecord({ source: 'live', model: 'claude-sonnet-4-5' });
  return {
    ...base,
    stats: {
      ...base.stats!,
      inputTokens: 2000,
      outputTokens: 500,
      cacheReadTokens: 10_000,
      cacheWriteTokens: 4000,
    },
    ...overrides,
  };
}

function judgment(calls: JudgmentRecord['calls'], model = 'openai:gpt-5-mini'): JudgmentRecord {
  return {
    check: 'polite',
    verdict: 'pass',
    score: 1,
    threshold: 0.5,
    votes: { pass: 1, fail: 0 },
    models: [model],
    samples: [{ model, sample: 1, label: 'pass', score: 1, inputTokens: 4000, outputTokens: 1000 }],
    calls,
    source: 'live',
  };
}

describe('costsOf', () => {
  it('prices input, output, cache reads and cache writes each at their own rate', () => {
    // By hand, claude-sonnet-4-5 at $3 / $15 / $0.30 read / $3.75 write per million:
    // 2000 * 3 + 500 * 15 + 10000 * 0.3 + 4000 * 3.75 = 31,500 micro-dollars.
    const costs = costsOf([trial()], prices);
    expect(costs.recorded).toEqual({ usd: 0.0315, calls: 1, estimate: false, unpriced: [] });
  });

  it('says unknown, never $0, for a model without a price, and for a row that has one', () => {
    const unknown = costsOf([trial({ model: 'claude-opus-5' })], prices);
    expect(unknown.recorded).toEqual({
      usd: null,
      calls: 1,
      estimate: false,
      unpriced: ['claude-opus-5'],
    });
    const mixed = costsOf([trial(), trial({ trial: 2, model: undefined })], prices);
    expect(mixed.recorded.usd).toBeNull();
    expect(mixed.recorded.unpriced).toEqual(['(no model recorded)']);
  });

  it('keeps what recording cost apart from what this run cost: a replay spends $0', () => {
    const replayed = costsOf([trial(), trial({ trial: 2 })], prices);
    expect(replayed.recorded.usd).toBe(0.063);
    expect(replayed.run).toEqual({ usd: 0, calls: 0, estimate: false, unpriced: [] });
    const recording = costsOf([trial({ written: true }), trial({ trial: 2 })], prices);
    expect(recording.run).toMatchObject({ usd: 0.0315, calls: 1 });
  });

  it('counts judges apart: recorded verdicts as recorded, live or newly recorded ones as this run', () => {
    // gpt-5-mini at $0.25 in, $2 out: 4000 * 0.25 + 1000 * 2 = 3,000 micro-dollars a sample.
    const costs = costsOf(
      [
        trial({ judgments: [judgment('replayed')] }),
        trial({ trial: 2, judgments: [judgment('live')] }),
        trial({ trial: 3, judgments: [judgment('recorded')] }),
      ],
      prices,
    );
    expect(costs.recorded.usd).toBe(0.0945);
    expect(costs.judges).toEqual({ usd: 0.006, calls: 2, estimate: false, unpriced: [] });
    expect(costs.runJudges).toEqual({ usd: 0.006, calls: 2, estimate: false, unpriced: [] });
  });

  it('labels a cost from simulator token counts an estimate', () => {
    expect(costsOf([trial({ source: 'simulator' })], prices).recorded.estimate).toBe(true);
    const judged = trial({ judgments: [{ ...judgment('replayed'), source: 'simulator' }] });
    expect(costsOf([judged], prices).judges.estimate).toBe(true);
  });

  it('leaves out trials without token counts: stale and missing ones cost nothing recorded', () => {
    const costs = costsOf(
      [trial({ outcome: 'stale' }), trial({ trial: 2, outcome: 'missing', stats: undefined })],
      prices,
    );
    expect(costs.recorded).toEqual({ usd: 0, calls: 0, estimate: false, unpriced: [] });
  });

  it('prices a dated snapshot id as its model, and takes a prices file over the built-in table', () => {
    expect(costsOf([trial({ model: 'claude-sonnet-4-5-20250929' })], prices).recorded.usd).toBe(
      0.0315,
    );
    const file: PricesFile = {
      checkedOn: '2026-12-07',
      models: {
        'claude-sonnet-4-5': { input: 1, output: 1, cacheWrite: 1, cacheRead: 1 },
        'claude-opus-5': { input: 5, output: 25, cacheWrite: 6.25, cacheRead: 0.5 },
      },
    };
    const own = priceTable(file);
    expect(costsOf([trial()], own).recorded.usd).toBe(0.0165);
    // 2000 * 5 + 500 * 25 + 10000 * 0.5 + 4000 * 6.25 = 52,500 micro-dollars.
    expect(costsOf([trial({ model: 'claude-opus-5' })], own).recorded.usd).toBe(0.0525);
    expect(own.get('claude-opus-5')?.from).toBe('harness-evals.prices.json, checked 2026-12-07');
  });
});

describe('report costs', () => {
  const records = [
    trial({ variant: 'baseline' }),
    trial({ variant: 'baseline', trial: 2, outcome: 'failed' }),
    trial({ judgments: [judgment('replayed')] }),
    trial({ task: 'T2', model: 'claude-opus-5' }),
  ];
  const report = buildReport({ records, trials: 2, floors: [], generatedAt: 'now' });

  it('gives each row, each variant and the run its cost, and each trial its own', () => {
    const row = (task: string, variant: string) =>
      report.tasks.find((entry) => entry.task === task && entry.variant === variant)?.cost;
    expect(row('T1', 'baseline')?.recorded).toMatchObject({ usd: 0.063, calls: 2 });
    expect(row('T1', 'upgraded')?.judges).toMatchObject({ usd: 0.003, calls: 1 });
    expect(row('T2', 'upgraded')?.recorded).toMatchObject({
      usd: null,
      unpriced: ['claude-opus-5'],
    });
    const upgraded = report.summary.find((entry) => entry.variant === 'upgraded')?.cost;
    expect(upgraded?.recorded).toMatchObject({ usd: null, calls: 2 });
    expect(report.cost?.recorded).toMatchObject({ usd: null, calls: 4 });
    expect(report.cost?.judges.usd).toBe(0.003);
    expect(report.cost?.prices.map((price) => price.model)).toEqual([
      'claude-sonnet-4-5',
      'openai:gpt-5-mini',
    ]);
    expect(report.trialProvenance.map((entry) => entry.costUsd)).toEqual([
      0.0315,
      0.0315,
      0.0315,
      null,
    ]);
  });

  it('writes schemaVersion 4 that its schema reads, and still reads a version 3 report', () => {
    expect(EvalReportSchema.parse(report).schemaVersion).toBe(4);
    const { cost: _cost, ...withoutCost } = report;
    const old = {
      ...withoutCost,
      schemaVersion: 3,
      tasks: report.tasks.map(({ cost: _row, ...row }) => row),
      summary: report.summary.map(({ cost: _row, ...row }) => row),
      trialProvenance: report.trialProvenance.map(({ costUsd: _trial, ...entry }) => entry),
    };
    expect(parseReport(JSON.stringify(old), 'reports/reference.json').schemaVersion).toBe(3);
    expect(() => parseReport({ ...old, schemaVersion: 2 }, 'old.json')).toThrow(
      'old.json: schemaVersion 2 is not 3 or 4',
    );
  });
});
