import { cpSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The seed's demo project: `add(a, b)` returns `a - b` and its test fails. */
export const SANDBOX_TEMPLATE_DIR = fileURLToPath(new URL('./sandbox-project', import.meta.url));

/** A private copy of a project that the debug agent's tools are confined to. */
export interface Sandbox {
  /** The directory as created (under the OS temp dir). */
  readonly root: string;
  /** `root` with symlinks resolved; confinement compares real paths against it. */
  readonly realRoot: string;
  /** A path inside the sandbox as the model sees it: relative, `/`-separated, `.` for the root. */
  toRelative(absolute: string): string;
  /** Replace the sandbox's location in a text by relative paths (it differs per trial). */
  scrub(text: string): string;
  /** Remove the directory; safe to call twice. */
  dispose(): void;
}

export interface CreateSandboxOptions {
  /** The project to copy in; the seed's demo project by default. */
  template?: string;
  /** Where to create it; the OS temp dir by default. */
  parent?: string;
}

/**
 * Copy a project into a fresh temporary directory, so runs never share state.
 *
 * @example
 * const sandbox = createSandbox();
 * try { ... } finally { sandbox.dispose(); }
 */
export function createSandbox(options: CreateSandboxOptions = {}): Sandbox {
  const root = mkdtempSync(join(options.parent ?? tmpdir(), 'debug-agent-sandbox-'));
  try {
    cpSync(options.template ?? SANDBOX_TEMPLATE_DIR, root, { recursive: true });
  } catch (error) {
    rmSync(root, { recursive: true, force: true });
    throw error;
  }
  const realRoot = realpathSync(root);
  // Longest first, so the real path is not half-replaced by a shorter alias of it.
  const locations = [...new Set([realRoot, root])].sort((a, b) => b.length - a.length);
  return {
    root,
    realRoot,
    toRelative: (absolute) => {
      const path = relative(realRoot, absolute).split(sep).join('/');
      return path === '' ? '.' : path;
    },
    scrub: (text) =>
      locations.reduce(
        (current, location) =>
          current
            .split(`file://${location}`)
            .join('.')
            .split(`${location}${sep}`)
            .join('')
            .split(location)
            .join('.'),
        text,
      ),
    dispose: () => rmSync(root, { recursive: true, force: true }),
  };
}
