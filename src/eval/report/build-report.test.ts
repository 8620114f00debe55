import { describe, expect, it } from 'vitest';
import { buildReport } from './build-report.js';
import { makeRecord, sampleRecords } from './test-records.js';

describe('buildReport', () => {
  it('assembles the header fields, tables, lists and gate from the records', () => {
    const report = buildReport({
      records: sampleRecords(),
      trials: 3,
      floors: [{ task: 'T1', floor: { variant: 'upgraded', passAt1: 1 } }],
      generatedAt: new Date('2026-01-09T10:00:00Z'),
    });
    expect(report).toMatchObject({
      schemaVersion: 1,
      generatedAt: '2026-01-09T10:00:00.000Z',
      trials: 3,
      fixtureSources: ['simulator'],
      models: ['claude-sonnet-4-5'],
      suites: ['refund-desk'],
    });
    expect(report.tasks).toHaveLength(5);
    expect(report.summary.map((row) => row.variant)).toEqual(['baseline', 'upgraded']);
    expect(report.failures).toHaveLength(5);
    expect(report.staleFixtures).toHaveLength(4);
    expect(report.comparison).toBeUndefined();
    expect(report.gate.passed).toBe(false);
    expect(report.gate.reasons).toHaveLength(3);
  });

  it('compares against a reference and gates on what dropped', () => {
    const records = [1, 2].map((trial) => makeRecord({ trial, source: 'live' }));
    const reference = buildReport({ records, trials: 2, floors: [], generatedAt: 'then' });
    const worse = [
      makeRecord({ trial: 1, source: 'live' }),
      makeRecord({ trial: 2, outcome: 'failed' }),
    ];
    const report = buildReport({
      records: worse,
      trials: 2,
      floors: [],
      reference,
      generatedAt: 'now',
    });
    expect(report.fixtureSources).toEqual(['live', 'simulator']);
    expect(report.comparison?.referenceGeneratedAt).toBe('then');
    expect(report.comparison?.entries[0]?.flag).toBe('dropped');
    expect(report.gate.reasons).toEqual([
      'T1 upgraded pass@1 1.00 -> 0.50 (lower than the reference)',
      'T1 upgraded pass^2 1.00 -> 0.00 (lower than the reference)',
    ]);
  });
});
