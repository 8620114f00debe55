import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { readCassette } from '../replay/cassette-file.js';
import { runEvals } from './run/run-evals.js';
import type { TrialRecord } from './spec/trial-record.js';

// Task declarations run for real: a throwaway project, its eval files loaded by vitest from the
// build in dist/ (as `npm run eval` does), recorded offline against a model script.

const root = fileURLToPath(new URL('../..', import.meta.url));

const projects: string[] = [];
afterEach(() => {
  for (const dir of projects.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/**
 * An adapter agent per suite: it asks the model once and answers with its text. It ends with
 * status 'error' (a run that failed) while the project holds a file named `fail-now`.
 */
const ECHO_AGENT = `import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { defineAgent, defineModelScript } from 'harness-evals';

export const echoAgent = (suite: string) =>
  defineAgent({
    suite,
    variants: ['v1'],
    modelScript: defineModelScript({ turns: [{ text: \`answer from \${suite}\` }] }),
    run: async ({ fetch, baseURL, apiKey, model, prompt, projectDir }) => {
      const response = await fetch(\`\${baseURL}/v1/messages\`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': apiKey, 'anthropic-version': '2023-06-01' },
        body: JSON.stringify({ model, max_tokens: 64, messages: [{ role: 'user', content: prompt }] }),
      });
      const body = (await response.json()) as { content: Array<{ text?: string }> };
      const answer = body.content.map((block) => block.text ?? '').join('');
      if (existsSync(join(projectDir, 'fail-now'))) {
        return { answer, status: 'error' as const, detail: 'the order service returned 503' };
      }
      return { answer };
    },
  });
`;

/** A project with `evals/echo.agent.ts` and the given eval files, and no fixtures yet. */
function projectWith(evalFiles: Record<string, string>, config?: string): string {
  const project = mkdtempSync(join(tmpdir(), 'define-task-runs-'));
  projects.push(project);
  for (const name of ['dist', 'node_modules']) symlinkSync(join(root, name), join(project, name));
  cpSync(join(root, 'package.json'), join(project, 'package.json'));
  if (config === undefined) {
    cpSync(join(root, 'vitest.evals.config.ts'), join(project, 'vitest.evals.config.ts'));
  } else {
    writeFileSync(join(project, 'vitest.evals.config.ts'), config);
  }
  mkdirSync(join(project, 'evals'));
  mkdirSync(join(project, 'reports'));
  writeFileSync(join(project, 'evals/echo.agent.ts'), ECHO_AGENT);
  for (const [name, text] of Object.entries(evalFiles)) {
    writeFileSync(join(project, 'evals', name), text);
  }
  return project;
}

const taskFile = (suite: string, id: string, check = '() => {}', extra = '') =>
  [
    "import { echoAgent } from './echo.agent.js';",
    "import { defineTask } from 'harness-evals';",
    '',
    `defineTask({ agent: echoAgent('${suite}'), id: '${id}', title: '${suite} task', prompt: 'Say hello.', ${extra}`,
    `  check: ${check} });`,
    '',
  ].join('\n');

const run = (project: string, mode: 'record' | 'replay', trials = 1) =>
  runEvals({
    projectDir: project,
    mode,
    trials,
    ...(mode === 'record' && { source: 'simulator' as const }),
    writeReports: false,
    log: () => {},
  });

const suiteOfCassette = async (project: string) =>
  (await readCassette(join(project, 'fixtures/X1/v1/trial-1.json'))).meta.suite;

const byTrialNumber = (records: readonly TrialRecord[]) =>
  [...records].sort((a, b) => a.trial - b.trial);

describe('the same task id in two declarations', () => {
  it('refuses the second at load time, naming both suites, both files and the fix', {
    timeout: 120_000,
  }, async () => {
    const project = projectWith({
      'alpha.eval.ts': taskFile('alpha', 'X1'),
      'beta.eval.ts': taskFile('beta', 'X1'),
    });
    const { report, records } = await run(project, 'record');
    // Each suite would have written fixtures/X1/v1/trial-1.json over the other's. Files load
    // one after another, so the first one's trials ran before the second was declared. Which
    // file is first is vitest's choice (its results cache, shared through node_modules).
    expect(records.map((record) => record.outcome)).toEqual(['passed']);
    expect(['alpha', 'beta']).toContain(records[0]?.suite);
    expect(await suiteOfCassette(project)).toBe(records[0]?.suite);
    expect(report.gate.passed).toBe(false);
    const reasons = report.gate.reasons.join('\n');
    expect(reasons).toMatch(/task id 'X1' is declared twice/);
    expect(reasons).toContain('suite alpha (evals/alpha.eval.ts');
    expect(reasons).toContain('suite beta (evals/beta.eval.ts');
    expect(reasons).toMatch(/rename one of them/);
  });

  it('refuses ids that differ only in case: they share a fixtures folder on macOS and Windows', {
    timeout: 120_000,
  }, async () => {
    const project = projectWith({
      'upper.eval.ts': taskFile('alpha', 'X1'),
      'lower.eval.ts': taskFile('alpha', 'x1'),
    });
    const { report } = await run(project, 'record');
    expect(report.gate.passed).toBe(false);
    expect(report.gate.reasons.join('\n')).toMatch(/task id 'x1' is declared twice/i);
  });

  it('is refused by the reporter when the files run isolated (no shared registry)', {
    timeout: 120_000,
  }, async () => {
    const config = [
      "import { defineConfig } from 'vitest/config';",
      'export default defineConfig({',
      "  resolve: { alias: [{ find: /^harness-evals$/, replacement: new URL('./dist/index.js', import.meta.url).pathname }] },",
      "  test: { include: ['evals/**/*.eval.ts'], pool: 'forks', isolate: true, fileParallelism: false, testTimeout: 120_000 },",
      '});',
      '',
    ].join('\n');
    const project = projectWith(
      {
        'alpha.eval.ts': taskFile(
          'alpha',
          'X1',
          '() => {}',
          "floors: [{ variant: 'v1', passAt1: 0 }],",
        ),
        'beta.eval.ts': taskFile(
          'beta',
          'X1',
          '() => {}',
          "floors: [{ variant: 'v1', passAt1: 1 }],",
        ),
      },
      config,
    );
    const { report, records } = await run(project, 'record');
    expect(report.gate.passed).toBe(false);
    expect(report.gate.reasons.join('\n')).toMatch(
      /task id 'X1' is declared in suites alpha and beta.*rename one/,
    );
    // The second suite to record finds the first one's cassette and keeps it.
    const [first, second] = [...records].sort((a, b) => a.outcome.localeCompare(b.outcome));
    expect([first?.outcome, second?.outcome]).toEqual(['errored', 'passed']);
    expect(first?.messages[0]).toBe(
      `fixtures/X1/v1/trial-1.json was recorded for suite ${second?.suite}'s task X1, not suite ${first?.suite}'s: two suites declare task id 'X1' and share fixtures/X1/, so nothing was recorded; rename one of them`,
    );
    expect(await suiteOfCassette(project)).toBe(second?.suite);
    // Replaying it for the other suite is refused too: the cassette's suite is not the trial's.
    const replayed = await run(project, 'replay');
    expect(replayed.records.map((record) => record.outcome).sort()).toEqual(['passed', 'stale']);
  });
});

describe("a task's check", () => {
  it('fails the trial when it returns false or a promise of false, and errors on other values', {
    timeout: 120_000,
  }, async () => {
    const verdicts = `({ trial }) => {
      if (trial === 1) return false;
      if (trial === 2) return Promise.resolve(false);
      if (trial === 3) return undefined;
      if (trial === 4) return true;
      return 0 as unknown as boolean;
    }`;
    const project = projectWith({ 'c1.eval.ts': taskFile('alpha', 'C1', verdicts) });
    const { records } = await run(project, 'record', 5);
    const outcomes = byTrialNumber(records).map((record) => [
      record.trial,
      record.outcome,
      record.messages[0] ?? '',
    ]);
    expect(outcomes).toEqual([
      [1, 'failed', 'the check returned false'],
      [2, 'failed', 'the check returned false'],
      [3, 'passed', ''],
      [4, 'passed', ''],
      [
        5,
        'errored',
        'the check returned 0 (a number): return nothing (assert with expect), true or false, or a score { score, threshold }',
      ],
    ]);
  });
});

describe('an adapter run that ends with status error', () => {
  it('is an errored trial in replay, with its detail, as it is when recording', {
    timeout: 120_000,
  }, async () => {
    const project = projectWith({ 's1.eval.ts': taskFile('alpha', 'S1') });
    const recorded = await run(project, 'record');
    expect(recorded.records.map((record) => record.outcome)).toEqual(['passed']);
    expect(readdirSync(join(project, 'fixtures/S1/v1'))).toEqual(['trial-1.json']);

    writeFileSync(join(project, 'fail-now'), '');
    const replayed = await run(project, 'replay');
    expect(replayed.records.map((record) => [record.outcome, record.status])).toEqual([
      ['errored', 'error'],
    ]);
    expect(replayed.records[0]?.messages).toEqual([
      'the run ended with status error: the order service returned 503',
    ]);
    expect(replayed.report.gate.passed).toBe(false);

    const rerecorded = await run(project, 'record');
    expect(rerecorded.records.map((record) => record.outcome)).toEqual(['errored']);
    expect(rerecorded.records[0]?.messages[0]).toContain('the order service returned 503');
  });
});
