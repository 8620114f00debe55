import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createRunTestTool, type TestCommand } from './run-test.js';
import { bundleTestFile } from './test-bundle.js';
import { execute, fakeRun, usePlaygrounds } from './testing/playgrounds.js';

const playground = usePlaygrounds();

describe('bundleTestFile', () => {
  it('reuses the bundle of byte-identical code in another sandbox, and rebuilds after a change', async () => {
    const first = playground().sandbox;
    const second = playground().sandbox;
    const a = await bundleTestFile('test/math.spec.ts', first.realRoot);
    const b = await bundleTestFile('test/math.spec.ts', second.realRoot);
    if ('error' in a || 'error' in b) throw new Error('the demo project must bundle');
    expect(b).toEqual(a);
    expect(readFileSync(a.file, 'utf8')).toContain('a - b');

    writeFileSync(
      join(second.realRoot, 'src', 'math.ts'),
      readFileSync(join(second.realRoot, 'src', 'math.ts'), 'utf8').replace('a - b', 'a + b'),
    );
    const fixed = await bundleTestFile('test/math.spec.ts', second.realRoot);
    if ('error' in fixed) throw new Error('the fixed project must bundle');
    expect(fixed.hash).not.toBe(a.hash);
    expect(readFileSync(fixed.file, 'utf8')).toContain('a + b');
    // The first sandbox still gets its own (unchanged) code.
    expect(await bundleTestFile('test/math.spec.ts', first.realRoot)).toEqual(a);
  });

  it('rebuilds when a new file changes what an import resolves to, though no input changed', async () => {
    const { sandbox } = playground();
    const before = await bundleTestFile('test/math.spec.ts', sandbox.realRoot);
    if ('error' in before) throw new Error('the demo project must bundle');
    // `../src/math.js` resolves to math.ts only while no math.js exists: a new math.js wins.
    writeFileSync(
      join(sandbox.realRoot, 'src', 'math.js'),
      "export const add = () => 'SHADOWED'; export const subtract = () => 0; export const multiply = () => 0;\n",
    );
    const after = await bundleTestFile('test/math.spec.ts', sandbox.realRoot);
    if ('error' in after) throw new Error('the shadowed project must bundle');
    expect(readFileSync(after.file, 'utf8')).toContain('SHADOWED');
    expect(after.hash).not.toBe(before.hash);
  });

  it('rebuilds when a tsconfig.json appears or changes next to the code', async () => {
    const { sandbox } = playground();
    const spec = join(sandbox.realRoot, 'test', 'define.spec.ts');
    writeFileSync(spec, 'class A { x = 1 }\nconsole.log(new A().x);\n');
    const withFields = await bundleTestFile('test/define.spec.ts', sandbox.realRoot);
    if ('error' in withFields) throw new Error('the spec must bundle');
    // A config esbuild reads, not one of the bundle's inputs: it changes how class fields compile.
    writeFileSync(
      join(sandbox.realRoot, 'tsconfig.json'),
      '{ "compilerOptions": { "useDefineForClassFields": false } }\n',
    );
    const configured = await bundleTestFile('test/define.spec.ts', sandbox.realRoot);
    if ('error' in configured) throw new Error('the configured spec must bundle');
    expect(configured.hash).not.toBe(withFields.hash);
    writeFileSync(
      join(sandbox.realRoot, 'tsconfig.json'),
      '{ "compilerOptions": { "useDefineForClassFields": true } }\n',
    );
    const reconfigured = await bundleTestFile('test/define.spec.ts', sandbox.realRoot);
    if ('error' in reconfigured) throw new Error('the reconfigured spec must bundle');
    expect(reconfigured.hash).not.toBe(configured.hash);
  });

  it('returns the compile error of a file that does not parse', async () => {
    const { sandbox } = playground();
    writeFileSync(join(sandbox.realRoot, 'test', 'broken.spec.ts'), 'export const = ;\n');
    const bundle = await bundleTestFile('test/broken.spec.ts', sandbox.realRoot);
    expect('error' in bundle && bundle.error).toMatch(/broken\.spec\.ts/);
  });
});

