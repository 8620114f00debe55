import { copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startVitest } from 'vitest/node';

const root = fileURLToPath(new URL('../../..', import.meta.url));
let project: string;

// Runs in the eval worker. Vite rewrites what it inlines: a module run through its module
// runner calls its imports as `__vite_ssr_import_1__.name()`, so an exported function whose
// source says so was not loaded by Node.
const PROBE = `import { expect, it } from 'vitest';
import * as harness from 'harness-evals';
import * as agents from '#reference-agents';

const rewritten = (namespace) =>
  Object.entries(namespace)
    .filter(([, value]) => typeof value === 'function' && String(value).includes('__vite_ssr_'))
    .map(([name]) => name);

it('loads harness-evals natively', () => {
  expect(rewritten(harness)).toEqual([]);
});

it('loads #reference-agents natively', () => {
  expect(rewritten(agents)).toEqual([]);
});
`;

/** A throwaway project with the repository's eval config, dist/ linked as the bench links it. */
beforeAll(() => {
  project = mkdtempSync(join(tmpdir(), 'eval-config-'));
  for (const name of ['dist', 'node_modules']) symlinkSync(join(root, name), join(project, name));
  copyFileSync(join(root, 'vitest.evals.config.ts'), join(project, 'vitest.evals.config.ts'));
  writeFileSync(join(project, 'package.json'), '{ "type": "module", "private": true }\n');
  mkdirSync(join(project, 'evals'));
  writeFileSync(join(project, 'evals', 'native-probe.eval.ts'), PROBE);
});
afterAll(() => rmSync(project, { recursive: true, force: true }));

describe('vitest.evals.config.ts', () => {
  // Inlined, every dist/ module went over RPC through vite's module runner: 0.15-0.2 s more
  // start-up, and the first `npm run bench` figures after "loaded natively" were measured so.
  it('has the eval worker import the package from dist/ natively, not through vite', {
    timeout: 60_000,
  }, async () => {
    const vitest = await startVitest(
      'test',
      [],
      {
        config: join(project, 'vitest.evals.config.ts'),
        root: project,
        watch: false,
        reporters: [],
        // Its own cache folder: the probe's transforms stay out of the repository's.
        experimental: { fsModuleCache: false },
      },
      {},
      { stdout: process.stdout, stderr: process.stderr },
    );
    await vitest.close();
    const results = vitest.state.getFiles().flatMap((file) => file.tasks);
    expect(results.map((task) => [task.name, task.result?.state])).toEqual([
      ['loads harness-evals natively', 'pass'],
      ['loads #reference-agents natively', 'pass'],
    ]);
  });
});
