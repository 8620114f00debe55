import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runChild } from './child-process.js';
import { createRunTestTool, type TestCommand } from './run-test.js';
import { testRunsOf } from './store.js';
import { normaliseTestOutput, tail } from './test-output.js';
import { allGone, execute, fakeRun, usePlaygrounds } from './testing/playgrounds.js';

const playground = usePlaygrounds();
const plainNode: TestCommand = (file) => ({ command: process.execPath, args: [file] });

describe('run_test', { timeout: 120_000 }, () => {
  it('runs the seed project tests with tsx and reports the failures, sandbox-free', async () => {
    const { sandbox } = playground();
    const runTest = createRunTestTool({ sandbox, confinement: 'strict' });
    const run = fakeRun();
    const text = String(await execute(runTest, {}, run));
    expect(text).toBe(
      [
        'Tests failed: 1 of 1 test files failed.',
        '',
        '$ node test/math.spec.ts',
        'not ok 1 - add(2, 3) is 5',
        '  expected 5, got -1',
        'not ok 2 - add(-1, 1) is 0',
        '  expected 0, got -2',
        'ok 3 - subtract(5, 3) is 2',
        'ok 4 - multiply(4, 3) is 12',
        '# 4 tests, 2 passed, 2 failed',
        '[exit code 1]',
      ].join('\n'),
    );
    expect(testRunsOf(run.store)).toEqual([
      { paths: ['test/math.spec.ts'], passed: false, timedOut: false, exitCodes: [1] },
    ]);
    // The fix makes them pass.
    const source = join(sandbox.root, 'src', 'math.ts');
    writeFileSync(source, readFileSync(source, 'utf8').replace('return a - b;', 'return a + b;'));
    expect(String(await execute(runTest, { path: 'test/math.spec.ts' }, run))).toMatch(
      /^Tests passed: 1 of 1 test files passed\.[\s\S]*# 4 tests, 4 passed, 0 failed\n\[exit code 0\]$/,
    );
  });

  /** A test that starts a grandchild sharing its stdout (so the pipe stays open) and hangs. */
  function plantHangingTest(root: string): void {
    writeFileSync(
      join(root, 'test', 'hang.spec.mjs'),
      [
        "import { spawn } from 'node:child_process';",
        "import { renameSync, writeFileSync } from 'node:fs';",
        "const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'inherit' });",
        "console.log('started; now hanging');",
        "writeFileSync('pids.tmp', [process.pid, child.pid].join(' '));",
        "renameSync('pids.tmp', 'pids.txt');",
        'setInterval(() => {}, 1000);',
      ].join('\n'),
    );
  }

  it('kills a hanging test at its timeout and says so', async () => {
    const { sandbox } = playground();
    plantHangingTest(sandbox.root);
    const runTest = createRunTestTool({
      sandbox,
      confinement: 'strict',
      timeoutMs: 1000,
      command: plainNode,
    });
    const run = fakeRun();
    const error = await execute(runTest, { path: 'test/hang.spec.mjs' }, run).then(
      () => undefined,
      (caught: Error) => caught,
    );
    // Whether the test printed before the kill depends on how busy the machine is.
    expect(error?.message).toMatch(
      /^test\/hang\.spec\.mjs did not finish within 1000 ms; the test process and everything it started were killed\. Look for an endless loop or a wait that never ends\.(\nOutput before the kill:\nstarted; now hanging)?$/,
    );
    expect(testRunsOf(run.store)[0]).toMatchObject({ passed: false, timedOut: true });
  });

  it('kills a cancelled test together with the processes it started', async () => {
    const { sandbox } = playground();
    plantHangingTest(sandbox.root);
    const runTest = createRunTestTool({ sandbox, confinement: 'strict', command: plainNode });
    const run = fakeRun();
    const controller = new AbortController();
    const pending = execute(runTest, { path: 'test/hang.spec.mjs' }, run, controller.signal).then(
      () => undefined,
      (caught: Error) => caught,
    );
    const pidFile = join(sandbox.root, 'pids.txt');
    const deadline = performance.now() + 60_000;
    while (!existsSync(pidFile) && performance.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    controller.abort();
    const error = await pending;
    expect(error?.message).toBe(
      'test/hang.spec.mjs was cancelled; the test process and everything it started were killed. Look for an endless loop or a wait that never ends.\nOutput before the kill:\nstarted; now hanging',
    );
    const pids = readFileSync(pidFile, 'utf8').split(' ').map(Number);
    expect(pids).toHaveLength(2);
    expect(await allGone(pids), `processes ${pids.join(', ')} outlived the cancel`).toBe(true);
  });

  it('reaps a background process that a finished test left behind', async () => {
    const { sandbox } = playground();
    writeFileSync(
      join(sandbox.root, 'test', 'leak.spec.mjs'),
      [
        "import { spawn } from 'node:child_process';",
        "import { writeFileSync } from 'node:fs';",
        "const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });",
        "writeFileSync('pid.txt', String(child.pid));",
        "console.log('ok 1 - leaves a process behind');",
        'child.unref();',
      ].join('\n'),
    );
    const runTest = createRunTestTool({ sandbox, confinement: 'strict', command: plainNode });
    expect(String(await execute(runTest, { path: 'test/leak.spec.mjs' }))).toMatch(/^Tests passed/);
    const pid = Number(readFileSync(join(sandbox.root, 'pid.txt'), 'utf8'));
    expect(await allGone([pid])).toBe(true);
  });

  it('refuses a directory without test files', async () => {
    const { sandbox } = playground();
    const runTest = createRunTestTool({ sandbox, confinement: 'strict' });
    await expect(execute(runTest, { path: 'src' })).rejects.toThrow(
      'no test files (*.spec.ts, *.test.ts) in src; try the test/ directory',
    );
  });

  it('gives the child no API key and no loader from the parent', async () => {
    const { sandbox } = playground();
    writeFileSync(
      join(sandbox.root, 'test', 'env.spec.mjs'),
      "console.log(['ANTHROPIC_API_KEY', 'NODE_OPTIONS'].filter((name) => name in process.env).join(',') || 'clean');",
    );
    process.env.ANTHROPIC_API_KEY = 'sk-ant-should-not-leak';
    try {
      const runTest = createRunTestTool({ sandbox, confinement: 'strict', command: plainNode });
      expect(String(await execute(runTest, { path: 'test/env.spec.mjs' }))).toContain('\nclean\n');
    } finally {
      delete process.env.ANTHROPIC_API_KEY;
    }
  });
});

describe('runChild', { timeout: 120_000 }, () => {
  it('kills the process group when the signal aborts', async () => {
    const { sandbox } = playground();
    const pidFile = join(sandbox.root, 'pid.txt');
    const controller = new AbortController();
    const running = runChild({
      command: process.execPath,
      args: [
        '-e',
        `require('fs').writeFileSync(${JSON.stringify(pidFile)}, String(process.pid)); setInterval(() => {}, 1000)`,
      ],
      cwd: sandbox.root,
      env: {},
      timeoutMs: 10_000,
      signal: controller.signal,
    });
    const deadline = performance.now() + 30_000;
    while (!existsSync(pidFile) && performance.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    controller.abort();
    const result = await running;
    expect(result).toMatchObject({ aborted: true, timedOut: false, exitCode: null });
    expect(await allGone([Number(readFileSync(pidFile, 'utf8'))])).toBe(true);
  });

  // The child leads its own process group, so a Ctrl-C at the terminal does not reach it, and
  // a parent killed by a signal runs no handler: nothing but a watchdog can end the child then.
  it.skipIf(process.platform === 'win32')(
    'kills the child when its parent dies without cleaning up (SIGKILL), even a busy child',
    async () => {
      const { sandbox } = playground();
      const root = fileURLToPath(new URL('../..', import.meta.url));
      const tsx = pathToFileURL(join(root, 'node_modules/tsx/dist/loader.mjs')).href;
      const script = fileURLToPath(new URL('./testing/orphan-parent.ts', import.meta.url));
      const parent = spawn(process.execPath, ['--import', tsx, script, sandbox.root], {
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      const childPid = await new Promise<number>((resolve, reject) => {
        let out = '';
        parent.stdout.on('data', (chunk: Buffer) => {
          out += chunk.toString();
          const match = /CHILD (\d+)/.exec(out);
          if (match) resolve(Number(match[1]));
        });
        parent.on('exit', (code) => reject(new Error(`the parent exited first (${code})`)));
      });
      parent.kill('SIGKILL');
      expect(await allGone([childPid])).toBe(true);
    },
  );
});

describe('normaliseTestOutput', () => {
  it('strips the sandbox location, colours, stack frames, timings and install paths', () => {
    const { sandbox } = playground();
    const raw = [
      `\x1b[31mError: boom\x1b[39m at ${sandbox.realRoot}/src/math.ts:4`,
      `    at add (file://${sandbox.realRoot}/src/math.ts:4:10)`,
      '    at node:internal/modules/run_main:123:5',
      `loaded /home/someone/project/node_modules/tsx/dist/esm/index.mjs`,
      '# duration_ms 12.345',
      '✔ adds (3.2ms)\r',
      '',
    ].join('\n');
    expect(normaliseTestOutput(raw, sandbox)).toBe(
      [
        'Error: boom at src/math.ts:4',
        'loaded node_modules/tsx/dist/esm/index.mjs',
        '# duration_ms <n>',
        '✔ adds (<n> ms)',
      ].join('\n'),
    );
  });

  it('keeps the last lines and says how many were dropped', () => {
    expect(tail('a\nb\nc\nd', 2)).toBe('[2 earlier lines not shown]\nc\nd');
    expect(tail('a\nb', 5)).toBe('a\nb');
    expect(tail('', 5)).toBe('');
  });
});
