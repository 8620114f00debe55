import { describe, expect, it } from 'vitest';
import { buildReport } from './build-report.js';
import { keyOf } from './compare.js';
import { renderMarkdown } from './markdown.js';
import { renderTerminal } from './terminal.js';
import { makeRecord, sampleRecords } from './testing/records.js';

describe('buildReport', () => {
  it('assembles the header fields, tables, lists and gate from the records', () => {
    const report = buildReport({
      records: sampleRecords(),
      trials: 3,
      floors: [{ task: 'T1', floor: { variant: 'upgraded', passAt1: 1 } }],
      generatedAt: new Date('2026-01-09T10:00:00Z'),
    });
    expect(report).toMatchObject({
      schemaVersion: 4,
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

  it('records where each trial came from: source, host, model, recordedAt, cassette hash, cost', () => {
    const records = [
      makeRecord({
        trial: 1,
        source: 'live',
        host: 'api.anthropic.com',
        cassetteHash: 'aa',
        recordedAt: '2026-01-01T00:00:00Z',
      }),
      makeRecord({ trial: 2, source: 'simulator', host: '127.0.0.1:4010', cassetteHash: 'bb' }),
    ];
    const report = buildReport({ records, trials: 2, floors: [], generatedAt: 'now' });
    expect(report.hosts).toEqual(['127.0.0.1:4010', 'api.anthropic.com']);
    expect(report.trialProvenance).toEqual([
      {
        suite: 'refund-desk',
        task: 'T1',
        variant: 'upgraded',
        trial: 1,
        outcome: 'passed',
        source: 'live',
        host: 'api.anthropic.com',
        model: 'claude-sonnet-4-5',
        recordedAt: '2026-01-01T00:00:00Z',
        cassetteHash: 'aa',
        // 1,000 input and 100 output tokens at claude-sonnet-4-5's $3 / $15 per million.
        costUsd: 0.0045,
      },
      {
        suite: 'refund-desk',
        task: 'T1',
        variant: 'upgraded',
        trial: 2,
        outcome: 'passed',
        source: 'simulator',
        host: '127.0.0.1:4010',
        model: 'claude-sonnet-4-5',
        cassetteHash: 'bb',
        costUsd: 0.0045,
      },
    ]);
  });

  it('compares against a reference and gates on what dropped', () => {
    const records = [1, 2].map((trial) =>
      makeRecord({ trial, source: 'live', cassetteHash: `hash-${trial}` }),
    );
    const reference = buildReport({ records, trials: 2, floors: [], generatedAt: 'then' });
    // The same cassettes, so the drop is deterministic and fails the gate.
    const worse = [
      makeRecord({ trial: 1, source: 'live', cassetteHash: 'hash-1' }),
      makeRecord({ trial: 2, outcome: 'failed', cassetteHash: 'hash-2' }),
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
    expect(report.comparison?.entries[0]).toMatchObject({ flag: 'dropped', cassettes: 'same' });
    expect(report.gate.reasons).toEqual([
      'T1 upgraded pass@1 1.00 -> 0.50 (lower than the reference)',
      'T1 upgraded pass^2 1.00 -> 0.00 (lower than the reference)',
    ]);
  });

  it('shows unselected reference rows as not run and fails on a task that no longer exists', () => {
    const reference = buildReport({
      records: ['T1', 'T2', 'T7'].map((task) => makeRecord({ task, trial: 1 })),
      trials: 1,
      floors: [],
      generatedAt: 'then',
    });
    const declared = new Set(
      ['T1', 'T2'].map((task) => keyOf({ suite: 'refund-desk', task, variant: 'upgraded' })),
    );
    const gone = reference.tasks.filter((row) => row.task === 'T7');
    const report = buildReport({
      records: [makeRecord({ task: 'T1', trial: 1 })],
      trials: 1,
      floors: [],
      reference,
      declared,
      gone,
      generatedAt: 'now',
    });
    expect(report.comparison?.entries.map((entry) => [entry.task, entry.flag])).toEqual([
      ['T1', 'same'],
      ['T7', 'gone'],
    ]);
    expect(report.gate.passed).toBe(false);
    expect(report.gate.reasons).toEqual([
      expect.stringMatching(
        /^T7 upgraded \(suite refund-desk\) is in the reference but no eval task declares it any more: .*--update-reference/,
      ),
    ]);
    for (const text of [renderMarkdown(report), renderTerminal(report)]) {
      expect(text).toContain('Not run (not selected, so not compared): T2 (upgraded)');
      expect(text).not.toMatch(/T2[^\n]*gone/);
    }
  });
});
