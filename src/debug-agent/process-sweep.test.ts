import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runChild } from './child-process.js';
import { CAN_SWEEP } from './process-sweep.js';
import { allGone, isAlive, usePlaygrounds } from './testing/playgrounds.js';

const playground = usePlaygrounds();

/** A script for `node -e` that starts `node -e <inner>` with the given spawn options. */
function spawnScript(inner: string, options: string): string {
  return `require('child_process').spawn(process.execPath, ['-e', ${JSON.stringify(inner)}], ${options})`;
}

/** A script that records its pid in `file` (atomically) and then runs forever. */
function recordPidAndHang(file: string): string {
  return `const fs = require('fs'); fs.writeFileSync(${JSON.stringify(`${file}.tmp`)}, String(process.pid)); fs.renameSync(${JSON.stringify(`${file}.tmp`)}, ${JSON.stringify(file)}); setInterval(() => {}, 1000);`;
}

/** Wait for a pid file without a tight budget: its writer may start slowly on a busy machine. */
async function pidFrom(file: string): Promise<number> {
  const deadline = performance.now() + 60_000;
  while (!existsSync(file) && performance.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return Number(readFileSync(file, 'utf8'));
}

const run = (cwd: string, script: string, signal?: AbortSignal) =>
  runChild({
    command: process.execPath,
    args: ['-e', script],
    cwd,
    env: {},
    timeoutMs: 120_000,
    ...(signal ? { signal } : {}),
  });

describe.runIf(CAN_SWEEP)(
  'runChild on Linux: no process outlives the call',
  { timeout: 180_000 },
  () => {
    it('kills a grandchild that left the process group with setsid (detached)', async () => {
      const { sandbox } = playground();
      const pidFile = join(sandbox.root, 'setsid.pid');
      // The child starts a detached (setsid) grandchild, waits until it has written its pid, exits.
      const script = `${spawnScript(recordPidAndHang(pidFile), "{ detached: true, stdio: 'ignore' }")}.unref();
      const wait = () => require('fs').existsSync(${JSON.stringify(pidFile)}) ? process.exit(0) : setTimeout(wait, 10); wait();`;
      const result = await run(sandbox.root, script);
      expect(result.exitCode).toBe(0);
      const pid = await pidFrom(pidFile);
      expect(await allGone([pid]), `setsid grandchild ${pid} outlived runChild`).toBe(true);
    });

    it('kills a double-forked, setsid great-grandchild that was reparented away', async () => {
      const { sandbox } = playground();
      const pidFile = join(sandbox.root, 'orphan.pid');
      const middle = `${spawnScript(recordPidAndHang(pidFile), "{ detached: true, stdio: 'ignore' }")}.unref();`;
      const script = `${spawnScript(middle, "{ detached: true, stdio: 'ignore' }")};
      const wait = () => require('fs').existsSync(${JSON.stringify(pidFile)}) ? process.exit(0) : setTimeout(wait, 10); wait();`;
      await run(sandbox.root, script);
      const pid = await pidFrom(pidFile);
      expect(await allGone([pid]), `orphan ${pid} outlived runChild`).toBe(true);
    });

    it('kills a clean-environment descendant of a setsid process', async () => {
      const { sandbox } = playground();
      const pidFile = join(sandbox.root, 'clean.pid');
      // The detached middle process keeps running and starts a child without the marker.
      const middle = `${spawnScript(recordPidAndHang(pidFile), "{ env: {}, stdio: 'ignore' }")}; setInterval(() => {}, 1000);`;
      const script = `${spawnScript(middle, "{ detached: true, stdio: 'ignore' }")}.unref();
      const wait = () => require('fs').existsSync(${JSON.stringify(pidFile)}) ? process.exit(0) : setTimeout(wait, 10); wait();`;
      await run(sandbox.root, script);
      const pid = await pidFrom(pidFile);
      expect(await allGone([pid]), `clean-env descendant ${pid} outlived runChild`).toBe(true);
    });

    it('returns on abort although a setsid grandchild holds the output pipe open', async () => {
      const { sandbox } = playground();
      const pidFile = join(sandbox.root, 'holder.pid');
      // stdio 'inherit': the grandchild holds the child's stdout, so 'close' waits for it.
      const script = `${spawnScript(recordPidAndHang(pidFile), "{ detached: true, stdio: 'inherit' }")}; console.log('started'); setInterval(() => {}, 1000);`;
      const controller = new AbortController();
      const running = run(sandbox.root, script, controller.signal);
      const pid = await pidFrom(pidFile);
      expect(isAlive(pid)).toBe(true);
      controller.abort();
      const result = await running;
      expect(result).toMatchObject({ aborted: true, stdout: 'started\n' });
      expect(await allGone([pid]), `pipe holder ${pid} outlived runChild`).toBe(true);
    });
  },
);
