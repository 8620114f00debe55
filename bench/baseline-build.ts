import { existsSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import type { BaselineRef } from './baseline-ref.js';
import { whyItFailed } from './failure-output.js';
import { runCommand } from './run-command.js';
import { removeScratchDir, scratchDir } from './scratch.js';

/** What the bench runs of a build's dist/: the CLI, the package entries, the trial loop's modules. */
const BUILT = [
  ['cli/main.js'],
  ['index.js'],
  ['reference-agents.js'],
  ['eval/trial/trial-runner.js', 'eval/trial-runner.js'],
] as const;

/**
 * The baseline's own checkout: REF's tree from git objects (`git archive`, no worktree and no
 * change to the repository), this checkout's node_modules linked in (not installed), and its
 * dist/ built by REF's own build script (`npm run build`). Removed on failure; otherwise a
 * scratch directory, removed when the bench ends.
 */
export async function buildBaseline(options: {
  ref: BaselineRef;
  repoDir: string;
  nodeModules: string;
  log: (line: string) => void;
}): Promise<{ projectDir: string; notes: string[] }> {
  const { ref, repoDir } = options;
  const dir = scratchDir(`harness-baseline-${ref.short}-`);
  try {
    const archive = join(dir, '.tree.tar');
    await step(
      `git archive ${ref.short}`,
      'git',
      ['archive', '--format=tar', `--output=${archive}`, ref.commit],
      repoDir,
    );
    await step(`tar -xf (${ref.short}'s tree)`, 'tar', ['-xf', archive, '-C', dir], dir);
    rmSync(archive);
    symlinkSync(options.nodeModules, join(dir, 'node_modules'));
    options.log(`bench: building ${ref.ref} (${ref.short}) with its own npm run build in ${dir}`);
    const output = await step(
      `npm run build of ${ref.ref} (${ref.short})`,
      'npm',
      ['run', 'build'],
      dir,
    );
    const missing = BUILT.filter(
      (choices) => !choices.some((file) => existsSync(join(dir, 'dist', file))),
    );
    if (missing.length > 0) {
      throw new Error(
        `npm run build of ${ref.ref} (${ref.short}) made no ${missing.map((choices) => choices.map((file) => `dist/${file}`).join(' or ')).join(', ')}:\n${whyItFailed(output)}`,
      );
    }
    return { projectDir: dir, notes: dependencyNotes(dir, options.nodeModules, ref) };
  } catch (error) {
    removeScratchDir(dir);
    throw error;
  }
}

async function step(what: string, command: string, args: readonly string[], cwd: string) {
  const { code, output } = await runCommand(command, args, { cwd });
  if (code !== 0) throw new Error(`${what} exited with ${code}:\n${whyItFailed(output)}`);
  return output;
}

/**
 * The baseline runs on this checkout's node_modules: a dependency it pins at another version
 * (or that is not installed) is named, so a difference it makes is not put down to the code.
 */
export function dependencyNotes(dir: string, nodeModules: string, ref: BaselineRef): string[] {
  const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {
    dependencies?: Record<string, string>;
    devDependencies?: Record<string, string>;
  };
  const pinned = { ...manifest.dependencies, ...manifest.devDependencies };
  const notes: string[] = [];
  for (const [name, version] of Object.entries(pinned)) {
    const installed = join(nodeModules, name, 'package.json');
    if (!existsSync(installed)) {
      notes.push(`${ref.short} depends on ${name}@${version}, which the linked node_modules lacks`);
      continue;
    }
    const has = (JSON.parse(readFileSync(installed, 'utf8')) as { version?: string }).version;
    if (/^\d/.test(version) && has !== version) {
      notes.push(`${ref.short} pins ${name}@${version}; the linked node_modules has ${has}`);
    }
  }
  return notes;
}
