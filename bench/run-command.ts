import { spawn } from 'node:child_process';
import { trackGroup } from './scratch.js';

/**
 * Run a command (a measured run, npm, git, tar) to its end and collect its output. It runs detached,
 * in a process group the bench ends if it is stopped (scratch.ts).
 */
export function runCommand(
  command: string,
  args: readonly string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<{ code: number | null; output: string; pid: number | undefined }> {
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: options.env ?? process.env,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    const untrack = child.pid === undefined ? () => false : trackGroup(child.pid);
    let output = '';
    const collect = (chunk: Buffer) => {
      output += chunk.toString();
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    child.on('error', (error) => {
      untrack();
      resolve({ code: null, output: `${output}${error.message}`, pid: child.pid });
    });
    child.on('close', (code) => {
      untrack();
      resolve({ code, output, pid: child.pid });
    });
  });
}
