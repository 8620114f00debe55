import type { TrialRecord } from '../../spec/trial-record.js';

/** Test double: one trial record with quiet defaults; override what the test is about. */
export function makeRecord(overrides: Partial<TrialRecord> = {}): TrialRecord {
  return {
    suite: 'refund-desk',
    task: 'T1',
    title: 'business rules',
    variant: 'upgraded',
    trial: 1,
    outcome: 'passed',
    messages: [],
    status: 'done',
    stats: {
      steps: 3,
      toolCalls: 2,
      toolErrors: 0,
      unconfirmedWrites: 0,
      inputTokens: 1000,
      outputTokens: 100,
      cacheReadTokens: 0,
      cacheWriteTokens: 0,
      modelMs: 900,
      toolMs: 20,
    },
    modelLatenciesMs: [300, 300, 300],
    source: 'simulator',
    model: 'claude-sonnet-4-5',
    ...overrides,
  };
}

function stats(inputTokens: number, steps: number, toolMs: number): TrialRecord['stats'] {
  return {
    steps,
    toolCalls: steps - 1,
    toolErrors: steps > 3 ? 1 : 0,
    unconfirmedWrites: 0,
    inputTokens,
    outputTokens: inputTokens / 10,
    cacheReadTokens: 500,
    cacheWriteTokens: 0,
    modelMs: 0,
    toolMs,
  };
}

/**
 * A small run: T1 baseline 1/3 and upgraded 3/3; T3 baseline 0/2 (+1 errored) and upgraded 2/2
 * (+1 stale); T6 upgraded only, every fixture missing.
 */
export function sampleRecords(): TrialRecord[] {
  const t1 = { task: 'T1', title: 'business rules' };
  const t3 = { task: 'T3', title: 'downstream hang' };
  const t6 = { task: 'T6', title: 'missing payment', variant: 'upgraded' };
  // biome-ignore format: one trial per line reads as a table
  return [
    makeRecord({ ...t1, variant: 'baseline', trial: 1, outcome: 'failed', messages: ['expected "Overdue"'], tracePath: 'runs/T1-baseline-1.jsonl', stats: stats(1000, 3, 10), modelLatenciesMs: [100, 200] }),
    makeRecord({ ...t1, variant: 'baseline', trial: 2, outcome: 'failed', messages: ['card number leaked'], stats: stats(2000, 4, 20), modelLatenciesMs: [300] }),
    makeRecord({ ...t1, variant: 'baseline', trial: 3, outcome: 'passed', stats: stats(3000, 5, 30), modelLatenciesMs: [400, 500] }),
    makeRecord({ ...t1, variant: 'upgraded', trial: 1, stats: stats(1500, 3, 5), modelLatenciesMs: [250] }),
    makeRecord({ ...t1, variant: 'upgraded', trial: 2, stats: stats(1500, 3, 5), modelLatenciesMs: [250] }),
    makeRecord({ ...t1, variant: 'upgraded', trial: 3, stats: stats(1500, 3, 5), modelLatenciesMs: [250] }),
    makeRecord({ ...t3, variant: 'baseline', trial: 1, outcome: 'errored', messages: ['ECONNRESET'], modelLatenciesMs: [9999] }),
    makeRecord({ ...t3, variant: 'baseline', trial: 2, outcome: 'failed', messages: ['tool time 10000 ms'], stats: stats(800, 2, 10_000) }),
    makeRecord({ ...t3, variant: 'baseline', trial: 3, outcome: 'failed', messages: ['tool time 10000 ms'], stats: stats(800, 2, 10_000) }),
    makeRecord({ ...t3, variant: 'upgraded', trial: 1, stats: stats(900, 3, 4000) }),
    makeRecord({ ...t3, variant: 'upgraded', trial: 2, stats: stats(900, 3, 4000) }),
    makeRecord({ ...t3, variant: 'upgraded', trial: 3, outcome: 'stale', messages: ['fixtures/T3/upgraded/trial-3.json is stale'], modelLatenciesMs: [9999] }),
    ...[1, 2, 3].map((trial) =>
      makeRecord({ ...t6, trial, outcome: 'missing', messages: [`fixtures/T6/upgraded/trial-${trial}.json is missing`], fixture: `fixtures/T6/upgraded/trial-${trial}.json` }),
    ),
  ];
}
