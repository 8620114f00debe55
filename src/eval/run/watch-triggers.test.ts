import { describe, expect, it } from 'vitest';
import { watchTriggers } from './watch-triggers.js';

const root = process.cwd();
const every = [`${root}/evals/a.eval.ts`, `${root}/evals/b.eval.ts`];

/** The eval files vitest re-runs for a changed file, as its watcher asks the patterns. */
function rerunFor(file: string): string[] | undefined {
  const patterns = watchTriggers(root, {
    filesOf: (task) => (task.toLowerCase() === 't1' ? [`${root}/evals/a.eval.ts`] : []),
    evalFiles: () => every,
  });
  for (const { pattern, testsToRun } of patterns) {
    const match = pattern.exec(file);
    if (!match) continue;
    const files = testsToRun(file, match);
    if (files) return [files].flat();
  }
  return undefined;
}

describe('watchTriggers', () => {
  it("re-runs only the files that declared a cassette's task when it changes", () => {
    expect(rerunFor(`${root}/fixtures/T1/upgraded/trial-1.json`)).toEqual([
      `${root}/evals/a.eval.ts`,
    ]);
    expect(rerunFor(`${root}/fixtures/T1/upgraded/trial-1.judge.json`)).toEqual([
      `${root}/evals/a.eval.ts`,
    ]);
  });

  it('re-runs every eval file for a cassette of a task no file has declared yet', () => {
    expect(rerunFor(`${root}/fixtures/T9/baseline/trial-1.json`)).toEqual(every);
  });

  it('re-runs every eval file for a prompt, a rubric or a dataset read while trials run', () => {
    for (const file of ['AGENTS.md', 'evals/rubrics/polite-refusal.md', 'evals/data/cases.csv']) {
      expect(rerunFor(`${root}/${file}`), file).toEqual(every);
    }
  });

  it("leaves code to vitest's module graph and other files alone", () => {
    for (const file of [
      'evals/refund-desk.agent.ts',
      'evals/a.eval.ts',
      'src/agent.ts',
      'reports/latest.json',
      'runs/eval/T1/baseline/trial-1.jsonl',
      'docs/guide.md',
    ]) {
      expect(rerunFor(`${root}/${file}`), file).toBeUndefined();
    }
  });
});
