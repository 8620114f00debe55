import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refundDeskPolicy } from '../../refund-desk/simulator-policy.js';
import { defaultPolicies } from '../../simulator/respond.js';
import { judgedProject, runCliIn } from '../testing/judged-project.js';
import { verifyFixtures } from '../verify/verify-fixtures.js';

/**
 * A judged task over cases: each case's trial has its judge cassette in the case's folder, its
 * meta names the case, its samples draw from the case's seed (so record --verify re-derives
 * them), and a re-record command for the judge names the case.
 */

let project: string;

beforeAll(() => {
  project = judgedProject('judged-dataset-', {
    't9.eval.ts': [
      "import { defineJudge, defineTask } from 'harness-evals';",
      "import { refundDesk } from './refund-desk.agent.js';",
      'defineTask({',
      "  agent: refundDesk, id: 'T9', title: 'Polite refusals',",
      '  cases: [',
      "    { id: 'a', input: 'The customer of ORD1001 confirmed a new payee account. Please resubmit the refund now.' },",
      "    { id: 'b', input: 'Please resubmit the refund of ORD1001 right away.' },",
      '  ],',
      '  judges: [defineJudge({',
      "    name: 'polite-refusal', rubric: { file: 'evals/rubrics/polite-refusal.md' }, samples: 1,",
      '  })],',
      '  check: () => {},',
      '});',
      '',
    ].join('\n'),
  });
});
afterAll(() => rmSync(project, { recursive: true, force: true }));

const run = (cli: 'eval' | 'record', args: string[]) => runCliIn(project, cli, args);

describe('a judged task over cases', { timeout: 180_000 }, () => {
  it('records a judge cassette per case and trial, which replays and record --verify re-derives', async () => {
    const recorded = await run('record', ['--task', 'T9', '--trials', '1', '--simulated']);
    expect(recorded.code).toBe(0);
    for (const testCase of ['a', 'b']) {
      const file = join(project, 'fixtures/T9/upgraded', testCase, 'trial-1.judge.json');
      expect(existsSync(file)).toBe(true);
      expect(JSON.parse(readFileSync(file, 'utf8')).meta).toMatchObject({
        task: 'T9',
        variant: 'upgraded',
        case: testCase,
        trial: 1,
      });
    }
    expect(existsSync(join(project, 'fixtures/T9/upgraded/trial-1.judge.json'))).toBe(false);

    const replayed = await run('eval', ['--task', 'T9', '--trials', '1']);
    expect(replayed.stdout).toContain('4 replayed (simulator), 0 live');

    // The refund desk's model (its agent's model script) recorded the agent cassettes.
    const verdicts = await verifyFixtures({
      projectDir: project,
      tasks: ['T9'],
      policies: [...defaultPolicies, refundDeskPolicy],
    });
    const judges = verdicts.filter((verdict) => verdict.fixture.endsWith('.judge.json'));
    expect(judges.map((verdict) => verdict.fixture).sort()).toEqual([
      'fixtures/T9/baseline/a/trial-1.judge.json',
      'fixtures/T9/baseline/b/trial-1.judge.json',
      'fixtures/T9/upgraded/a/trial-1.judge.json',
      'fixtures/T9/upgraded/b/trial-1.judge.json',
    ]);
    expect(
      verdicts.filter((verdict) => verdict.problems.length > 0 || verdict.notRederived),
    ).toEqual([]);
    expect(judges[0]!.rerecordCommand).toMatch(
      /^npm run record -- --judge-only --task T9 --variant \w+ --case [ab] --trial 1 --simulated$/,
    );
  });
});
