import { isAbsolute, relative, resolve } from 'node:path';
import { TaskInputError } from '../../core/errors.js';
import { NotRegularFileError, readRegularFileSync } from '../../core/regular-file.js';

/**
 * A file a task names (a rubric, a human-labels file), read once when the task is declared:
 * relative paths are from the project folder. Missing, unreadable or empty is a TaskInputError
 * naming the file, what it is for and the fix.
 */
export function readTaskFile(
  file: string,
  what: string,
  projectDir: string,
): { text: string; shown: string } {
  if (typeof file !== 'string' || file.trim() === '') {
    throw new TaskInputError(`${what} file is not named: give a path, e.g. evals/rubrics/x.md`);
  }
  const path = isAbsolute(file) ? file : resolve(projectDir, file);
  const shown = relative(projectDir, path) || path;
  let text: string;
  try {
    text = readRegularFileSync(path).toString('utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why =
      code === 'ENOENT'
        ? 'is missing'
        : error instanceof NotRegularFileError
          ? `is ${error.kind}, not a regular file`
          : `cannot be read (${code ?? (error as Error).message})`;
    throw new TaskInputError(`${what} file ${shown} ${why}: create it or fix the path`, {
      cause: error,
    });
  }
  if (text.trim() === '') {
    throw new TaskInputError(
      `${what} file ${shown} is empty: write it, or remove it from the task`,
    );
  }
  return { text, shown };
}