/** A bundle that must fail with a message matching `expected`, and not hang (a FIFO would). */
async function expectRefused(file: string, cwd: string, expected: RegExp): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const hung = new Promise<'hung'>((resolve) => {
    // A ceiling for a busy machine. It catches a build that waits for good (esbuild on a FIFO);
    // a synchronous read of one blocks this thread, and then only the run's own limit ends it.
    timer = setTimeout(() => resolve('hung'), 30_000);
  });
  const outcome = await Promise.race([bundleTestFile(file, cwd), hung]).finally(() =>
    clearTimeout(timer),
  );
  expect(outcome).not.toBe('hung');
  expect(typeof outcome === 'object' && 'error' in outcome && outcome.error).toMatch(expected);
}

// The test timeout is above expectRefused's ceiling, so a hang fails as "hung", not as a
// timeout; and vitest's default 5 s would be too tight for an esbuild start on a busy machine.
describe.runIf(process.platform === 'linux')(
  'bundleTestFile, with files that are not files',
  { timeout: 60_000 },
  () => {
    it('refuses an imported FIFO instead of hanging on it', async () => {
      const { sandbox } = playground();
      execFileSync('mkfifo', [join(sandbox.realRoot, 'src', 'pipe.ts')]);
      writeFileSync(
        join(sandbox.realRoot, 'test', 'pipe.spec.ts'),
        "import { x } from '../src/pipe.js';\nconsole.log(x);\n",
      );
      await expectRefused(
        'test/pipe.spec.ts',
        sandbox.realRoot,
        /src\/pipe\.ts is not a regular file/,
      );
    });

    it('refuses a tsconfig.json that is a FIFO before esbuild opens it', async () => {
      const { sandbox } = playground();
      execFileSync('mkfifo', [join(sandbox.realRoot, 'tsconfig.json')]);
      await expectRefused(
        'test/math.spec.ts',
        sandbox.realRoot,
        /tsconfig\.json is not a regular file/,
      );
    });

    it('refuses an input swapped for a FIFO after its bundle was cached', async () => {
      const { sandbox } = playground();
      const cached = await bundleTestFile('test/math.spec.ts', sandbox.realRoot);
      expect('file' in cached).toBe(true);
      rmSync(join(sandbox.realRoot, 'src', 'math.ts'));
      execFileSync('mkfifo', [join(sandbox.realRoot, 'src', 'math.ts')]);
      await expectRefused(
        'test/math.spec.ts',
        sandbox.realRoot,
        /src\/math\.ts is not a regular file/,
      );
    });

    it('refuses a symbolic link to a device', async () => {
      const { sandbox } = playground();
      rmSync(join(sandbox.realRoot, 'src', 'math.ts'));
      symlinkSync('/dev/zero', join(sandbox.realRoot, 'src', 'math.ts'));
      await expectRefused(
        'test/math.spec.ts',
        sandbox.realRoot,
        /math\.spec\.ts.*\/dev\/zero is not a regular file/,
      );
    });
  },
);

/**
 * This thread's child processes named `name`, running or defunct (Linux: /proc). Only this
 * thread's: test files share the process as worker threads, and another file's esbuild (the
 * HTML report's viewer bundle) is no child of this one.
 */
function childrenNamed(name: string): string[] {
  let listed = '';
  try {
    listed = readFileSync('/proc/thread-self/children', 'utf8').trim();
  } catch {
    return [];
  }
  const found: string[] = [];
  for (const pid of listed ? listed.split(/\s+/) : []) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      if (stat.includes(`(${name})`)) found.push(stat.slice(0, stat.lastIndexOf(')') + 3));
    } catch {
      // it was reaped while we looked
    }
  }
  return found;
}

