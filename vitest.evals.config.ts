import { defineConfig } from 'vitest/config';

/**
 * Evals: `evals/*.eval.ts`, one vitest test per task x variant x trial.
 * Run them with `npm run eval` (which adds the eval reporter and the gate);
 * one worker without isolation loads the SDK and msw once for all tasks.
 */
export default defineConfig({
  test: {
    include: ['evals/**/*.eval.ts'],
    environment: 'node',
    pool: 'threads',
    isolate: false,
    fileParallelism: false,
    testTimeout: 120_000,
    maxConcurrency: 8,
    // Transformed modules are cached on disk between runs (keyed by content): about 0.3 s per eval.
    experimental: { fsModuleCache: true },
  },
});
