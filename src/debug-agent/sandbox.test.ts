import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createSandbox } from './sandbox.js';

describe('createSandbox', () => {
  it('copies the seed project into a fresh directory per call', () => {
    const first = createSandbox();
    const second = createSandbox();
    try {
      expect(first.root).not.toBe(second.root);
      expect(readFileSync(join(first.root, 'src', 'math.ts'), 'utf8')).toContain('return a - b;');
      writeFileSync(join(first.root, 'src', 'math.ts'), 'changed');
      expect(readFileSync(join(second.root, 'src', 'math.ts'), 'utf8')).toContain('return a - b;');
    } finally {
      first.dispose();
      second.dispose();
    }
    expect(existsSync(first.root)).toBe(false);
    expect(() => first.dispose()).not.toThrow();
  });

  it('shows paths relative to its root and scrubs its location from text', () => {
    const sandbox = createSandbox();
    try {
      expect(sandbox.toRelative(join(sandbox.realRoot, 'src', 'math.ts'))).toBe('src/math.ts');
      expect(sandbox.toRelative(sandbox.realRoot)).toBe('.');
      expect(
        sandbox.scrub(
          `open '${sandbox.root}/src/x.ts' in ${sandbox.realRoot} (file://${sandbox.realRoot}/a.ts)`,
        ),
      ).toBe("open 'src/x.ts' in . (./a.ts)");
    } finally {
      sandbox.dispose();
    }
  });
});
