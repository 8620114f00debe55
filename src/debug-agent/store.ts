import type { RunState } from '../index.js';

/** A file the agent wrote in one run (content as written). */
export interface SandboxWrite {
  path: string;
  content: string;
}

/** One run_test call: which files ran and how it ended. */
export interface TestRun {
  paths: string[];
  passed: boolean;
  timedOut: boolean;
  /** Exit code per file, in order (null when killed). */
  exitCodes: Array<number | null>;
}

export const WRITES_KEY = 'debug_agent.writes';
export const TEST_RUNS_KEY = 'debug_agent.test_runs';

/**
 * What the run wrote, oldest first. Checks read this instead of the sandbox, which is
 * gone by the time a trial's checks run.
 */
export function sandboxWritesOf(store: ReadonlyMap<string, unknown>): SandboxWrite[] {
  return (store.get(WRITES_KEY) as SandboxWrite[] | undefined) ?? [];
}

/** The run_test calls of a run that got as far as starting the tests, oldest first. */
export function testRunsOf(store: ReadonlyMap<string, unknown>): TestRun[] {
  return (store.get(TEST_RUNS_KEY) as TestRun[] | undefined) ?? [];
}

export function recordWrite(run: RunState, write: SandboxWrite): void {
  run.store.set(WRITES_KEY, [...sandboxWritesOf(run.store), write]);
}

export function recordTestRun(run: RunState, testRun: TestRun): void {
  run.store.set(TEST_RUNS_KEY, [...testRunsOf(run.store), testRun]);
}
