import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/** The files a ref needs for the bench (baseline-ref.ts), each with a stand-in text. */
export const BENCH_LAYOUT_FILES: Readonly<Record<string, string>> = {
  'package.json': JSON.stringify({ type: 'module', scripts: { build: 'node build.mjs' } }),
  'build.mjs': '',
  'src/cli/launch.mjs': '',
  'src/cli/dist-build.mjs': '',
  'src/index.ts': '',
  'src/reference-agents.ts': '',
  'AGENTS.md': '',
  'vitest.evals.config.ts': '',
  'evals/t2.eval.ts': '',
  'fixtures/T2/upgraded/trial-1.json': '{}',
  'src/eval/trial/trial-runner.ts': '',
  'src/eval/spec/settings.ts': '',
};

/** Test double: a throwaway git repository; `commit` writes (or, with null, deletes) files. */
export function createGitRepo() {
  const dir = mkdtempSync(join(tmpdir(), 'bench-git-repo-'));
  const git = (...args: string[]) => {
    const run = spawnSync(
      'git',
      [
        '-c',
        'user.name=bench',
        '-c',
        'user.email=bench@example.invalid',
        '-c',
        'commit.gpgsign=false',
        ...args,
      ],
      { cwd: dir, encoding: 'utf8' },
    );
    if (run.status !== 0) throw new Error(`git ${args.join(' ')}: ${run.stderr}`);
    return run.stdout.trim();
  };
  git('init', '--quiet');
  return {
    dir,
    git,
    commit(files: Readonly<Record<string, string | null>>, message = 'change'): string {
      for (const [path, text] of Object.entries(files)) {
        const file = join(dir, path);
        if (text === null) {
          rmSync(file);
          continue;
        }
        mkdirSync(dirname(file), { recursive: true });
        writeFileSync(file, text);
      }
      git('add', '--all');
      git('commit', '--quiet', '--allow-empty', '-m', message);
      return git('rev-parse', 'HEAD');
    },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
