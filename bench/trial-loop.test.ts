import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cassettePath } from '../src/replay/cassette.js';
import { createBenchProject } from './workload.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const LOOP = fileURLToPath(new URL('./trial-loop.mjs', import.meta.url));
let project: string;

beforeAll(() => {
  project = createBenchProject({ projectDir: root, trials: 0, trialsFor: { T2: 3 } });
});
const stubs: string[] = [];
afterAll(() => {
  for (const dir of [project, ...stubs]) rmSync(dir, { recursive: true, force: true });
});

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

  it('runs a build from before 27acba5 (dist/eval/trial-runner.js, dist/eval/settings.js)', () => {
    const old = stubBuild({
      'eval/trial-runner.js':
        "export const runTrial = async ({ trial }) => { console.log('old layout, trial ' + trial); return { record: { outcome: 'passed', messages: [] }, run: { status: 'done' } }; };",
      'eval/settings.js': 'export const readEvalSettings = () => ({});',
    });
    const run = loop(old, '2');
    expect(run.stderr).toBe('');
    expect(run.stdout).toBe('old layout, trial 1\nold layout, trial 2\n');
    expect(run.status).toBe(0);
  });

  it('names what it could not find in either layout, and exits 2', () => {
    const neither = stubBuild({ 'eval/run/settings.js': '' });
    const run = loop(neither, '1');
    expect(run.status).toBe(2);
    expect(run.stderr).toBe(
      `trial-loop.mjs: ${neither} has no build the loop can run: no dist/eval/trial/trial-runner.js and dist/eval/spec/settings.js (the layout since eval/spec/); no dist/eval/trial/trial-runner.js (the layout since 27acba5); no dist/eval/trial-runner.js and dist/eval/settings.js (the layout before 27acba5). Build it (npm run build) in the checkout the bench project links to.\n`,
    );
  });
});

/** A bench project whose dist/ holds stand-ins: the package entries and `files`. */
function stubBuild(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'trial-loop-stub-'));
  stubs.push(dir);
  const write = (path: string, text: string) => {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), text);
  };
  write('dist/index.js', 'export const defineAgent = (agent) => agent;');
  write('dist/reference-agents.js', 'export const REFUND_DESK_VARIANTS = [];');
  write(
    'fixtures/T2/upgraded/trial-1.json',
    JSON.stringify({ exchanges: [{ request: { body: { messages: [{ content: 'prompt' }] } } }] }),
  );
  for (const [path, text] of Object.entries(files)) write(join('dist', path), text);
  return dir;
}