describe.runIf(existsSync('/proc/thread-self/children'))('bundleTestFile processes', () => {
  it('leaves no esbuild process behind, running or defunct', async () => {
    const { sandbox } = playground();
    writeFileSync(
      join(sandbox.realRoot, 'test', 'fresh.spec.ts'),
      `console.log(${Math.random()});\n`,
    );
    const bundle = await bundleTestFile('test/fresh.spec.ts', sandbox.realRoot);
    expect('file' in bundle).toBe(true);
    // The service is stopped when the build ends; its exit is reaped by this thread's loop.
    // A ceiling for a busy machine, not a benchmark.
    const deadline = performance.now() + 60_000;
    while (childrenNamed('esbuild').length > 0 && performance.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(childrenNamed('esbuild')).toEqual([]);
  }, 90_000);
});

describe('run_test with reuseResults', () => {
  /** A test command that counts its runs in a file outside the sandbox. */
  const counting =
    (counter: string, key: string | undefined, script = ''): TestCommand =>
    () => ({
      command: process.execPath,
      args: ['-e', `require('fs').appendFileSync(${JSON.stringify(counter)}, 'x'); ${script}`],
      ...(key !== undefined && { resultKey: key }),
    });

  it('starts the test process once per result key, and every call without the option', async () => {
    const { sandbox, outside } = playground();
    const counter = join(outside, 'runs.txt');
    const key = `reuse-${Math.random()}`;
    const reusing = createRunTestTool({
      sandbox,
      confinement: 'strict',
      command: counting(counter, key, "console.log('ok 1'); process.exitCode = 1"),
      reuseResults: true,
    });
    const first = String(await execute(reusing, {}));
    const second = String(await execute(reusing, {}));
    expect(second).toBe(first);
    expect(first).toContain('ok 1');
    expect(first).toContain('[exit code 1]');
    expect(readFileSync(counter, 'utf8')).toBe('x');

    const always = createRunTestTool({
      sandbox,
      confinement: 'strict',
      command: counting(counter, key),
    });
    await execute(always, {});
    await execute(always, {});
    expect(readFileSync(counter, 'utf8')).toBe('xxx');
  });

  it('starts one process for concurrent calls of the same program', async () => {
    const { sandbox, outside } = playground();
    const counter = join(outside, 'runs.txt');
    const reusing = createRunTestTool({
      sandbox,
      confinement: 'strict',
      command: counting(counter, `concurrent-${Math.random()}`, "console.log('ok 1')"),
      reuseResults: true,
    });
    const results = await Promise.all([1, 2, 3].map(() => execute(reusing, {})));
    expect(new Set(results.map(String)).size).toBe(1);
    expect(readFileSync(counter, 'utf8')).toBe('x');
  });

  it('answers a cancel at once while it waits on another call running the same code', async () => {
    const { sandbox, outside } = playground();
    const counter = join(outside, 'runs.txt');
    const hanging = createRunTestTool({
      sandbox,
      confinement: 'strict',
      command: counting(counter, `shared-${Math.random()}`, 'setInterval(() => {}, 1000)'),
      reuseResults: true,
    });
    const call = (controller: AbortController) => {
      const run = fakeRun();
      return Promise.resolve(
        hanging.execute({} as never, { signal: controller.signal, clock: run.clock, run }),
      );
    };
    const first = new AbortController();
    const running = call(first);
    let firstSettled = false;
    running
      .catch(() => undefined)
      .finally(() => {
        firstSettled = true;
      });
    while (!existsSync(counter)) await new Promise((resolve) => setTimeout(resolve, 20));
    const second = new AbortController();
    const waiting = call(second);
    second.abort();
    // The waiter is cancelled although the first call's process still runs.
    await expect(waiting).rejects.toThrow(/was cancelled/);
    expect(firstSettled).toBe(false);
    expect(readFileSync(counter, 'utf8')).toBe('x');
    first.abort();
    await expect(running).rejects.toThrow(/was cancelled/);
  }, 120_000);

  it('never reuses a run that was cancelled', async () => {
    const { sandbox, outside } = playground();
    const counter = join(outside, 'runs.txt');
    const hanging = createRunTestTool({
      sandbox,
      confinement: 'strict',
      command: counting(counter, `hang-${Math.random()}`, 'setInterval(() => {}, 1000)'),
      reuseResults: true,
    });
    const cancelAfterStart = async (runs: string) => {
      const controller = new AbortController();
      const run = fakeRun();
      const call = hanging.execute({} as never, {
        signal: controller.signal,
        clock: run.clock,
        run,
      });
      // Cancel once the process has really started (it wrote its mark).
      while (!existsSync(counter) || readFileSync(counter, 'utf8') !== runs) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      controller.abort();
      await expect(call).rejects.toThrow(/was cancelled/);
    };
    await cancelAfterStart('x');
    await cancelAfterStart('xx');
  });
});
