import { describe, expect, it } from 'vitest';
import { evaluateGate } from '../report/gate.js';
import { type ReferenceRow, referenceChanges } from './reference-changes.js';

const row = (task: string, passed: number): ReferenceRow => ({
  suite: 'refund-desk',
  task,
  variant: 'upgraded',
  n: 3,
  passed,
  passAt1: passed / 3,
  passHatK: { '3': passed === 3 ? 1 : 0 },
});

describe('referenceChanges', () => {
  it('counts a reference row that was removed as lowering the bar, and the gate fails on it', () => {
    const diff = referenceChanges(
      { tasks: [row('T1', 3), row('T2', 3)] },
      { tasks: [row('T1', 3)] },
    );
    expect(diff).toMatchObject({ status: 'changed', lowered: true });
    expect(diff.rows).toEqual([expect.objectContaining({ task: 'T2', change: 'removed' })]);
    const gate = evaluateGate({
      records: [],
      summaries: [],
      floors: [],
      changes: { ref: 'origin/main', reference: { ...diff, allowed: false } } as never,
    });
    expect(gate.reasons.some((reason) => reason.includes('T2 upgraded (removed)'))).toBe(true);
    // Raising a row is no lowering.
    expect(referenceChanges({ tasks: [row('T1', 2)] }, { tasks: [row('T1', 3)] }).lowered).toBe(
      false,
    );
  });
});
