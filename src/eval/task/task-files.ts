import { readRegularFile } from '../../core/regular-file.js';

/**
 * The eval files a `--task` run needs to load: those whose text names a selected task id as
 * a string literal ('T2', "T2" or `T2`, case-blind, the whole id). Loading only these saves
 * vitest's cost for every other file and what those import (issue 14: start-up). Undefined,
 * meaning "load every file", when some selected task is named in no file: its id is computed,
 * or it is a typo, and only a full run can declare it or list the known tasks. A file that
 * cannot be read, or is not a regular file (a FIFO would block the read), is kept for vitest
 * to report. The run still checks that every selected task was declared.
 */
export async function filesNamingTasks(
  files: readonly string[],
  tasks: readonly string[],
): Promise<string[] | undefined> {
  const patterns = tasks.map(
    (task) => new RegExp(`(['"\`])${task.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\1`, 'i'),
  );
  const texts = await Promise.all(
    files.map((file) =>
      readRegularFile(file).then(
        (bytes) => bytes.toString('utf8'),
        () => undefined,
      ),
    ),
  );
  const named = new Set<number>();
  const chosen = files.filter((_, index) => {
    const text = texts[index];
    if (text === undefined) return true;
    const hits = patterns.flatMap((pattern, task) => (pattern.test(text) ? [task] : []));
    for (const task of hits) named.add(task);
    return hits.length > 0;
  });
  return named.size === patterns.length ? chosen : undefined;
}
