import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { whyItFailed } from './failure-output.js';
import { runCommand } from './run-command.js';
import { removeScratchDir, scratchDir } from './scratch.js';

const HOOK = fileURLToPath(new URL('./usage-hook.mjs', import.meta.url));

export interface ProcessRun {
  wallMs: number;
  /** User + system CPU time of the node process (all its threads); NaN without the hook. */
  cpuMs: number;
  /** User + system CPU time of the children it waited for (fork workers); NaN without the hook or off Linux. */
  childCpuMs: number;
  maxRssKb: number;
  /**
   * Processes left behind: children still present when the node process exited, and
   * anything still alive in its process group afterwards (`pid (name) state`).
   * Undefined off Linux.
   */
  leftovers: string[] | undefined;
  exitCode: number | null;
  output: string;
}

/**
 * Run a command in its own process group and measure it: wall time from spawn to exit
 * and, for `node` commands, what the preloaded usage hook reports about the process.
 */
export async function measureCommand(
  command: string,
  args: readonly string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv },
): Promise<ProcessRun> {
  const dir = scratchDir('harness-usage-');
  const usageFile = join(dir, 'usage.json');
  const node = command === 'node';
  const env: NodeJS.ProcessEnv = { ...process.env, ...options.env, HARNESS_BENCH_USAGE: usageFile };
  delete env.GITHUB_STEP_SUMMARY;
  try {
    const started = performance.now();
    const {
      code: exitCode,
      output,
      pid,
    } = await runCommand(
      node ? process.execPath : command,
      node ? ['--import', HOOK, ...args] : args,
      { cwd: options.cwd, env },
    );
    const wallMs = performance.now() - started;
    if (node && !existsSync(usageFile)) {
      throw new Error(
        `${command} ${args.join(' ')} did not run (exit ${exitCode}):\n${whyItFailed(output)}`,
      );
    }
    const usage = node
      ? (JSON.parse(readFileSync(usageFile, 'utf8')) as {
          cpuMs: number;
          childCpuMs?: number;
          maxRssKb: number;
          children?: string[];
        })
      : { cpuMs: Number.NaN, childCpuMs: Number.NaN, maxRssKb: Number.NaN, children: [] };
    const group = pid === undefined ? undefined : processGroup(pid);
    const leftovers =
      group === undefined || usage.children === undefined
        ? undefined
        : [...usage.children, ...group];
    return {
      wallMs,
      cpuMs: usage.cpuMs,
      childCpuMs: usage.childCpuMs ?? Number.NaN,
      maxRssKb: usage.maxRssKb,
      leftovers,
      exitCode,
      output,
    };
  } finally {
    removeScratchDir(dir);
  }
}

/** Live processes whose process group is `pgid`, from /proc (Linux); undefined elsewhere. */
function processGroup(pgid: number): string[] | undefined {
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return undefined;
  }
  const found: string[] = [];
  for (const pid of pids) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[2]) === pgid) {
        found.push(
          `${pid} ${stat.slice(stat.indexOf('('), stat.lastIndexOf(')') + 1)} ${fields[0]}`,
        );
      }
    } catch {
      // The process ended while we looked.
    }
  }
  return found;
}
