import { describe, expect, it } from 'vitest';
import { peerRows } from './peer-rows.js';
import { processRun as run } from './testing/process-runs.js';

// 11 trials against 1: 10 extra trials, so 10 ms more is 1 ms a trial.
const { rows, targets } = peerRows({
  trials: 11,
  // The agent alone: 1 ms wall and 2 ms CPU a trial; 500 ms for one trial.
  agentAlone: {
    name: 'the agent alone',
    command: 'loop',
    pairs: [{ one: run(500), many: run(510, 520) }],
  },
  runners: [
    // 4 ms wall, 3 ms CPU a trial: overhead 3 ms wall, 1 ms CPU.
    { name: 'harness-evals', command: 'ours', pairs: [{ one: run(3000), many: run(3040, 3030) }] },
    // 2 ms wall; CPU 1 ms in-process + 3 ms in its fork worker = 4 ms: overhead 1 ms wall, 2 ms CPU.
    {
      name: 'vitest-evals 0.16.1',
      peer: 'vitest-evals',
      command: 'theirs',
      pairs: [{ one: run(1500, 1000, 500), many: run(1520, 1010, 530) }],
    },
    // 9 ms wall, 6 ms CPU: overhead 8 ms wall, 4 ms CPU.
    {
      name: 'evalite 0.19.0',
      peer: 'evalite',
      command: 'evalite run',
      pairs: [{ one: run(2000, 1000, 0), many: run(2090, 1060, 0) }],
    },
  ],
});
const row = (runner: string) => rows.find((candidate) => candidate.runner === runner);

describe('peerRows', () => {
  it('puts the agent alone first, without an overhead', () => {
    expect(rows[0]).toEqual({
      runner: 'the agent alone',
      wall: '1.00 ms',
      cpu: '2.00 ms',
      overheadWall: '',
      overheadCpu: '',
      start: '500 ms',
      command: 'loop',
    });
  });

  it("gives each runner its cost per trial (fork workers' CPU counted) and its overhead over the agent alone", () => {
    expect(row('harness-evals')).toMatchObject({
      wall: '4.00 ms',
      cpu: '3.00 ms',
      overheadWall: '3.00 ms',
      overheadCpu: '1.00 ms',
      start: '3000 ms',
    });
    expect(row('vitest-evals 0.16.1')).toMatchObject({
      wall: '2.00 ms',
      cpu: '4.00 ms',
      overheadWall: '1.00 ms',
      overheadCpu: '2.00 ms',
    });
    expect(row('evalite 0.19.0')).toMatchObject({
      overheadWall: '8.00 ms',
      overheadCpu: '4.00 ms',
    });
  });

  it("sets our overhead beside each peer's with issue 25's target", () => {
    expect(targets).toEqual([
      "harness overhead, harness-evals / vitest-evals 0.16.1: CPU 0.50x, wall 3.00x (target ≤ 1.00x: at most the peer's)",
      "harness overhead, harness-evals / evalite 0.19.0: CPU 0.25x, wall 0.38x (target ≤ 0.50x: at most half the peer's)",
    ]);
  });
});
