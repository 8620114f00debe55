import { relative } from 'node:path';
import { ConfigError } from '../../core/errors.js';

/** One defineTask call: its id, its suite and where it was made. */
export interface TaskDeclaration {
  id: string;
  suite: string;
  /** `evals/a.eval.ts:4`, or the file alone when the line is unknown. */
  location: string | undefined;
  /** The file's collection (vitest's file task): a new one each time the file is collected. */
  collection: object | undefined;
  file: string | undefined;
}

// On globalThis under a registered symbol: evals share one worker without isolation, and a
// second copy of this module (a linked build, src next to dist) must see the same declarations.
const REGISTRY = Symbol.for('harness-evals.task-declarations');

function declarations(): Map<string, TaskDeclaration[]> {
  const holder = globalThis as { [REGISTRY]?: Map<string, TaskDeclaration[]> };
  holder[REGISTRY] ??= new Map();
  return holder[REGISTRY];
}

/**
 * Record a task declaration, refusing a second one of its id: fixtures/<task>/<variant>/ has no
 * suite in it, so two tasks with one id (in any suites or files, or differing only in case,
 * which a case-insensitive disk folds together) would record over each other's cassettes.
 */
export function registerTask(declaration: TaskDeclaration): void {
  const key = declaration.id.toLowerCase();
  const earlier = (declarations().get(key) ?? []).filter(
    // The same file collected again (a re-run in the same worker) replaces its declarations.
    (other) =>
      !(
        other.file !== undefined &&
        other.file === declaration.file &&
        other.collection !== declaration.collection
      ),
  );
  const all = [...earlier, declaration];
  declarations().set(key, all);
  if (all.length > 1) throw new ConfigError(duplicateMessage(all));
}

function duplicateMessage(all: readonly TaskDeclaration[]): string {
  const last = all[all.length - 1]!;
  const where = all
    .map((declaration) => {
      const id = declaration.id === last.id ? '' : ` as '${declaration.id}'`;
      return `suite ${declaration.suite} (${declaration.location ?? 'unknown file'})${id}`;
    })
    .join(' and ');
  return `task id '${last.id}' is declared twice: in ${where}. Its fixtures (fixtures/${last.id}/), traces and floors have no suite in their key, so one would record over the other: rename one of them (ids that differ only in case count as the same)`;
}

/** Where defineTask was called from: the first stack frame in the collecting file, with its line. */
export function declarationSite(file: string | undefined, projectDir: string): string | undefined {
  if (file === undefined) return undefined;
  const frame = (new Error().stack ?? '')
    .split('\n')
    .map((line) => line.replace('file://', ''))
    .find((line) => line.includes(file));
  const position = frame?.slice(frame.indexOf(file) + file.length).match(/^:(\d+)/);
  const shown = relative(projectDir, file) || file;
  return position ? `${shown}:${position[1]}` : shown;
}
