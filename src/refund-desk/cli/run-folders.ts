import { isAbsolute, relative, resolve } from 'node:path';
import { ConfigError } from '../../core/errors.js';
import { outsideProblem } from '../../core/inside-folder.js';

/**
 * Journals and traces are written only inside the project: a folder on their way that is a
 * symlink leading out is refused (as runs/eval and fixtures/ are). A --journals folder given
 * outside the project is the user's choice.
 */
export async function checkRunFolders(cwd: string, journals: string | undefined): Promise<void> {
  const folders = [
    ['runs', 'the trace'],
    [journals ?? 'runs/journals', 'the run journal'],
  ] as const;
  for (const [folder, doing] of folders) {
    const path = resolve(cwd, folder);
    const inside = relative(cwd, path);
    if (inside.startsWith('..') || isAbsolute(inside)) continue;
    const problem = await outsideProblem(cwd, path, folder, doing);
    if (problem !== undefined) throw new ConfigError(problem);
  }
}
