import { afterEach, describe, expect, it, vi } from 'vitest';

const MAX_REPORT_MESSAGE_CHARS = 20_000;

import {
  evalIn,
  projectWith,
  readReport,
  removeEvalProjects,
  writeEval,
} from '../testing/hostile-eval-project.js';

// A 1 MB unbroken word in one trial's message (or in a load error) took the whole eval down with
// no report written: the terminal's word wrap cut a long word in a loop that copied the rest of
// it every 100 columns, and every cut kept its copy alive (gigabytes, then V8 out of memory).

afterEach(() => {
  vi.restoreAllMocks();
  removeEvalProjects();
});

const WORD = "'x'.repeat(1_000_000)";

describe('a 1 MB word in a message', () => {
  it('in a failed check: the run ends, the reports are written, the message is cut', {
    timeout: 120_000,
  }, async () => {
    const project = projectWith(writeEval(`expect.fail('word ' + ${WORD});`));
    const { code, stdout, stderr } = await evalIn(project, ['--task', 'T2', '--trials', '1']);
    expect(code, stdout.slice(0, 3000) + stderr.slice(0, 3000)).toBe(0);
    expect(stdout).toContain('gate: passed');
    // A few lines on the terminal, not ten thousand.
    expect(stdout.split('\n').length).toBeLessThan(200);
    expect(stdout).toContain('more lines: all of it in reports/latest.md');
    const report = JSON.parse(readReport(project, 'json'));
    const message: string = report.failures[0].messages[0];
    expect(message.length).toBeLessThan(MAX_REPORT_MESSAGE_CHARS + 100);
    expect(message).toMatch(/\[truncated: 20000 of 100000\d characters kept\]$/);
    expect(readReport(project, 'md').length).toBeLessThan(200_000);
  });

  it('in an eval file that fails to load: the gate fails, naming it, and the reports are written', {
    timeout: 120_000,
  }, async () => {
    const project = projectWith(writeEval('})();'));
    // The file throws at import: replace it with one whose error message is the huge word.
    const { writeFileSync } = await import('node:fs');
    writeFileSync(`${project}/evals/t2-hostile.eval.ts`, `throw new Error('load ' + ${WORD});\n`);
    const { code, stdout } = await evalIn(project, ['--trials', '1']);
    expect(code).toBe(1);
    expect(stdout.split('\n').length).toBeLessThan(200);
    const { gate } = JSON.parse(readReport(project, 'json'));
    expect(gate.passed).toBe(false);
    expect(gate.reasons.join('\n')).toMatch(
      /load x{100}.*\[truncated: 20000 of \d+ characters kept\]/s,
    );
  });
});
