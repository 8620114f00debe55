import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Reporter } from 'vitest/node';
import {
  CARD,
  evalIn,
  hostileCheck,
  KEY,
  projectWith,
  REPOSITORY_ROOT,
  readReport,
  removeEvalProjects,
  writeEval,
} from '../testing/hostile-eval-project.js';
import { describeRunError } from './reporter.js';

// Errors thrown outside any test's own flow (a timer, a promise nobody awaits, a worker that
// died) used to vanish: no line printed, and the gate passed.

/** Replaces vitest for the test that simulates a failed worker; the real one otherwise. */
const fakeRun = vi.hoisted(() => ({
  current: undefined as ((reporter: Reporter) => Promise<void>) | undefined,
}));
vi.mock('vitest/node', async (original) => {
  const real = await original<typeof import('vitest/node')>();
  return {
    ...real,
    createVitest: (async (...args: Parameters<typeof real.createVitest>) => {
      const fake = fakeRun.current;
      if (!fake) return real.createVitest(...args);
      const [reporter] = [args[1]?.reporters].flat() as Reporter[];
      if (!reporter) throw new Error('runEvals passed no reporter');
      return {
        globTestSpecifications: async () => [],
        start: () => fake(reporter),
        close: async () => {},
        state: { getUnhandledErrors: () => [] },
      };
    }) as typeof real.createVitest,
  };
});

afterEach(() => {
  fakeRun.current = undefined;
  vi.restoreAllMocks();
  removeEvalProjects();
});

