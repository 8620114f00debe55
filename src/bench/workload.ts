import { mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cassettePath } from '../replay/cassette.js';
import { scratchDir } from './scratch.js';

/**
 * A throwaway project for benchmarks: the real `evals/`, `AGENTS.md`, eval config, build
 * (`dist/`) and `node_modules` (symlinked), and a `fixtures/` with `trials` cassettes per task and
 * variant. Trial n is recorded trial ((n - 1) mod recorded) + 1 with its meta.trial
 * rewritten, so every trial still has its own file and passes the trial check.
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
  for (const task of readdirSync(source)) {
    const trials = options.trialsFor?.[task] ?? options.trials;
    for (const variant of readdirSync(join(source, task))) {
      const recorded = readdirSync(join(source, task, variant))
        .filter((name) => /^trial-\d+\.json$/.test(name))
        .map((name) => readFileSync(join(source, task, variant, name), 'utf8'));
      mkdirSync(join(dir, 'fixtures', task, variant), { recursive: true });
      for (let trial = 1; trial <= trials; trial += 1) {
        const text = recorded[(trial - 1) % recorded.length] ?? '';
        writeFileSync(
          cassettePath(join(dir, 'fixtures'), task, variant, trial),
          text.replace(/"trial": \d+,/, `"trial": ${trial},`),
        );
      }
    }
  }
  return dir;
}
