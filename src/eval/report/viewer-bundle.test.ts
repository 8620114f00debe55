import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { htmlCsp } from './html.js';
import { bundleViewer } from './viewer/bundle.mjs';
import { viewerScript } from './viewer-bundle.js';

const repo = new URL('../../../', import.meta.url).pathname;

describe('the viewer bundle', () => {
  it('is the script dist/ ships, byte for byte: the package renders it without esbuild, under the same CSP hash', async () => {
    // The tests' global setup built dist/ from these sources.
    const built = join(repo, 'dist/eval/report/viewer-bundle.js');
    const shipped = (await import(
      pathToFileURL(built).href
    )) as typeof import('./viewer-bundle.js');
    expect(shipped.viewerScript()).toBe(viewerScript());
    const html = (await import(
      pathToFileURL(join(repo, 'dist/eval/report/html.js')).href
    )) as typeof import('./html.js');
    expect(html.htmlCsp()).toBe(htmlCsp());
  });

  it('is one script that runs by itself: an IIFE with no import left and no path of the machine that built it', () => {
    expect(viewerScript()).toMatch(/^"use strict";\n\(\(\) => \{/);
    expect(viewerScript()).not.toMatch(/\bimport\s*[({'"]|\brequire\(/);
    expect(viewerScript()).not.toContain(repo);
  });

  it('cannot end its script element early: esbuild escapes "</script", and "<!--" is refused', () => {
    const dir = mkdtempSync(join(tmpdir(), 'viewer-bundle-'));
    try {
      writeFileSync(join(dir, 'tsconfig.json'), '{}');
      writeFileSync(join(dir, 'main.ts'), 'document.title = "</script><b>x</b>";\n');
      expect(bundleViewer(dir)).toContain('"<\\/script><b>x</b>"');
      writeFileSync(join(dir, 'main.ts'), 'document.title = "<!-- x";\n');
      expect(() => bundleViewer(dir)).toThrow(/holds "<\/script" or "<!--".*write it as/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("holds only the viewer folder's modules: a value from the renderer's is refused, its types are fine", () => {
    const root = mkdtempSync(join(tmpdir(), 'viewer-bundle-'));
    const dir = join(root, 'viewer');
    try {
      mkdirSync(dir);
      writeFileSync(join(dir, 'tsconfig.json'), '{}');
      writeFileSync(
        join(root, 'renderer.ts'),
        'export type Row = { task: string };\nexport const SIZE = 3;\n',
      );
      writeFileSync(
        join(dir, 'main.ts'),
        "import type { Row } from '../renderer.js';\nconst row: Row = { task: 'T1' };\ndocument.title = row.task;\n",
      );
      expect(bundleViewer(dir)).toContain('document.title = row.task');
      writeFileSync(
        join(dir, 'main.ts'),
        "import { SIZE } from '../renderer.js';\ndocument.title = String(SIZE);\n",
      );
      expect(() => bundleViewer(dir)).toThrow(/takes in \.\.\/renderer\.ts: .*import type/);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
