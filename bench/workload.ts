import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { judgeCassettePath, serializeJudgeCassette } from '../src/eval/grade/judge-cassette.js';
import type { Cassette } from '../src/replay/cassette.js';
import { cassettePath } from '../src/replay/cassette.js';
import { serializeCassette } from '../src/replay/cassette-file.js';
import { scratchDir } from './scratch.js';

/**
 * A throwaway project for benchmarks: the real `evals/`, `AGENTS.md`, eval config, build
 * (`dist/`) and `node_modules` (symlinked), and a `fixtures/` with `trials` cassettes per task and
 * variant (and per case of a dataset task). Trial n is recorded trial ((n - 1) mod recorded) + 1,
 * its judge cassette beside it when it has one, each with its meta.trial set to n and sealed again
 * by the cassette writer's serializer, so every trial has its own file, passes the trial check and
 * holds a valid content hash.
 */
export function createBenchProject(options: {
  projectDir: string;
  trials: number;
  /** More (or fewer) trials for some tasks, e.g. `{ T2: 600 }`. */
  trialsFor?: Readonly<Record<string, number>>;
}): string {
  const dir = scratchDir('harness-bench-');
  for (const name of [
    'evals',
    'AGENTS.md',
    'vitest.evals.config.ts',
    'node_modules',
    'src',
    'dist',
  ]) {
    symlinkSync(join(options.projectDir, name), join(dir, name));
  }
  writeFileSync(join(dir, 'package.json'), '{ "type": "module", "private": true }\n');
  const source = join(options.projectDir, 'fixtures');
  const target = join(dir, 'fixtures');
  for (const task of readdirSync(source)) {
    const trials = options.trialsFor?.[task] ?? options.trials;
    for (const variant of readdirSync(join(source, task))) {
      const entries = readdirSync(join(source, task, variant), { withFileTypes: true });
      const cases = entries.filter((entry) => entry.isDirectory()).map((entry) => entry.name);
      for (const testCase of cases.length > 0 ? cases : [undefined]) {
        copyTrials({ source, target, task, variant, testCase, trials });
      }
    }
  }
  return dir;
}

/** One folder's recorded trials (and judge cassettes), dealt round-robin over `trials` trials. */
function copyTrials(folder: {
  source: string;
  target: string;
  task: string;
  variant: string;
  testCase: string | undefined;
  trials: number;
}): void {
  const { source, target, task, variant, testCase } = folder;
  const recorded = readdirSync(join(source, task, variant, ...(testCase ? [testCase] : [])))
    .map((name) => Number(/^trial-(\d+)\.json$/.exec(name)?.[1] ?? Number.NaN))
    .filter((trial) => Number.isInteger(trial))
    .sort((a, b) => a - b);
  if (recorded.length === 0) return;
  mkdirSync(join(target, task, variant, ...(testCase ? [testCase] : [])), { recursive: true });
  for (let trial = 1; trial <= folder.trials; trial += 1) {
    const from = recorded[(trial - 1) % recorded.length]!;
    const cassette = JSON.parse(
      readFileSync(cassettePath(source, task, variant, from, testCase), 'utf8'),
    ) as Cassette & { contentHash?: string };
    const { contentHash: sealed, ...content } = cassette;
    const copy = { ...content, meta: { ...content.meta, trial } };
    writeFileSync(
      cassettePath(target, task, variant, trial, testCase),
      sealedLike(sealed, copy, serializeCassette),
    );
    const judgeFile = judgeCassettePath(source, task, variant, from, testCase);
    if (!existsSync(judgeFile)) continue;
    const { contentHash: judged, ...judge } = JSON.parse(readFileSync(judgeFile, 'utf8'));
    const judgeCopy = { ...judge, meta: { ...judge.meta, trial } };
    writeFileSync(
      judgeCassettePath(target, task, variant, trial, testCase),
      sealedLike(judged, judgeCopy, serializeJudgeCassette),
    );
  }
}

/**
 * Sealed with a content hash when the recorded file was: a cassette from before content hashes
 * (a `--baseline-ref` build's own fixtures, e.g. 1264a15's) stays without one, as its reader
 * refuses the key.
 */
function sealedLike<T>(hash: unknown, copy: T, serialize: (value: T) => string): string {
  return hash === undefined ? `${JSON.stringify(copy, null, 2)}\n` : serialize(copy);
}
