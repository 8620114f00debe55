import { realpath } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';

/**
 * Where a write to `path` would land, its symlinks followed: the real path of its deepest
 * existing ancestor, with the parts still to be created after it.
 */
export async function landingPath(path: string): Promise<string> {
  const missing: string[] = [];
  let current = resolve(path);
  while (true) {
    try {
      return join(await realpath(current), ...missing.reverse());
    } catch (error) {
      const parent = dirname(current);
      const code = (error as NodeJS.ErrnoException).code;
      // Not there yet (or a file where a folder would be: the write itself will say so).
      if ((code !== 'ENOENT' && code !== 'ENOTDIR') || parent === current) throw error;
      missing.push(basename(current));
      current = parent;
    }
  }
}

/**
 * The real path a write to `path` lands on, when that is outside `root` (a symlinked folder on
 * the way leads elsewhere); undefined when it stays inside. The check a writer makes before it
 * writes: a folder swapped for a symlink after it is not caught.
 */
export async function landsOutside(root: string, path: string): Promise<string | undefined> {
  const [realRoot, landing] = await Promise.all([landingPath(root), landingPath(path)]);
  const inside = relative(realRoot, landing);
  const outside = inside === '..' || inside.startsWith(`..${sep}`) || isAbsolute(inside);
  return outside ? landing : undefined;
}

/**
 * A one-line refusal for a write under `root` that would land outside it, or undefined: `what`
 * names the folder as the user knows it (`fixtures/T1`), `doing` what was about to be written.
 */
export async function outsideProblem(
  root: string,
  path: string,
  what: string,
  doing: string,
): Promise<string | undefined> {
  const landing = await landsOutside(root, path);
  if (landing === undefined) return undefined;
  return `${what} leads outside the project (to ${landing}, through a symlink), so ${doing} would write there: harness-evals writes only inside the project; make ${what} a folder of the project (remove the symlink), then run again`;
}
