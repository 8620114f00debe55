import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import { createVirtualClock } from '../../core/clock.js';
import type { RunState, ToolCallRecord, ToolDefinition } from '../../runtime/types.js';
import { createSandbox, type Sandbox } from '../sandbox.js';

/**
 * Test support: a fresh sandbox (and a sibling "outside" directory holding a canary
 * secret) per test, removed after it.
 */
export const CANARY = 'CANARY-SECRET-7f3a9c: this line lives outside the sandbox';

export interface Playground {
  sandbox: Sandbox;
  /** A directory next to the sandbox, outside it, with secret.txt holding the canary. */
  outside: string;
}

export function usePlaygrounds(): () => Playground {
  const cleanups: Array<() => void> = [];
  afterEach(() => {
    for (const cleanup of cleanups.splice(0)) cleanup();
  });
  return () => {
    const parent = mkdtempSync(join(tmpdir(), 'debug-agent-test-'));
    cleanups.push(() => rmSync(parent, { recursive: true, force: true }));
    const sandbox = createSandbox({ parent });
    const outside = mkdtempSync(join(parent, 'outside-'));
    return { sandbox, outside };
  };
}

/** A run state for calling a tool's execute directly. */
export function fakeRun(): RunState {
  const history: ToolCallRecord[] = [];
  return {
    runId: 'test',
    step: 1,
    mode: 'unattended',
    clock: createVirtualClock({ start: 0 }),
    history,
    store: new Map(),
  };
}

/** Call a tool's execute as the pipeline would, without gates. */
export async function execute(
  tool: ToolDefinition,
  args: Record<string, unknown>,
  run: RunState = fakeRun(),
  signal: AbortSignal = new AbortController().signal,
): Promise<unknown> {
  return tool.execute(args as never, {
    signal,
    clock: run.clock,
    run,
  });
}

/** True while the process exists and is not a zombie waiting to be reaped. */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    // Linux: an orphan killed here may stay a zombie if PID 1 does not reap it.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return true;
  }
}

/**
 * Wait (in real time) until none of the pids is alive, or give up after `ms`. Killed
 * processes go within milliseconds; the generous default only bounds a real failure.
 */
export async function allGone(pids: readonly number[], ms = 20_000): Promise<boolean> {
  const deadline = performance.now() + ms;
  while (performance.now() < deadline) {
    if (!pids.some(isAlive)) return true;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return !pids.some(isAlive);
}
