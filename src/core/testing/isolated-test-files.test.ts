import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ISOLATED_TEST_FILES } from './isolated-test-files.js';

const root = join(import.meta.dirname, '../../..');

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return testFiles(path);
    return entry.name.endsWith('.test.ts') ? [relative(root, path)] : [];
  });
}

describe('the isolated unit test files', () => {
  it('include every file that mocks a module', () => {
    const mocking = testFiles(join(root, 'src')).filter(
      (file) =>
        !file.endsWith('.slow-e2e.test.ts') &&
        /\bvi\.(mock|doMock|unmock|doUnmock)\(/.test(readFileSync(join(root, file), 'utf8')),
    );
    expect(mocking.length).toBeGreaterThan(0);
    const shared = mocking.filter((file) => !ISOLATED_TEST_FILES.includes(file));
    expect(
      shared,
      'these files mock modules: list them in src/core/testing/isolated-test-files.ts',
    ).toEqual([]);
  });

  it('name files that exist, once each', () => {
    expect(ISOLATED_TEST_FILES.filter((file) => !existsSync(join(root, file)))).toEqual([]);
    expect(new Set(ISOLATED_TEST_FILES).size).toBe(ISOLATED_TEST_FILES.length);
  });
});
