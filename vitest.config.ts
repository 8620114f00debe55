import { configDefaults, defineConfig } from 'vitest/config';
import type { Reporter } from 'vitest/node';

/** One plain closing line ("vitest: N passed, N failed") that any CI log reader understands. */
const closingLine: Reporter = {
  onTestRunEnd(testModules) {
    const counts = { passed: 0, failed: 0, skipped: 0 };
    for (const testModule of testModules) {
      for (const test of testModule.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed' || state === 'failed' || state === 'skipped') counts[state] += 1;
      }
    }
    process.stdout.write(
      `\nvitest: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped\n`,
    );
  },
};

/** The named slow end-to-end tests: `npm run test:e2e` (vitest.e2e.config.ts), not `npm test`. */
export const SLOW_E2E = 'src/**/*.slow-e2e.test.ts';

/** Unit tests: colocated `*.test.ts` beside the code. Evals and slow e2e tests have their own configs. */
export default defineConfig({
  test: {
    include: ['src/**/*.test.ts'],
    exclude: [...configDefaults.exclude, SLOW_E2E],
    environment: 'node',
    // Several tests start a process or a whole eval: vitest's 5 s default failed them at a load
    // average of 14 on 2 cores. A test that really hangs still fails, 30 s later.
    testTimeout: 30_000,
    // Tests that run the evals use the build in dist/ (as npm run eval does): fresh before they start.
    globalSetup: ['src/cli/dist-global-setup.ts'],
    // Each file gets a fresh module graph (vitest's default isolation): several files start msw
    // servers, patch globals or drive CLIs in process. Without isolation, the in-process resume
    // test timed out in the full suite while passing alone, and the run then stalled.
    // Every core runs a file (vitest's default leaves one idle: one worker on 2 cores), in worker
    // threads, which start cheaper than forked processes. Measured on 2 cores (issue 14): threads
    // x2 38 s wall / 69 s CPU, forks x2 45 s / 83 s, the default (one fork) 87 s / 82 s.
    // Threads share the process: tests stub process.cwd() instead of calling process.chdir().
    pool: 'threads',
    maxWorkers: '100%',
    // Transformed modules are cached on disk between runs (keyed by content).
    experimental: { fsModuleCache: true },
    reporters: ['default', closingLine],
  },
});
