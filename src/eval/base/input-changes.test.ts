import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { inputChanges } from './input-changes.js';

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const git = (dir: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=M', '-c', 'user.email=m@evil.test', ...args], { cwd: dir })
    .toString()
    .trim();

function write(dir: string, path: string, text: string): void {
  mkdirSync(join(dir, path, '..'), { recursive: true });
  writeFileSync(join(dir, path), text);
}

describe('inputChanges', () => {
  // The break (issue 33): an edited dataset expectation took T8 baseline from 0.46 to 0.63 and
  // the comment said "Nothing changed".
  it('lists the task files, datasets, rubrics and labels changed against the base, with the tasks they decide', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'input-changes-'));
    made.push(dir);
    write(
      dir,
      'evals/t8-dataset.eval.ts',
      "defineTask({ id: 'T8', cases: loadCases('data/t8-questions.json') });\n",
    );
    write(dir, 'evals/t1-rules.eval.ts', "defineTask({ id: 'T1', rubric: 'rubrics/tone.md' });\n");
    write(dir, 'evals/data/t8-questions.json', '[{"id":"q1","mentions":"refund"}]\n');
    write(dir, 'evals/rubrics/tone.md', 'Polite.\n');
    write(dir, 'evals/labels/unused.json', '{}\n');
    write(dir, 'fixtures/T8/baseline/trial-1.json', '{}\n');
    git(dir, 'init', '-q');
    git(dir, 'add', '.');
    git(dir, 'commit', '-qm', 'base');
    const base = git(dir, 'rev-parse', 'HEAD');
    write(dir, 'evals/data/t8-questions.json', '[{"id":"q1","mentions":""}]\n');
    write(dir, 'evals/rubrics/tone.md', 'Anything goes.\n');
    write(dir, 'evals/labels/new.json', '{}\n');
    rmSync(join(dir, 'evals/labels/unused.json'));
    write(dir, 'fixtures/T8/baseline/trial-1.json', '{"x":1}\n');
    expect(await inputChanges(dir, base, ['T1', 'T8'])).toEqual([
      { path: 'evals/data/t8-questions.json', status: 'modified', tasks: ['T8'] },
      { path: 'evals/labels/new.json', status: 'added', tasks: [] },
      { path: 'evals/labels/unused.json', status: 'removed', tasks: [] },
      { path: 'evals/rubrics/tone.md', status: 'modified', tasks: ['T1'] },
    ]);
  });
});
