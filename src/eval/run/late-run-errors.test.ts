import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  evalIn,
  KEY,
  projectWith,
  readReport,
  removeEvalProjects,
  writeEval,
} from '../testing/hostile-eval-project.js';

// Vitest ends its worker thread a few ms after the last eval file's last test: a timer a
// trial left behind never fired, and an error raised in those few ms reached the main thread
// after the run's errors were handed to the reporter. Either way the gate passed.

afterEach(() => {
  vi.restoreAllMocks();
  removeEvalProjects();
});

const gateOf = (project: string) =>
  JSON.parse(readReport(project, 'json')).gate as { passed: boolean; reasons: string[] };

describe('errors after the last trial fail the eval gate, named', () => {
  it('a timer that throws 1 s after the check', { timeout: 120_000 }, async () => {
    const project = projectWith(
      writeEval(`setTimeout(() => { throw new Error('late by a second, key ${KEY}'); }, 1000);`),
    );
    const { code, stdout, stderr } = await evalIn(project, ['--task', 'T2', '--trials', '1']);
    expect(code, stdout + stderr).toBe(1);
    expect(stdout).toContain('gate: FAILED (1 reason above)');
    const gate = gateOf(project);
    expect(gate.passed).toBe(false);
    expect(gate.reasons).toHaveLength(1);
    expect(gate.reasons[0]).toMatch(
      /^uncaught exception during the run, 2 times: late by a second, key sk-ant-\[redacted\] \(thrown at Timeout\._onTimeout \(evals\/t2-hostile\.eval\.ts:11:\d+\), in evals\/t2-hostile\.eval\.ts\)\. .*await or catch it/,
    );
    expect(stdout).not.toContain(KEY);
  });

  it('a promise a timer rejects 50 ms later, and an exception three immediates later', {
    timeout: 120_000,
  }, async () => {
    const project = projectWith(
      writeEval(
        "setTimeout(() => { Promise.reject(new Error('rejected 50 ms later')); }, 50); setImmediate(() => setImmediate(() => setImmediate(() => { throw new Error('thrown three turns later'); })));",
      ),
    );
    const { code, stdout, stderr } = await evalIn(project, ['--task', 'T2', '--trials', '1']);
    expect(code, stdout + stderr).toBe(1);
    const reasons = gateOf(project).reasons.sort();
    expect(reasons).toHaveLength(2);
    expect(reasons[0]).toMatch(/^uncaught exception during the run, 2 times: thrown three turns/);
    expect(reasons[1]).toMatch(/^unhandled rejection during the run, 2 times: rejected 50 ms/);
  });

  it('a timer still pending after the wait: named with the trials that set it', {
    timeout: 120_000,
  }, async () => {
    // An unref'd timer does not keep a Node process alive: not waited for, not a reason.
    const project = projectWith(
      writeEval(
        "setTimeout(() => { throw new Error('an hour later'); }, 3_600_000); setTimeout(() => { throw new Error('unref'); }, 3_600_000).unref();",
      ),
    );
    const { code, stdout, stderr } = await evalIn(project, ['--task', 'T2', '--trials', '1']);
    expect(code, stdout + stderr).toBe(1);
    expect(gateOf(project).reasons).toEqual([
      expect.stringMatching(
        /^evals\/t2-hostile\.eval\.ts: refund-desk > T2 Order not found: 2 timers set by T2 baseline trial 1 and T2 upgraded trial 1 were still pending 2 s after its last trial; .*clear each \(clearTimeout, clearInterval\) or unref\(\) it in the agent, tool or check that sets it$/,
      ),
    ]);
  });

  it('an error raised while vitest ends the worker, after the run has ended', {
    timeout: 120_000,
  }, async () => {
    // Vitest's own clean-up step in the worker (internal API) runs once the worker said its files
    // were done. An error thrown there 300 ms later reaches the main thread after the run's end
    // was reported (on a machine loaded enough to take longer, before it: the gate fails too).
    const project = projectWith(
      writeEval(
        "(globalThis as any).__vitest_worker__.onCleanup(async () => { setTimeout(() => { throw new Error('thrown at the worker end'); }, 300); await new Promise((resolve) => setTimeout(resolve, 350)); });",
      ),
    );
    const { code, stdout, stderr } = await evalIn(project, ['--task', 'T2', '--trials', '1']);
    expect(code, stdout + stderr).toBe(1);
    expect(gateOf(project).reasons).toEqual([
      expect.stringMatching(
        /^uncaught exception during the run, \d times?: thrown at the worker end/,
      ),
    ]);
  });
});
