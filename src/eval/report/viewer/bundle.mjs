// The viewer's bundle: main.ts and the browser modules it imports, in one IIFE, the HTML
// report's one inline script (its CSP hash is taken from this exact text). Plain JavaScript:
// dist-build.mjs runs it while building dist/, before any build exists.
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = dirname(fileURLToPath(import.meta.url));

/** The bundled viewer of the sources in `dir` (this folder by default), as text. */
export function bundleViewer(dir = HERE) {
  // A dev dependency, loaded only to bundle: the package ships the bundle, not this file.
  const esbuild = createRequire(import.meta.url)('esbuild');
  const { outputFiles, metafile } = esbuild.buildSync({
    absWorkingDir: dir,
    entryPoints: ['main.ts'],
    tsconfig: 'tsconfig.json',
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: 'es2020',
    // Non-ASCII as \u escapes: the text is the same whatever the page's charset.
    charset: 'ascii',
    legalComments: 'none',
    logLevel: 'silent',
    write: false,
    metafile: true,
  });
  // Only this folder's modules run in the page; the renderer's are imported for their types.
  const outside = Object.keys(metafile.inputs).filter((input) => input.startsWith('..'));
  if (outside.length > 0) {
    throw new Error(
      `the viewer's bundle (${dir}) takes in ${outside.join(', ')}: the page's code imports only its own folder; import what it needs of the renderer with \`import type\``,
    );
  }
  const text = outputFiles[0].text;
  // The script sits inline in the page: it must not end its own element.
  if (/<\/script|<!--/i.test(text)) {
    throw new Error(
      `the viewer's bundle (${dir}) holds "</script" or "<!--", which would end the report's script element: write it as "<\\/script" or "<\\!--"`,
    );
  }
  return text;
}
