import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { RUN_MARKER_VARIABLE, sweepProcesses } from './process-sweep.js';

export interface ChildOptions {
  command: string;
  args: readonly string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** Real milliseconds; the whole process group is killed when they run out. */
  timeoutMs: number;
  signal?: AbortSignal;
  /** Characters kept per stream, from the end (the tail is what explains a failure). */
  keepChars?: number;
}

export interface ChildResult {
  /** null when the process was killed. */
  exitCode: number | null;
  timedOut: boolean;
  aborted: boolean;
  stdout: string;
  stderr: string;
}

// Process groups are POSIX; on Windows only the direct child can be killed this way.
const GROUPS = process.platform !== 'win32';

/**
 * Polls this process and the child's group; once this process is gone (killed by a signal,
 * which runs no handler, or a Ctrl-C, which the detached group never sees), kills the group.
 */
// No `--` before the group: dash's kill refuses it.
const WATCHDOG = `while kill -0 "$1" 2>/dev/null && kill -0 "-$2" 2>/dev/null; do sleep 0.2; done; kill -KILL "-$2" 2>/dev/null`;

/** A detached `sh` (a few ms to start), so that the terminal's Ctrl-C does not end it first. */
function startWatchdog(group: number): ChildProcess | undefined {
  try {
    const watchdog = spawn('sh', ['-c', WATCHDOG, 'watchdog', String(process.pid), String(group)], {
      detached: true,
      stdio: 'ignore',
    });
    // Without sh the run goes on as before: the timer and the exit handlers still kill the group.
    watchdog.on('error', () => {});
    watchdog.unref();
    return watchdog;
  } catch {
    return undefined;
  }
}

/**
 * Run a command with a real-time timeout. The child leads its own session and process group
 * (`detached`), and its environment carries a marker unique to this call. On timeout, on
 * abort, and once the child exits, the whole group is killed with SIGKILL and, on Linux,
 * so is every process that carries the marker or descends from one (`sweepProcesses`):
 * that catches grandchildren that left the group with `setsid` or a double fork. A watchdog
 * process kills the group if this process dies first.
 * Output is collected per stream, so the result does not depend on how two pipes interleave.
 *
 * @example
 * const result = await runChild({ command: process.execPath, args: ['test.js'], cwd, env, timeoutMs: 10_000 });
 */
export function runChild(options: ChildOptions): Promise<ChildResult> {
  const keep = options.keepChars ?? 64 * 1024;
  return new Promise((resolve, reject) => {
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    let aborted = false;
    const marker = randomUUID();
    const child = spawn(options.command, [...options.args], {
      cwd: options.cwd,
      env: { ...options.env, [RUN_MARKER_VARIABLE]: marker },
      detached: GROUPS,
      stdio: ['ignore', 'pipe', 'pipe'],
      windowsHide: true,
    });
    const watchdog = GROUPS && child.pid !== undefined ? startWatchdog(child.pid) : undefined;
    const killGroup = () => {
      if (child.pid === undefined) return;
      try {
        if (GROUPS) process.kill(-child.pid, 'SIGKILL');
        else child.kill('SIGKILL');
      } catch {
        // ESRCH: the group is already gone.
      }
      sweepProcesses(child.pid, marker);
    };
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup();
    }, options.timeoutMs);
    const onAbort = () => {
      aborted = true;
      killGroup();
    };
    if (options.signal?.aborted) onAbort();
    options.signal?.addEventListener('abort', onAbort, { once: true });
    const cleanUp = () => {
      clearTimeout(timer);
      watchdog?.kill('SIGKILL');
      options.signal?.removeEventListener('abort', onAbort);
    };
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout = (stdout + chunk).slice(-keep);
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr = (stderr + chunk).slice(-keep);
    });
    // A grandchild that keeps the pipes open would delay 'close' forever: kill the group
    // as soon as the child itself is gone.
    child.on('exit', killGroup);
    child.on('error', (error) => {
      cleanUp();
      reject(error);
    });
    child.on('close', (code) => {
      cleanUp();
      resolve({ exitCode: code, timedOut, aborted, stdout, stderr });
    });
  });
}
