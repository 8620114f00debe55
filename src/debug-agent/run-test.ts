import { z } from 'zod';
import { defineTool, type ToolDefinition } from '../index.js';
import { runChild } from './child-process.js';
import { scrubbed } from './file-tools.js';
import type { Sandbox } from './sandbox.js';
import { type Confinement, resolveSandboxPath } from './sandbox-path.js';
import { recordTestRun } from './store.js';
import { bundleTestFile } from './test-bundle.js';
import { normaliseTestOutput, tail } from './test-output.js';
import { runOncePerKey } from './test-runs.js';
import { listFiles } from './text-files.js';

/** How to run one test file (relative to the sandbox root, which is the cwd). */
export type TestCommand = (file: string, cwd: string) => PreparedTest | Promise<PreparedTest>;

export interface PreparedTest {
  command: string;
  args: string[];
  cleanup?: () => void;
  /** Same key, same program: with `reuseResults`, a finished run's result is reused. */
  resultKey?: string;
}

export interface RunTestOptions {
  sandbox: Sandbox;
  confinement: Confinement;
  /** Real milliseconds for the whole call (all files); 10 s by default. */
  timeoutMs?: number;
  /** The test bundled with esbuild, run by plain `node`, by default. */
  command?: TestCommand;
  /** Lines of output kept per file, from the end. */
  tailLines?: number;
  /**
   * Reuse the result of an earlier run of the same program (same `resultKey`: for the
   * default command, the same bundle bytes) instead of starting the test process again.
   * Only for tests whose result depends on their code alone; evals of the demo project
   * use it. Runs that timed out or were cancelled are never reused. Off by default.
   */
  reuseResults?: boolean;
}

export const TEST_FILE = /\.(spec|test)\.[cm]?[jt]s$/;
export const DEFAULT_TEST_TIMEOUT_MS = 10_000;

/**
 * The sandbox's TypeScript test, bundled in-process with esbuild into a temp file outside
 * the sandbox (cached by content, see test-bundle.ts), then run by plain `node`. Node 20
 * cannot run TypeScript itself, and starting a tsx loader in every child costs about 0.4 s.
 * A file that does not compile fails like a test run would: the error on stderr, exit code 1.
 */
export const bundledTestCommand: TestCommand = async (file, cwd) => {
  const bundle = await bundleTestFile(file, cwd);
  if ('error' in bundle) {
    const script = `process.stderr.write(${JSON.stringify(`${bundle.error}\n`)}); process.exitCode = 1;`;
    return { command: process.execPath, args: ['-e', script] };
  }
  return { command: process.execPath, args: [bundle.file], resultKey: bundle.hash };
};

/**
 * The child gets a bare environment: no API keys, no NODE_OPTIONS from the parent
 * (tsx and vitest put loaders there), no colours.
 */
function childEnv(): NodeJS.ProcessEnv {
  const keep = ['PATH', 'Path', 'SystemRoot', 'TMPDIR', 'TEMP', 'TMP'];
  const env: NodeJS.ProcessEnv = { NO_COLOR: '1', NODE_NO_WARNINGS: '1' };
  for (const name of keep) if (process.env[name] !== undefined) env[name] = process.env[name];
  return env;
}

/**
 * run_test: run the sandbox's test files, each in its own child process, and return the
 * tail of their output. A failing test is a normal result; a hang is an error.
 *
 * The timeout is the tool's own, on a real timer: the child is real I/O, and the eval
 * runtime's virtual clock jumps ahead whenever the event loop settles, so the pipeline's
 * `timeoutMs` (raced on that clock) would fire long before a real process could finish.
 * That is why this tool declares no `timeoutMs`. (Its real duration therefore does not show
 * in the run's virtual tool time, which keeps replays identical.)
 */
export function createRunTestTool(options: RunTestOptions): ToolDefinition {
  const { sandbox, confinement } = options;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TEST_TIMEOUT_MS;
  const command = options.command ?? bundledTestCommand;
  const tailLines = options.tailLines ?? 40;
  return defineTool({
    name: 'run_test',
    description: `Run the project's tests (files named *.spec.ts or *.test.ts) in a child process, with a ${timeoutMs / 1000} s timeout, and return the end of their output.`,
    effect: 'read',
    parameters: z.object({
      path: z
        .string()
        .min(1)
        .max(1024)
        .optional()
        .describe(
          'A test file or a directory of tests, relative to the project root; test/ by default',
        ),
    }),
    execute: scrubbed(sandbox, async ({ path }: { path?: string }, { signal, run }) => {
      const target = resolveSandboxPath(sandbox, path ?? 'test', { confinement, mustExist: true });
      const files = (await listFiles(target.absolute)).filter((file) => TEST_FILE.test(file));
      if (files.length === 0) {
        throw new Error(
          `no test files (*.spec.ts, *.test.ts) in ${target.relative}; try the test/ directory`,
        );
      }
      const deadline = performance.now() + timeoutMs;
      const sections: string[] = [];
      const exitCodes: Array<number | null> = [];
      const shown = files.map((file) => sandbox.toRelative(file));
      for (const [index, file] of shown.entries()) {
        // A file named like an option (`--require=x.spec.ts`) must stay a file name.
        const prepared = await command(file.startsWith('-') ? `./${file}` : file, sandbox.realRoot);
        const key = options.reuseResults ? prepared.resultKey : undefined;
        const { output, ...result } = await runOncePerKey(
          key,
          () =>
            runChild({
              command: prepared.command,
              args: prepared.args,
              cwd: sandbox.realRoot,
              env: childEnv(),
              timeoutMs: Math.max(1, deadline - performance.now()),
              signal,
            }).then((child) => ({
              ...child,
              output: normaliseTestOutput(
                [child.stdout, child.stderr ? `[stderr]\n${child.stderr}` : ''].join('\n'),
                sandbox,
              ),
            })),
          signal,
        ).finally(() => prepared.cleanup?.());
        exitCodes.push(result.exitCode);
        if (result.timedOut || result.aborted) {
          recordTestRun(run, {
            paths: shown.slice(0, index + 1),
            passed: false,
            timedOut: true,
            exitCodes,
          });
          const why = result.timedOut ? `did not finish within ${timeoutMs} ms` : 'was cancelled';
          throw new Error(
            `${file} ${why}; the test process and everything it started were killed. Look for an endless loop or a wait that never ends.${output ? `\nOutput before the kill:\n${tail(output, tailLines)}` : ''}`,
          );
        }
        sections.push(`$ node ${file}\n${tail(output, tailLines)}\n[exit code ${result.exitCode}]`);
      }
      const failed = exitCodes.filter((code) => code !== 0).length;
      recordTestRun(run, { paths: shown, passed: failed === 0, timedOut: false, exitCodes });
      const summary =
        failed === 0
          ? `Tests passed: ${files.length} of ${files.length} test files passed.`
          : `Tests failed: ${failed} of ${files.length} test files failed.`;
      return [summary, ...sections].join('\n\n');
    }),
  }) as never;
}
