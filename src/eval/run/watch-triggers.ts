import { realpathSync } from 'node:fs';
import type { TestUserConfig } from 'vitest/node';

type TriggerPatterns = NonNullable<TestUserConfig['watchTriggerPatterns']>;

/** What the triggers ask the watch run. */
export interface WatchedFiles {
  /** The eval files that declared a task id so far (empty when none did). */
  filesOf: (task: string) => string[];
  /** Every eval file vitest knows. */
  evalFiles: () => string[];
}

/** Code: in vitest's module graph when an eval file imports it, not a file read at run time. */
const CODE = /\.[cm]?[jt]sx?$/;

/**
 * vitest's `watchTriggerPatterns` for `eval --watch`: the files trials read while they run,
 * which vitest's module graph (the eval files and the code they import) does not know.
 * - `fixtures/<task>/...` (a cassette, a judge cassette): the eval files that declared the
 *   task; every eval file while none has (a task not run yet).
 * - a prompt or other data: a top-level `*.md` (AGENTS.md), and anything under `evals/` or
 *   `prompts/` that is not code (rubrics, datasets, labels): every eval file, as an agent or a
 *   check may read it whatever the eval file names.
 */
export function watchTriggers(projectDir: string, files: WatchedFiles): TriggerPatterns {
  // vite's watcher may name a file by the project's real path (a symlinked temp folder).
  const roots = [...new Set([projectDir, realpathSync(projectDir)])].map((dir) =>
    dir.replaceAll('\\', '/').replace(/[.*+?^${}()|[\]\\]/g, '\\$&'),
  );
  const root = `(?:${roots.join('|')})`;
  return [
    {
      pattern: new RegExp(`^${root}/fixtures/([^/]+)/`),
      testsToRun: (_file, match) => {
        const declaring = files.filesOf(match[1] ?? '');
        return declaring.length > 0 ? declaring : files.evalFiles();
      },
    },
    {
      pattern: new RegExp(`^${root}/(?:[^/]+\\.md|(?:evals|prompts)/(?:.+/)?[^/]+)$`),
      testsToRun: (file) => (CODE.test(file) ? undefined : files.evalFiles()),
    },
  ];
}
