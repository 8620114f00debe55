import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const CHILD = fileURLToPath(new URL('./testing/scratch-child.ts', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'bench-scratch-'));
const measuredPids: number[] = [];
afterAll(() => {
  // Only when the code under test failed to: no test leaves a process behind.
  for (const pid of measuredPids) if (alive(pid)) process.kill(-pid, 'SIGKILL');
  rmSync(work, { recursive: true, force: true });
});

let runs = 0;
function start(how: string) {
  runs += 1;
  const report = join(work, `run-${runs}.json`);
  const child = spawn(process.execPath, ['--import', 'tsx', CHILD, how, report], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const ended = new Promise<{ code: number | null; stderr: string }>((resolve) =>
    child.on('close', (code) => resolve({ code, stderr })),
  );
  return { child, report, ended };
}

const until = async (done: () => boolean) => {
  while (!done()) await new Promise((resolve) => setTimeout(resolve, 20));
};
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return !readFileSync(`/proc/${pid}/stat`, 'utf8').includes(') Z');
  } catch {
    return false;
  }
}
const dirsOf = (report: string) => JSON.parse(readFileSync(report, 'utf8')) as string[];

describe('scratch directories and measured runs, on every way out of a bench script', () => {
  it.each([
    ['return', 0, ''],
    ['throw', 1, 'scratch-child: a measured run failed'],
    ['usage', 2, 'scratch-child: --rounds 0: give a whole number'],
    ['exit', 3, ''],
  ])(
    '%s: exit %i, and its scratch directories are gone',
    async (how, code, message) => {
      const { report, ended } = start(how);
      const end = await ended;
      expect(end.code).toBe(code);
      expect(end.stderr.trim()).toBe(message);
      const dirs = dirsOf(report);
      expect(dirs).toHaveLength(2);
      for (const dir of dirs) expect(existsSync(dir), dir).toBe(false);
    },
    60_000,
  );

  it.each([
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const)(
    '%s while a measured run is running: that run is ended, the directories removed, exit %i',
    async (signal, code) => {
      const { child, report, ended } = start('wait');
      await until(
        () => existsSync(`${report}.pid`) && readFileSync(`${report}.pid`, 'utf8') !== '',
      );
      const measured = Number(readFileSync(`${report}.pid`, 'utf8'));
      measuredPids.push(measured);
      expect(alive(measured)).toBe(true);
      child.kill(signal);
      const end = await ended;
      expect(end.code).toBe(code);
      expect(end.stderr).toContain(
        `stopped by ${signal}: temporary directories removed, measured runs ended`,
      );
      for (const dir of dirsOf(report)) expect(existsSync(dir), dir).toBe(false);
      await until(() => !alive(measured));
    },
    60_000,
  );
});
