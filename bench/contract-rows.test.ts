import { describe, expect, it } from 'vitest';
import { contractRows } from './contract-rows.js';
import { emptyBuildRuns, type TargetRuns } from './target-runs.js';
import { processRun as run } from './testing/process-runs.js';

const pair = (one: number, many: number) => ({ one: run(one), many: run(many) });
const runs: TargetRuns = {
  // Round 1 is slow, round 2 quick: start-up is 1.3x, then 1.1x, its own round's empty run.
  empty: [run(1000), run(500)],
  current: { ...emptyBuildRuns(), startup: [run(1300), run(550)], replay: [pair(1000, 1599)] },
  vitestTests: [pair(500, 500)],
  dependencies: [pair(40, 340)],
  debug: [pair(1000, 1720)],
  scale: [run(10_000)],
  leftovers: new Set(['4242 (esbuild) Z']),
};
const rows = contractRows(runs);
const row = (target: string) => rows.find((candidate) => candidate.target.startsWith(target));

describe('contractRows', () => {
  it("divides start-up by its own round's empty run", () => {
    // The ratio of the medians would read 925 / 750 = 1.23x.
    expect(row('start-up')).toMatchObject({ figure: '925 ms', ratio: '1.20x', goal: '≤ 1.3x' });
  });

  it('prints the replayed trial with issue 25 goals, and counts what was left behind', () => {
    expect(row('replayed refund trial, wall')).toMatchObject({
      figure: '1.00 ms',
      goal: '−40 % vs 1264a15',
    });
    expect(row('debug-agent trial, wall')).toMatchObject({ figure: '10 ms', goal: '≤ 15 ms' });
    expect(row('processes left behind')).toMatchObject({
      figure: '1',
      command: '4242 (esbuild) Z',
    });
    expect(row('npm test')).toBeUndefined();
  });
});
