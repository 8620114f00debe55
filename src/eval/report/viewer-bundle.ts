import { bundleViewer } from './viewer/bundle.mjs';

let script: string | undefined;

/**
 * The HTML report's one inline script: the viewer's browser modules (viewer/, type-checked
 * TypeScript) bundled by esbuild. Run from src/ (tests, tsx), the modules are bundled on first
 * use (esbuild starts: about 0.4 s); the build replaces this module in dist/ with the bundle's
 * text (dist-build.mjs), so the package needs no esbuild and renders the same script.
 */
export function viewerScript(): string {
  script ??= bundleViewer();
  return script;
}