describe('errors outside any trial fail the eval gate, named', () => {
  it('an unhandled rejection and a timer that throws, in every trial: one reason each, counted', {
    timeout: 120_000,
  }, async () => {
    const project = projectWith(
      writeEval(
        // The last trials' timers may still be pending when their check ends: the task waits
        // for them (stray-timers.ts) instead of racing the worker's end.
        `setTimeout(() => { throw new Error('boom from a timer, key ${KEY}'); }, 0); Promise.reject(new Error('rejected and never awaited, card ${CARD}'));`,
      ),
    );
    const { code, stdout, stderr } = await evalIn(project, ['--task', 'T2', '--trials', '2']);
    expect(code, stdout + stderr).toBe(1);
    // Each trial passed its check: only the errors fail the gate.
    expect(stdout).toMatch(/T2 +│ upgraded │ 2\/2/);
    expect(stdout).toContain('gate: FAILED (2 reasons above)');
    const report = JSON.parse(readFileSync(join(project, 'reports/latest.json'), 'utf8'));
    expect(report.gate.passed).toBe(false);
    const [rejection, exception, ...rest] = report.gate.reasons;
    expect(rest).toEqual([]);
    // The messages are the user's code's text: what they carry is redacted everywhere.
    expect(rejection).toMatch(
      /^unhandled rejection during the run, 4 times: rejected and never awaited, card 6222\*\*\*\*3445 \(thrown at Object\.check \(evals\/t2-hostile\.eval\.ts:11:\d+\), (while "[^"]+" ran or after it, )?in evals\/t2-hostile\.eval\.ts\)\. .*await or catch it/,
    );
    expect(exception).toMatch(
      /^uncaught exception during the run, 4 times: boom from a timer, key sk-ant-\[redacted\] \(thrown at Timeout\._onTimeout/,
    );
    for (const output of [
      stdout,
      ...['json', 'md', 'html'].map((ext) => readReport(project, ext)),
    ]) {
      expect(output).not.toContain(KEY);
      expect(output).not.toContain(CARD);
    }
  });

  it('a task file that fails to load with a secret in its message: named, redacted', {
    timeout: 120_000,
  }, async () => {
    const project = projectWith(writeEval(''));
    writeFileSync(
      join(project, 'evals/t3-broken.eval.ts'),
      `throw new Error('cannot reach the gateway with ${KEY}');\n`,
    );
    // Every file: a --task run loads only the files that name the task (below).
    const { code, stdout, stderr } = await evalIn(project, ['--trials', '1']);
    expect(code, stdout + stderr).toBe(1);
    const report = JSON.parse(readReport(project, 'json'));
    expect(report.gate.reasons).toEqual([
      'evals/t3-broken.eval.ts failed to load: cannot reach the gateway with sk-ant-[redacted]',
    ]);
    for (const output of [
      stdout,
      ...['json', 'md', 'html'].map((ext) => readReport(project, ext)),
    ]) {
      expect(output).not.toContain(KEY);
    }
  });

  it('the same check with its promise handled passes the gate', {
    timeout: 120_000,
  }, async () => {
    const project = projectWith(
      writeEval("await Promise.reject(new Error('caught')).catch(() => {});"),
    );
    const { code, stdout, stderr } = await evalIn(project, ['--task', 'T2', '--trials', '1']);
    expect(code, stdout + stderr).toBe(0);
    expect(stdout).toContain('gate: passed');
  });

  it('a run that failed before any task was declared says so, not "unknown task"', async () => {
    fakeRun.current = async (reporter) => {
      await reporter.onTestRunEnd?.(
        [],
        [
          {
            name: 'Error',
            message:
              '[vitest-pool]: Failed to start threads worker for test files evals/t2-hostile.eval.ts.',
            type: 'Unhandled Error',
            stack:
              'Error: [vitest-pool]: Failed\n    at Pool.schedule (node_modules/vitest/x.js:1:1)',
            cause: { message: 'The worker thread was torn down or never initialized.' },
          },
        ],
        'failed',
      );
    };
    const project = projectWith(writeEval(''));
    const { code, stdout, stderr } = await evalIn(project, ['--task', 'T2', '--trials', '1']);
    expect(code, stdout).toBe(2);
    expect(stderr).toBe(
      'eval: the eval run failed before any task was declared:\n  unhandled error during the run: [vitest-pool]: Failed to start threads worker for test files evals/t2-hostile.eval.ts.; caused by: The worker thread was torn down or never initialized.\n',
    );
    expect(stderr).not.toMatch(/unknown task/);
  });

  it('--task naming a task whose file failed to load says that it may be declared there', {
    timeout: 120_000,
  }, async () => {
    const project = projectWith(writeEval(''));
    writeFileSync(
      join(project, 'evals/t3-broken.eval.ts'),
      "throw new Error('no such fixture');\n",
    );
    const { code, stderr } = await evalIn(project, ['--task', 'T3', '--trials', '1']);
    expect(code).toBe(2);
    expect(stderr).toBe(
      'eval: unknown task T3: known tasks are T2; it may be declared where the run failed:\n  evals/t3-broken.eval.ts failed to load: no such fixture\n',
    );
  });
});

describe('a --task run loads only the eval files that name the task', () => {
  it('leaves out a file that does not name it', { timeout: 120_000 }, async () => {
    const project = projectWith(writeEval(''));
    writeFileSync(join(project, 'evals/t3-broken.eval.ts'), "throw new Error('loaded');\n");
    // The reference's other rows were not selected: not compared, and not "gone" either,
    // though no loaded file declares them.
    cpSync(
      join(REPOSITORY_ROOT, 'reports/reference.json'),
      join(project, 'reports/reference.json'),
    );
    const { code, stdout, stderr } = await evalIn(project, ['--task', 'T2', '--trials', '1']);
    expect(code, stdout + stderr).toBe(0);
    expect(stdout).not.toContain('failed to load');
    expect(stdout).toMatch(
      /^Not run \(not selected, so not compared\): D1 \(baseline, upgraded\)/m,
    );
    expect(stdout).not.toMatch(/no eval task declares it/);
    expect(stdout).toMatch(/^2 trials in .*\ngate: passed$/m);
  });

  it('runs every file when the files that name it do not declare it', {
    timeout: 120_000,
  }, async () => {
    // T2's id is computed; another file only mentions 'T2' in a comment.
    const project = projectWith(writeEval(''));
    const t2 = join(project, 'evals/t2-hostile.eval.ts');
    writeFileSync(t2, readFileSync(t2, 'utf8').replace("id: 'T2'", "id: ['T', 2].join('')"));
    writeFileSync(
      join(project, 'evals/t3.eval.ts'),
      hostileCheck('').replace("id: 'T2'", "id: 'T3' /* like 'T2' */"),
    );
    const { code, stdout, stderr } = await evalIn(project, ['--task', 'T2', '--trials', '1']);
    expect(code, stdout + stderr).toBe(0);
    expect(stdout).toMatch(/^2 trials in .*\ngate: passed$/m);
  });

  it('counts and runs each trial once when it falls back to every file', {
    timeout: 120_000,
  }, async () => {
    // --task T2,T3: t3.eval.ts names both (T2 in a comment), so the first pass loads it alone
    // and runs T3's trials; T2 is declared elsewhere, so the run goes on with the other files.
    const project = projectWith(writeEval(''));
    const t2 = join(project, 'evals/t2-hostile.eval.ts');
    writeFileSync(t2, readFileSync(t2, 'utf8').replace("id: 'T2'", "id: ['T', 2].join('')"));
    const ran = join(project, 't3-checks.log');
    writeFileSync(
      join(project, 'evals/t3.eval.ts'),
      hostileCheck(`(await import('node:fs')).appendFileSync(${JSON.stringify(ran)}, 'ran\\n');`)
        .replace("id: 'T2'", "id: 'T3' /* like 'T2' */")
        .replace(/prompt: '.*'/, "prompt: 'Has the refund for order ORD4004 arrived?'"),
    );
    const progress: string[] = [];
    // A terminal: the CLI writes its "N trials done" progress line.
    Object.defineProperty(process.stdout, 'isTTY', { value: true, configurable: true });
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
      progress.push(String(chunk));
      return true;
    });
    const { code, stdout, stderr } = await evalIn(project, [
      '--task',
      'T2,T3',
      '--trials',
      '1',
    ]).finally(() => delete (process.stdout as { isTTY?: boolean }).isTTY);
    expect(code, stdout + stderr).toBe(0);
    // T3's two trials (baseline, upgraded) ran once each, and the progress counted four trials.
    expect(readFileSync(ran, 'utf8')).toBe('ran\nran\n');
    const counts = progress.join('').match(/\d+(?= trials done)/g) ?? [];
    expect(counts.at(-1)).toBe('4');
    expect(stdout).toMatch(/^4 trials in /m);
    const report = JSON.parse(readReport(project, 'json'));
    const trials = report.trialProvenance.map(
      (trial: { task: string; variant: string; trial: number }) =>
        `${trial.task} ${trial.variant} ${trial.trial}`,
    );
    expect(trials.sort()).toEqual([
      'T2 baseline 1',
      'T2 upgraded 1',
      'T3 baseline 1',
      'T3 upgraded 1',
    ]);
  });

  it('loads every file at once when vitest could not leave out the files loaded first', {
    timeout: 120_000,
  }, async () => {
    // Vitest picks files by substring: a filter for evals/t3.eval.ts (declaring T2, computed)
    // also picks evals/sub/evals/t3.eval.ts (declaring T3, naming 'T2'), which the first pass
    // would load alone.
    const project = projectWith(writeEval(''));
    const t2 = join(project, 'evals/t2-hostile.eval.ts');
    writeFileSync(
      join(project, 'evals/t3.eval.ts'),
      readFileSync(t2, 'utf8').replace("id: 'T2'", "id: ['T', 2].join('')"),
    );
    rmSync(t2);
    const ran = join(project, 't3-checks.log');
    mkdirSync(join(project, 'evals/sub/evals'), { recursive: true });
    writeFileSync(
      join(project, 'evals/sub/evals/t3.eval.ts'),
      hostileCheck(`(await import('node:fs')).appendFileSync(${JSON.stringify(ran)}, 'ran\\n');`)
        .replace("id: 'T2'", "id: 'T3' /* like 'T2' */")
        .replace(/prompt: '.*'/, "prompt: 'Has the refund for order ORD4004 arrived?'")
        .replace('./refund-desk.agent.js', '../../refund-desk.agent.js'),
    );
    const { code, stdout, stderr } = await evalIn(project, ['--task', 'T2,T3', '--trials', '1']);
    expect(code, stdout + stderr).toBe(0);
    expect(readFileSync(ran, 'utf8')).toBe('ran\nran\n');
    expect(stdout).toMatch(/^4 trials in .*\ngate: passed$/m);
  });
});

describe('describeRunError', () => {
  it('names the kind, the count, the first frame outside node_modules and the test', () => {
    expect(
      describeRunError(
        {
          name: 'TypeError',
          message: 'x is not a function\nmore lines',
          type: 'Uncaught Exception',
          stack:
            'TypeError: x is not a function\n    at node:internal/timers:1:1\n    at f (/p/node_modules/a.js:1:1)\n    at tool (file:///p/evals/a.ts:3:4)',
          VITEST_TEST_NAME: 'upgraded trial 3',
          VITEST_TEST_PATH: '/p/evals/a.ts',
        },
        '/p',
        3,
      ),
    ).toBe(
      'uncaught exception during the run, 3 times: TypeError: x is not a function (thrown at tool (evals/a.ts:3:4), while "upgraded trial 3" ran or after it, in evals/a.ts)',
    );
  });

  it('a value that is not an Error still gets a line', () => {
    expect(describeRunError({ message: '' }, '/p')).toMatch(
      /^unhandled error during the run: a non-Error value with no fields \(e\.g\. a rejection with undefined\)$/,
    );
    expect(describeRunError({ message: '', code: 42 }, '/p')).toMatch(
      /^unhandled error during the run: a non-Error value \{"code":42\}$/,
    );
  });
});
