import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MAX_TASK_TRIALS } from '../task/task-declaration.js';
import {
  evalIn,
  projectWith,
  readReport,
  removeEvalProjects,
  writeEval,
} from '../testing/hostile-eval-project.js';

afterEach(() => {
  vi.restoreAllMocks();
  removeEvalProjects();
});

// A dataset of 200,000 cases aborted `eval` (signal 6, 8.5 GB) with no report: every trial is
// a vitest test, held in memory until the run ends.
const datasetTask = [
  "import { defineTask } from 'harness-evals';",
  "import { refundDesk } from './refund-desk.agent.js';",
  "defineTask({ agent: refundDesk, id: 'T9', title: 'Big', variants: ['upgraded'],",
  "  cases: 'evals/data/big.jsonl', check: () => {} });",
  '',
].join('\n');

function bigProject(cases: number): string {
  const source = projectWith(writeEval(''));
  writeFileSync(join(source, 'evals/t2-hostile.eval.ts'), datasetTask);
  mkdirSync(join(source, 'evals/data'));
  const lines = Array.from({ length: cases }, (_, index) => `{"id":"c${index + 1}","input":"q?"}`);
  writeFileSync(join(source, 'evals/data/big.jsonl'), `${lines.join('\n')}\n`);
  return source;
}

describe('a dataset task past the trials one run takes', () => {
  it('is refused in one line naming the file, the count, the limit and the way on, and the report is written', {
    timeout: 120_000,
  }, async () => {
    const project = bigProject(MAX_TASK_TRIALS + 1);
    const { code, stdout, stderr } = await evalIn(project, ['--trials', '1']);
    expect(code, stdout + stderr).toBe(1);
    const line = `task 'T9': evals/data/big.jsonl: ${MAX_TASK_TRIALS + 1} cases x 1 variant x 1 trial is ${MAX_TASK_TRIALS + 1} trials, past the ${MAX_TASK_TRIALS} one eval run takes of a task: run a sample with --cases ${MAX_TASK_TRIALS}, deal it to machines with --shard i/n, or split the dataset into several tasks`;
    const report = JSON.parse(readReport(project, 'json'));
    expect(report.gate.passed).toBe(false);
    expect(report.gate.reasons).toEqual([
      `evals/t2-hostile.eval.ts failed to load: ${line}`,
      'no trial ran',
    ]);
    // The terminal and the markdown wrap it at 100 columns.
    expect(stdout.replace(/\s+/g, ' ')).toContain(line);
    expect(readReport(project, 'md').replace(/\s+/g, ' ')).toContain(line);
  });

  it('runs a sample of it with --cases N', { timeout: 120_000 }, async () => {
    const project = bigProject(MAX_TASK_TRIALS + 1);
    const { stdout } = await evalIn(project, ['--trials', '1', '--cases', '2']);
    // Not recorded: the two sampled cases are missing, and nothing else is wrong.
    expect(JSON.parse(readReport(project, 'json')).gate.reasons.join('\n')).not.toMatch(
      /failed to load/,
    );
    expect(stdout).toMatch(/2 trials in/);
  });
});
