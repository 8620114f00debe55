import type { GateResult } from './report-schema.js';

/** The gate's one line under a report: "gate: passed", or the count of the reasons listed above. */
export function gateLine(gate: Pick<GateResult, 'passed' | 'reasons'>): string {
  const count = gate.reasons.length;
  return gate.passed
    ? 'gate: passed'
    : `gate: FAILED (${count} reason${count === 1 ? '' : 's'} above)`;
}
