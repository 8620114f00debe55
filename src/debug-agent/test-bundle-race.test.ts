import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { bundleTestFile } from './test-bundle.js';
import { usePlaygrounds } from './testing/playgrounds.js';

/** Runs once, when esbuild's build has read its inputs and before bundleTestFile goes on. */
const afterBuild = vi.hoisted(() => ({ write: undefined as undefined | (() => void) }));

vi.mock('esbuild', async (importOriginal) => {
  const original = await importOriginal<typeof import('esbuild')>();
  return {
    ...original,
    build: async (...args: Parameters<typeof original.build>) => {
      const built = await original.build(...args);
      const write = afterBuild.write;
      afterBuild.write = undefined;
      write?.();
      return built;
    },
  };
});

const playground = usePlaygrounds();

describe('bundleTestFile, with a write racing the build', () => {
  it('never serves a bundle for bytes it was not built from', async () => {
    const { sandbox } = playground();
    const math = join(sandbox.realRoot, 'src', 'math.ts');
    const fixed = readFileSync(math, 'utf8').replace('a - b', 'a + b');
    // A write_file in the same batch as run_test lands while esbuild bundles the old code.
    afterBuild.write = () => writeFileSync(math, fixed);
    const during = await bundleTestFile('test/math.spec.ts', sandbox.realRoot);
    if ('error' in during) throw new Error('the demo project must bundle');
    expect(readFileSync(during.file, 'utf8')).toContain('a - b');
    // The next run_test sees the fixed file: it must get the fixed code, not the cached bundle.
    const next = await bundleTestFile('test/math.spec.ts', sandbox.realRoot);
    if ('error' in next) throw new Error('the fixed project must bundle');
    expect(readFileSync(next.file, 'utf8')).toContain('a + b');
  });
});
