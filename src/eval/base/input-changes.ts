import { readFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { InputChange } from '../spec/changes-schema.js';
import { changedPaths, filesAt, git } from './git.js';

/** Where a project keeps what decides its verdicts: task files, datasets, rubrics, human labels. */
const INPUTS = 'evals';

/**
 * The files under evals/ (task files, datasets, judge rubrics, human labels: everything that
 * decides a verdict besides the cassettes) that differ between `commit` and this checkout,
 * committed or not, each with the tasks it decides: those of `taskIds` its text names, or, for a
 * data file, those named by an eval file that names the data file.
 */
export async function inputChanges(
  projectDir: string,
  commit: string,
  taskIds: readonly string[],
): Promise<InputChange[]> {
  const paths = await changedPaths(projectDir, commit, INPUTS);
  if (paths.size === 0) return [];
  const sources = await taskSources(projectDir);
  const removed = [...paths].filter(([, status]) => status === 'removed').map(([path]) => path);
  const baseTexts = await filesAt(projectDir, commit, removed);
  const changes: InputChange[] = [];
  for (const [path, status] of [...paths].sort(([a], [b]) => a.localeCompare(b))) {
    const text =
      status === 'removed'
        ? baseTexts.get(path)
        : await readFile(join(projectDir, path), 'utf8').catch(() => undefined);
    // A data file decides the tasks of the eval files that name it.
    const naming = sources.filter((source) => source.includes(basename(path)));
    const texts = [text ?? '', ...naming];
    const tasks = taskIds.filter((task) => texts.some((source) => namesTask(source, task)));
    changes.push({ path, status, tasks });
  }
  return changes;
}

/** The checkout's eval and agent files under evals/, as text. */
async function taskSources(projectDir: string): Promise<string[]> {
  const files = (
    await git(projectDir, ['ls-files', '-co', '--exclude-standard', '-z', '--', INPUTS])
  )
    .split('\0')
    .filter((file) => /\.[cm]?[jt]s$/.test(file));
  const texts = await Promise.all(
    files.map((file) => readFile(join(projectDir, file), 'utf8').catch(() => '')),
  );
  return texts;
}

/** The task id as a string literal ('T8', "T8" or `T8`), as a task file declares it. */
function namesTask(text: string, task: string): boolean {
  const escaped = task.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(['"\`])${escaped}\\1`).test(text);
}
