import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError } from '../../core/errors.js';
import { rejectionOf } from '../../core/testing/rejection-of.js';
import type { ShardResult } from '../shard/shard-result-schema.js';
import { mergeEvals } from './merge-evals.js';
import { runEvals } from './run-evals.js';
import { checkTracesFolder } from './traces-folder.js';

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});
function project(): string {
  const dir = mkdtempSync(join(tmpdir(), 'traces-folder-'));
  made.push(dir);
  return dir;
}

describe('the traces folder, checked before any trial runs', () => {
  it('is created when missing, and the check leaves nothing behind', async () => {
    const dir = project();
    await checkTracesFolder(dir);
    expect(readdirSync(join(dir, 'runs', 'eval'))).toEqual([]);
  });

  it('names runs/ and the fix when a file is in its way', async () => {
    const dir = project();
    writeFileSync(join(dir, 'runs'), 'not a folder\n');
    const error = await rejectionOf(checkTracesFolder(dir), ConfigError);
    expect(error.message).toMatch(/^cannot write the trial traces under runs\/eval: /);
    expect(error.message).toContain('ENOTDIR');
    expect(error.message).toContain('make runs/eval a writable folder');
  });

  it('stops an eval before vitest starts, instead of erroring every trial', async () => {
    const dir = project();
    writeFileSync(join(dir, 'vitest.evals.config.ts'), 'export default {};\n');
    writeFileSync(join(dir, 'runs'), 'not a folder\n');
    const error = await rejectionOf(
      runEvals({ projectDir: dir, mode: 'replay', trials: 1, writeReports: false }),
      ConfigError,
    );
    expect(error.message).toMatch(/^cannot write the trial traces under runs\/eval: /);
  });

  it.each([
    [{ tasks: ['T2'] }],
    // --suite refund checked nothing: the run errored T2's trials one by one.
    [{ suites: ['refund'] }],
  ])(
    "stops an eval before vitest starts when a file is in a selected task's folder's way (%j)",
    async (selection) => {
      const dir = project();
      writeFileSync(join(dir, 'vitest.evals.config.ts'), 'export default {};\n');
      mkdirSync(join(dir, 'fixtures/T2/upgraded'), { recursive: true });
      mkdirSync(join(dir, 'runs/eval'), { recursive: true });
      writeFileSync(join(dir, 'runs/eval/T2'), 'not a folder\n');
      const error = await rejectionOf(
        runEvals({ projectDir: dir, mode: 'replay', trials: 1, ...selection, writeReports: false }),
        ConfigError,
      );
      expect(error.message).toMatch(
        /^cannot write the trial traces under runs\/eval\/T2: it is a file/,
      );
    },
  );
});

// A reference made from part of the suite replaced the whole one: `--task T2
// --update-reference` left reports/reference.json with T2's two rows and lost the other 18.
describe('--update-reference from part of the suite', () => {
  it.each([
    [{ tasks: ['T2'] }, '--task T2'],
    [{ variants: ['upgraded'] }, '--variant upgraded'],
    [{ suites: ['refund-desk'], tasks: ['T1', 'T3'] }, '--task T1,T3 --suite refund-desk'],
  ])('is refused before any trial runs (%j)', async (selection, flags) => {
    const dir = project();
    writeFileSync(join(dir, 'vitest.evals.config.ts'), 'export default {};\n');
    const error = await rejectionOf(
      runEvals({ projectDir: dir, mode: 'replay', trials: 1, updateReference: true, ...selection }),
      ConfigError,
    );
    expect(error.message).toBe(
      `--update-reference makes the reference from the whole suite, and this run selects ${flags}: the new reference would lose the baselines of everything else. Drop the selection, or leave out --update-reference`,
    );
    expect(readdirSync(dir)).not.toContain('runs');
  });

  it('is refused when merging shards of a partial run', async () => {
    const dir = project();
    const shards = join(dir, 'shards');
    mkdirSync(shards);
    const shard: ShardResult = {
      kind: 'harness-evals-shard',
      version: 2,
      commit: null,
      shard: { index: 1, count: 1 },
      trials: 1,
      selection: { trials: 1, tasks: ['T2'] },
      records: [],
      floors: [],
      loadErrors: [],
      declared: [],
    };
    writeFileSync(join(shards, 'shard-1-of-1.json'), JSON.stringify(shard));
    const error = await rejectionOf(
      mergeEvals({ projectDir: dir, dir: shards, updateReference: true }),
      ConfigError,
    );
    expect(error.message).toMatch(
      /^--update-reference makes the reference from the whole suite, and the shards select --task T2: /,
    );
    expect(readdirSync(dir)).not.toContain('reports');
  });
});

describe('harness-evals.prices.json, read before any trial runs', () => {
  it('stops an eval (and a recording) whose prices file is wrong, naming the file and field', async () => {
    const dir = project();
    writeFileSync(join(dir, 'vitest.evals.config.ts'), 'export default {};\n');
    writeFileSync(
      join(dir, 'harness-evals.prices.json'),
      JSON.stringify({ models: { 'claude-opus-5': { input: 5, output: 25 } } }),
    );
    for (const mode of ['replay', 'record'] as const) {
      const error = await rejectionOf(
        runEvals({ projectDir: dir, mode, trials: 1, writeReports: false }),
        ConfigError,
      );
      expect(error.message).toMatch(
        /^harness-evals\.prices\.json: models\.claude-opus-5\.cacheWrite: /,
      );
    }
    expect(readdirSync(dir)).not.toContain('runs');
  });

  it('stops a merge whose prices file is wrong', async () => {
    const dir = project();
    writeFileSync(join(dir, 'harness-evals.prices.json'), '{"models": []}');
    const error = await rejectionOf(
      mergeEvals({ projectDir: dir, dir: join(dir, 'shards') }),
      ConfigError,
    );
    expect(error.message).toMatch(/^harness-evals\.prices\.json: models: /);
  });
});
