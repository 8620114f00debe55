import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { TaskInputError } from '../../core/errors.js';
import { checkLabelledTrials, readHumanLabels } from './human-labels.js';
import { defineJudge } from './judge.js';
import { checkJudgeSamples, parseJudgeModel, parseJudgeModels } from './judge-model.js';
import { EVAL_ENV } from './settings.js';

let project: string;
beforeEach(() => {
  project = mkdtempSync(join(tmpdir(), 'judge-test-'));
  vi.stubEnv(EVAL_ENV.root, project);
});
afterEach(() => {
  vi.unstubAllEnvs();
  rmSync(project, { recursive: true, force: true });
});

function thrown(run: () => unknown): Error {
  try {
    run();
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected it to throw');
}

describe('defineJudge', () => {
  it('reads a rubric file relative to the project folder', () => {
    mkdirSync(join(project, 'evals'));
    writeFileSync(join(project, 'evals/polite.md'), 'Pass when the answer is polite.\n');
    const judge = defineJudge({ name: 'polite', rubric: { file: 'evals/polite.md' } });
    expect(judge.rubric).toBe('Pass when the answer is polite.\n');
    expect(judge.rubricSource).toBe('evals/polite.md');
    expect(judge.threshold).toBe(0.5);
  });

  it('a missing, empty or non-regular rubric file is a TaskInputError of one line naming it', () => {
    const missing = thrown(() => defineJudge({ name: 'p', rubric: { file: 'evals/nope.md' } }));
    expect(missing).toBeInstanceOf(TaskInputError);
    expect(missing.message).toBe(
      "judge 'p': the rubric file evals/nope.md is missing: create it or fix the path",
    );
    writeFileSync(join(project, 'empty.md'), ' \n\t\n');
    expect(thrown(() => defineJudge({ name: 'p', rubric: { file: 'empty.md' } })).message).toBe(
      "judge 'p': the rubric file empty.md is empty: write it, or remove it from the task",
    );
    mkdirSync(join(project, 'dir.md'));
    expect(thrown(() => defineJudge({ name: 'p', rubric: { file: 'dir.md' } })).message).toMatch(
      /^judge 'p': the rubric file dir\.md is a directory, not a regular file/,
    );
    const inline = thrown(() => defineJudge({ name: 'p', rubric: '   ' }));
    expect(inline).toBeInstanceOf(TaskInputError);
    for (const error of [missing, inline]) expect(error.message).not.toContain('\n');
  });

  it.each([
    [{ name: 'bad name!', rubric: 'r' }, 'judge name "bad name!" is invalid'],
    [
      { name: 'p', rubric: 'r', threshold: 1.5 },
      "judge 'p': threshold 1.5 is not a number from 0 to 1",
    ],
    [
      { name: 'p', rubric: 'r', temperature: -1 },
      "judge 'p': temperature -1 is not a number from 0 to 1",
    ],
    [{ name: 'p', rubric: 'r', samples: 0 }, "judge 'p': samples is 0"],
    [{ name: 'p', rubric: 'r', samples: -1 }, "judge 'p': samples is -1"],
    [{ name: 'p', rubric: 'r', samples: 1e6 }, "judge 'p': samples is 1000000"],
    [{ name: 'p', rubric: 'r', models: [] }, 'names no judge model'],
    [{ name: 'p', rubric: 'r', models: ['a', 'a'] }, 'names the judge model a twice'],
    [{ name: 'p', rubric: 42 }, "judge 'p': rubric must be text or { file: 'evals/rubrics/x.md' }"],
  ])('refuses %j', (options, message) => {
    expect(() => defineJudge(options as never)).toThrow(message);
  });
});

describe('judge models and samples', () => {
  it('reads the provider prefix, keeping colons in the model', () => {
    expect(parseJudgeModel('openai:llama3:8b', 'f')).toEqual({
      provider: 'openai',
      api: 'chat_completions',
      model: 'llama3:8b',
      id: 'openai:llama3:8b',
    });
    expect(parseJudgeModel('anthropic:claude-sonnet-5', 'f').id).toBe('claude-sonnet-5');
    expect(() => parseJudgeModel('openai:', 'f')).toThrow("f names the judge model 'openai:'");
    expect(() =>
      parseJudgeModels(
        Array.from({ length: 10 }, (_, i) => `m${i}`),
        'f',
      ),
    ).toThrow('at most 9');
  });

  it.each([0, -1, 1e6, 2.5, Number.NaN, '3'])('refuses %s samples', (value) => {
    expect(() => checkJudgeSamples(value, '--judge-samples')).toThrow(
      'give a whole number of judge samples from 1 to 100',
    );
  });
});

describe('human labels', () => {
  const write = (text: string) => {
    writeFileSync(join(project, 'labels.json'), text);
    return 'labels.json';
  };
  const labels = (entries: unknown[]) => write(JSON.stringify({ labels: entries }));

  it.each([
    ['', 'is empty'],
    ['{"labels": [', 'is not JSON'],
    [JSON.stringify({ labels: [] }), 'labels: Too small'],
    [
      JSON.stringify({ labels: [{ variant: 'upgraded', trial: 0, label: 'pass' }] }),
      'labels.0.trial',
    ],
    [
      JSON.stringify({ labels: [{ variant: 'upgraded', trial: 1, label: 'maybe' }] }),
      'labels.0.label',
    ],
    [
      JSON.stringify({ judge: 'other', labels: [{ variant: 'v', trial: 1, label: 'pass' }] }),
      "is for judge 'other'",
    ],
  ])('refuses %j', (text, message) => {
    const error = thrown(() => readHumanLabels(write(text), 'polite', project));
    expect(error).toBeInstanceOf(TaskInputError);
    expect(error.message).toContain(message);
  });

  it('refuses a trial labelled twice', () => {
    const file = labels([
      { variant: 'upgraded', trial: 1, label: 'pass' },
      { variant: 'upgraded', trial: 1, label: 'fail' },
    ]);
    expect(() => readHumanLabels(file, 'polite', project)).toThrow('labels upgraded trial 1 twice');
  });

  it('refuses labels of trials that do not exist: an unknown variant, an unrecorded trial', () => {
    mkdirSync(join(project, 'fixtures/T7/upgraded'), { recursive: true });
    writeFileSync(join(project, 'fixtures/T7/upgraded/trial-1.json'), '{}');
    const read = readHumanLabels(
      labels([
        { variant: 'upgraded', trial: 1, label: 'pass' },
        { variant: 'upgraded', trial: 9, label: 'pass' },
      ]),
      'polite',
      project,
    );
    const options = {
      judge: 'polite',
      task: 'T7',
      variants: ['baseline', 'upgraded'],
      fixturesDir: join(project, 'fixtures'),
      recorded: true,
    };
    const error = thrown(() => checkLabelledTrials(read, options));
    expect(error).toBeInstanceOf(TaskInputError);
    expect(error.message).toBe(
      "judge 'polite' of task T7: human-labels file labels.json labels upgraded trial 9, which was never recorded (no fixtures/T7/upgraded/trial-9.json): remove the label or record the trial",
    );
    // While recording, a trial about to be recorded may be labelled already.
    expect(() => checkLabelledTrials(read, { ...options, recorded: false })).not.toThrow();
    const stranger = readHumanLabels(
      labels([{ variant: 'nightly', trial: 1, label: 'fail' }]),
      'polite',
      project,
    );
    expect(() => checkLabelledTrials(stranger, options)).toThrow(
      "but the task has no variant 'nightly' (its variants: baseline, upgraded)",
    );
  });
});
