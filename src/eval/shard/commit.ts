import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

/**
 * The commit checked out in `projectDir` (`git rev-parse HEAD`), or null when it is not in a git
 * work tree (or git is missing): what a shard result records and a merge compares, so shards of
 * another commit are not merged on this one. Uncommitted changes are not seen.
 */
export async function currentCommit(projectDir: string): Promise<string | null> {
  try {
    const { stdout } = await run('git', ['rev-parse', '--verify', '--quiet', 'HEAD^{commit}'], {
      cwd: projectDir,
      timeout: 30_000,
    });
    const commit = stdout.trim();
    return /^[0-9a-f]{40,64}$/.test(commit) ? commit : null;
  } catch {
    return null;
  }
}
