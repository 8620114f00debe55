import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cassettePath } from '../replay/cassette.js';
import { createBenchProject } from './workload.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const LOOP = fileURLToPath(new URL('./trial-loop.mjs', import.meta.url));
let project: string;

beforeAll(() => {
  project = createBenchProject({ projectDir: root, trials: 0, trialsFor: { T2: 3 } });
});
afterAll(() => rmSync(project, { recursive: true, force: true }));

const loop = (...args: string[]) =>
  spawnSync(process.execPath, [LOOP, ...args], { encoding: 'utf8', timeout: 60_000 });

describe('trial-loop.mjs (the bench floor: the trials without vitest)', () => {
  it('replays every trial through runTrial and writes their traces', () => {
    const run = loop(project, '3');
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    for (const trial of [1, 2, 3]) {
      expect(existsSync(join(project, 'runs/eval/T2/upgraded', `trial-${trial}.jsonl`))).toBe(true);
    }
  });

  it('fails, naming the trial, when a trial does not replay', () => {
    const file = cassettePath(join(project, 'fixtures'), 'T2', 'upgraded', 2);
    const original = readFileSync(file, 'utf8');
    try {
      writeFileSync(file, original.replace('ORD3003', 'ORD9999'));
      const run = loop(project, '3');
      expect(run.status).toBe(1);
      expect(run.stderr).toMatch(/^1 of 3 trials did not replay:\ntrial 2: stale/);
    } finally {
      writeFileSync(file, original);
    }
  });

  it('refuses a missing project or a trial count that is not a whole number', () => {
    for (const args of [[], [project], [project, '0'], [project, '2.5']]) {
      const run = loop(...args);
      expect(run.status).not.toBe(0);
      expect(run.stderr).toContain('usage: node trial-loop.mjs <bench project> <trials');
    }
  });
});
