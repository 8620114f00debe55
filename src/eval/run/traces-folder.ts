import { randomBytes } from 'node:crypto';
import { constants, type Stats } from 'node:fs';
import { access, lstat, mkdir, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
import { ConfigError, errorMessage } from '../../core/errors.js';
import { outsideProblem } from '../../core/inside-folder.js';
import { kindOf } from '../../core/regular-file.js';
import { isVariantName } from '../spec/agent-spec.js';
import { selectionFilter } from '../spec/selection.js';
import { evalRunsDir } from '../spec/settings.js';
import { TASK_ID } from '../spec/task-id.js';
import { inventoryFixtures } from '../verify/fixture-inventory.js';

/** What a run selects, as far as it is known before the eval files load. */
export interface TraceSelection {
  trials: number;
  trialNumbers?: readonly number[] | undefined;
  tasks?: readonly string[] | undefined;
  variants?: readonly string[] | undefined;
  /** Not applied: which suite a task is in is known only once the eval files load. */
  suites?: readonly string[] | undefined;
}

/**
 * Checked once, before any trial runs: the traces folder exists (it is created) and takes a
 * new file, and nothing but a writable folder stands where a selected task's or variant's
 * traces go (runs/eval/<task>/<variant>/trial-<n>.jsonl); a task folder is writable unless
 * --variant names the variants (else one without fixtures yet may be made in it). Otherwise every trial would error
 * on its trace, one by one, and the report could say nothing about the fixtures; a
 * ConfigError names the path, the cause and the fix.
 */
export async function checkTracesFolder(
  projectDir: string,
  selection: TraceSelection = { trials: 0 },
): Promise<void> {
  const dir = evalRunsDir(projectDir);
  const shown = relative(projectDir, dir);
  const probe = join(dir, `.write-check-${process.pid}-${randomBytes(4).toString('hex')}`);
  const outside = await outsideProblem(projectDir, dir, shown, 'a trial trace');
  if (outside) throw new ConfigError(outside);
  try {
    await mkdir(dir, { recursive: true });
    await writeFile(probe, '', { flag: 'wx' });
  } catch (error) {
    throw new ConfigError(
      `cannot write the trial traces under ${shown}: ${errorMessage(error)}; make ${shown} a writable folder (move away what is in its way), then run again`,
      { cause: error },
    );
  }
  await rm(probe, { force: true });
  const selectsTrial = (trial: number) =>
    selection.trialNumbers ? selection.trialNumbers.includes(trial) : trial <= selection.trials;
  // Only --variant names every variant a run uses before the eval files load: without it, a
  // variant not recorded yet may make its folder in any task folder.
  const variantsKnown = (selection.variants?.length ?? 0) > 0;
  // Write access only where a trial creates something: a trace file in each variant folder,
  // a variant folder in a task folder that lacks one (runs/eval itself was probed above).
  for (const [task, variants] of traceFolders(projectDir, selection)) {
    const taskFolder = join(dir, task);
    if (!(await checkFolder(projectDir, taskFolder, constants.X_OK))) continue;
    let makesFolder = !variantsKnown;
    for (const variant of variants) {
      const folder = join(taskFolder, variant);
      if (await checkFolder(projectDir, folder, constants.W_OK | constants.X_OK))
        await checkTraceFiles(projectDir, folder, selectsTrial);
      else makesFolder = true;
    }
    if (makesFolder) await checkFolder(projectDir, taskFolder, constants.W_OK | constants.X_OK);
  }
}

/**
 * The task folders under runs/eval a run may write, each with its variant folders: the
 * selected tasks and variants that have fixtures (their ids as the fixtures spell them), and
 * the ones --task and --variant name. Eval files are not loaded yet, so a suite selection is
 * not applied, and a new task without fixtures is checked only when --task names it. Names no
 * task or variant can have (`..`, a slash) are left to the run to refuse as unknown.
 */
function traceFolders(projectDir: string, selection: TraceSelection): Map<string, Set<string>> {
  // Without the suites: a fixture's suite is unknown here, and no --suite matches an empty name.
  const { selects, selectsVariant } = selectionFilter({
    tasks: selection.tasks,
    variants: selection.variants,
  });
  const folders = new Map<string, Set<string>>();
  const fixtures = inventoryFixtures(
    resolve(projectDir, 'fixtures'),
    (task, variant) =>
      TASK_ID.test(task) && isVariantName(variant) && selects('', task) && selectsVariant(variant),
  );
  for (const key of fixtures.keys()) {
    const [task = '', variant = ''] = key.split('/');
    folders.set(task, (folders.get(task) ?? new Set()).add(variant));
  }
  const known = new Set([...folders.keys()].map((task) => task.toUpperCase()));
  for (const task of selection.tasks ?? []) {
    if (TASK_ID.test(task) && !known.has(task.toUpperCase())) folders.set(task, new Set());
  }
  const named = (selection.variants ?? []).filter(isVariantName);
  for (const variants of folders.values()) for (const variant of named) variants.add(variant);
  return folders;
}

/**
 * False when `folder` does not exist yet (it is made when a trace is written); a ConfigError
 * when something else is there, or a folder without the access a trial `needs` in it.
 */
async function checkFolder(projectDir: string, folder: string, needs: number): Promise<boolean> {
  const shown = relative(projectDir, folder);
  let problem: string | undefined;
  let linkedOutside: string | undefined;
  let error: unknown;
  try {
    const info = await lstat(folder);
    if (info.isSymbolicLink()) {
      const target = await stat(folder).catch(() => undefined);
      if (!target) problem = 'a broken symlink, not a folder';
      else if (!target.isDirectory()) problem = `a symlink to ${kindOfPath(target)}, not a folder`;
    } else if (!info.isDirectory()) {
      problem = `${kindOfPath(info)}, not a folder`;
    }
    if (!problem && info.isSymbolicLink()) {
      linkedOutside = await outsideProblem(projectDir, folder, shown, 'a trial trace');
    }
    if (!problem) {
      await access(folder, needs).catch((denied: unknown) => {
        error = denied;
        const cannot = needs & constants.W_OK ? 'write' : 'enter';
        problem = `a folder it cannot ${cannot} (${errorMessage(denied)})`;
      });
    }
  } catch (thrown) {
    if ((thrown as NodeJS.ErrnoException).code === 'ENOENT') return false;
    error = thrown;
    problem = `not readable (${errorMessage(thrown)})`;
  }
  if (linkedOutside) throw new ConfigError(linkedOutside);
  if (problem) {
    throw new ConfigError(
      `cannot write the trial traces under ${shown}: it is ${problem}; make ${shown} a writable folder (move away what is in its way), then run again`,
      { cause: error },
    );
  }
  return true;
}

/** A folder where a selected trial's trace file goes (anything else there is moved aside). */
async function checkTraceFiles(
  projectDir: string,
  folder: string,
  selectsTrial: (trial: number) => boolean,
): Promise<void> {
  // Unreadable is no obstacle: a trace is written, never listed.
  for (const entry of await readdir(folder, { withFileTypes: true }).catch(() => [])) {
    const trial = Number(/^trial-(\d+)\.jsonl$/.exec(entry.name)?.[1]);
    if (entry.isDirectory() && selectsTrial(trial)) {
      throw new ConfigError(
        `cannot write the trial traces under ${relative(projectDir, folder)}: ${entry.name} in it is a folder, where the trace of trial ${trial} goes; move it away, then run again`,
      );
    }
  }
}

const kindOfPath = (info: Stats) => (info.isFile() ? 'a file' : kindOf(info));
