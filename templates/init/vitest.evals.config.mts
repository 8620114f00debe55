import { defineConfig } from 'vitest/config';

/**
 * harness-evals tasks: `evals/*.eval.ts`, one vitest test per task x variant x trial.
 * Run them with `npm run eval` (it adds the eval reporter and the gate).
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
  },
});
