import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// The real path: vite resolves symlinks, and a linked dist/ must still be loaded natively.
const dist = `${realpathSync(fileURLToPath(new URL('./dist', import.meta.url)))}/`;
// A RegExp, not the string: vitest reads a string in `server.deps.external` as a package
// name under node_modules/, so a path there matches nothing and dist/ would be inlined
// (every module fetched from the main thread and run through vite's module runner).
const distFiles = new RegExp(`^${dist.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`);

/**
 * Evals: `evals/*.eval.ts`, one vitest test per task x variant x trial.
 * Run them with `npm run eval` (which adds the eval reporter and the gate);
 * one worker without isolation loads the SDK and the package once for all tasks.
 *
 * The evals use this repository the way a user's evals use the installed package: they
 * import `harness-evals`, i.e. the build in dist/ (npm run eval rebuilds it when src/
 * changed), and Node loads it natively, not through vite's transform. `#reference-agents`
 * is the refund desk and the debug agent, built but not shipped in the package.
 */
export default defineConfig({
  resolve: {
    alias: [
      { find: /^harness-evals$/, replacement: `${dist}index.js` },
      { find: /^#reference-agents$/, replacement: `${dist}reference-agents.js` },
    ],
  },
  test: {
    include: ['evals/**/*.eval.ts'],
    environment: 'node',
    pool: 'threads',
    isolate: false,
    fileParallelism: false,
    testTimeout: 120_000,
    maxConcurrency: 8,
    server: { deps: { external: [distFiles] } },
    // Transformed modules are cached on disk between runs (keyed by content): about 0.3 s per eval.
    experimental: { fsModuleCache: true },
  },
});
