import { describe, expect, it } from 'vitest';
import { peerRows } from './peer-rows.js';
import { processRun } from './testing/process-runs.js';

const run = processRun;

describe('peerRows', () => {
  const rows = peerRows({
    trials: 11,
    empty: [run(1200), run(1000), run(1400)],
    runners: [
      // 10 extra trials: 40 ms more wall (4 ms per trial), 20 ms more CPU (2 ms).
      {
        name: 'harness-evals',
        command: 'ours',
        pairs: [{ one: run(3000), many: run(3040, 3020) }],
      },
      // 1 ms wall and 4 ms CPU per trial, 3 of them in its fork worker; start-up 1500 ms.
      {
        name: 'peer 1.0',
        command: 'theirs',
        pairs: [{ one: run(1500, 1000, 500), many: run(1510, 1010, 530) }],
      },
    ],
  });
  const row = (target: string) => rows.find((candidate) => candidate.target.startsWith(target));

  it('puts the empty vitest reference first', () => {
    expect(rows[0]).toMatchObject({
      target: 'empty vitest run (the reference)',
      figure: '1200 ms',
    });
  });

  it('gives each runner its per-trial wall and CPU and its 1-trial run', () => {
    expect(row('harness-evals: one more trial, wall')).toMatchObject({
      figure: '4.00 ms',
      ratio: '1.00x',
      command: 'ours',
    });
    expect(row('harness-evals: one more trial, CPU')?.figure).toBe('2.00 ms');
    expect(row('peer 1.0: one more trial, wall')?.figure).toBe('1.00 ms');
    expect(row('peer 1.0: one more trial, CPU')?.figure).toBe('4.00 ms');
    expect(row('peer 1.0: 1-trial run, wall')?.figure).toBe('1500 ms');
  });

  it('divides each peer figure by harness-evals figure of the same kind', () => {
    expect(row('peer 1.0: one more trial, wall')?.ratio).toBe('0.25x');
    expect(row('peer 1.0: one more trial, CPU')?.ratio).toBe('2.00x');
    expect(row('peer 1.0: 1-trial run, wall')?.ratio).toBe('0.50x');
  });
});
