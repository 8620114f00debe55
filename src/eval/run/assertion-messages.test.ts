import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  evalIn,
  projectWith,
  readReport,
  removeEvalProjects,
  writeEval,
} from '../testing/hostile-eval-project.js';

afterEach(() => {
  vi.restoreAllMocks();
  removeEvalProjects();
});

// Issue 33: `expect(answer).toContain(...)` said "expected 'The refund for order ORD3003 is
// still…' to contain ...": the answer cut at 40 characters, so a reviewer could not see why.
describe('an assertion message about an answer', () => {
  it('shows the answer up to 200 characters, not 40', { timeout: 120_000 }, async () => {
    const text = `${'0123456789'.repeat(15)}END`;
    const project = projectWith(writeEval(`expect('${text}').toContain('absent');`));
    const { code, stdout, stderr } = await evalIn(project, ['--task', 'T2', '--trials', '1']);
    expect(code, stdout.slice(0, 3000) + stderr.slice(0, 3000)).toBe(0);
    const report = JSON.parse(readReport(project, 'json'));
    const message: string = report.failures[0].messages[0];
    expect(message).toContain(`${'0123456789'.repeat(15)}END`);
  });

  it('shows as much of a text a check returned instead of a verdict', {
    timeout: 120_000,
  }, async () => {
    const text = `${'0123456789'.repeat(15)}END`;
    const project = projectWith(writeEval(`return '${text}';`));
    const { code, stdout, stderr } = await evalIn(project, ['--task', 'T2', '--trials', '1']);
    expect(code, stdout.slice(0, 3000) + stderr.slice(0, 3000)).toBe(1);
    const report = JSON.parse(readReport(project, 'json'));
    expect(JSON.stringify(report)).toContain(`the check returned '${text}' (text)`);
  });
});
