import { configDefaults, defineConfig } from 'vitest/config';
import type { Reporter } from 'vitest/node';
import { ISOLATED_TEST_FILES } from './src/core/testing/isolated-test-files.js';

/**
 * One plain closing line ("vitest: N passed, N failed, N skipped") that any CI log reader
 * understands, plus the files that failed outside their tests (a hook, such as the shared
 * project's guard, or loading) and the errors outside any test, when there are any.
 */
const closingLine: Reporter = {
  onTestRunEnd(testModules, unhandledErrors) {
    const counts = { passed: 0, failed: 0, skipped: 0 };
    let filesFailedOutsideTests = 0;
    for (const testModule of testModules) {
      let failedTests = 0;
      for (const test of testModule.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed' || state === 'failed' || state === 'skipped') counts[state] += 1;
        if (state === 'failed') failedTests += 1;
      }
      if (testModule.state() === 'failed' && failedTests === 0) filesFailedOutsideTests += 1;
    }
    const more = [
      filesFailedOutsideTests > 0
        ? `files failed outside their tests: ${filesFailedOutsideTests}`
        : '',
      unhandledErrors.length > 0 ? `errors outside any test: ${unhandledErrors.length}` : '',
    ].filter(Boolean);
    process.stdout.write(
      `\nvitest: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped${more.map((part) => `, ${part}`).join('')}\n`,
    );
  },
};

/** The named slow end-to-end tests: `npm run test:e2e` (vitest.e2e.config.ts), not `npm test`. */
export const SLOW_E2E = '{src,test}/**/*.slow-e2e.test.ts';

/**
 * Unit tests: colocated `*.test.ts` beside the code (src/ and bench/). Evals and slow e2e tests have their own
 * configs. Two projects:
 * - `shared`: most files, one after another in each worker, which keeps its loaded modules
 *   (vitest's `isolate: false`). Loading the SDK, zod and our modules again for every file cost
 *   about 0.5 s of CPU per file, most of the suite's time on 2 cores (issue 14). A guard checks
 *   that no file leaves a global changed for the next one.
 * - `isolated`: the files in ISOLATED_TEST_FILES (src/core/testing/isolated-test-files.ts), each in a fresh module graph.
 */
export default defineConfig({
  test: {
    environment: 'node',
    // Several tests start a process or a whole eval: vitest's 5 s default failed them at a load
    // average of 14 on 2 cores. A test that really hangs still fails, 30 s later.
    testTimeout: 30_000,
    // Tests that run the evals use the build in dist/ (as npm run eval does): fresh before they start.
    globalSetup: ['src/cli/testing/dist-global-setup.ts'],
    // Every core runs a file (vitest's default leaves one idle: one worker on 2 cores), in worker
    // threads, which start cheaper than forked processes. Measured on 2 cores (issue 14): threads
    // x2 38 s wall / 69 s CPU, forks x2 45 s / 83 s, the default (one fork) 87 s / 82 s.
    // Threads share the process: tests stub process.cwd() instead of calling process.chdir().
    pool: 'threads',
    maxWorkers: '100%',
    // Transformed modules are cached on disk between runs (keyed by content).
    experimental: { fsModuleCache: true },
    reporters: ['default', closingLine],
    projects: [
      {
        extends: true,
        test: {
          name: 'shared',
          include: ['src/**/*.test.ts', 'bench/**/*.test.ts'],
          exclude: [...configDefaults.exclude, SLOW_E2E, ...ISOLATED_TEST_FILES],
          isolate: false,
          setupFiles: ['src/core/testing/shared-worker-guard.ts'],
        },
      },
      { extends: true, test: { name: 'isolated', include: ISOLATED_TEST_FILES } },
    ],
  },
});
