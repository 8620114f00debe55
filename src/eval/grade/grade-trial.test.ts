import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RunResult } from '../../runtime/run-agent.js';
import { emptyStats } from '../../runtime/stop-rules.js';
import { listStaleFixtures } from '../report/trial-lists.js';
import { defineJudge } from '../spec/judge.js';
import { parseJudgeModel } from '../spec/judge-model.js';
import { readEvalSettings } from '../spec/settings.js';
import type { TaskDefinition } from '../spec/task-definition.js';
import type { TrialRecord } from '../spec/trial-record.js';
import { type GradeInput, gradeTrial } from './grade-trial.js';
import { tapedJudgeRequest } from './judge-call.js';
import { judgeCassettePath, writeJudgeCassette } from './judge-cassette.js';
import { buildJudgeRequest } from './judge-prompt.js';
import { matchTrajectory } from './trajectory.js';

let project: string;
beforeEach(() => {
  project = mkdtempSync(join(tmpdir(), 'grade-trial-'));
  mkdirSync(join(project, 'fixtures/T7/upgraded'), { recursive: true });
});
afterEach(() => rmSync(project, { recursive: true, force: true }));

const ANSWER = "It needs a human's approval, so it was not done.";
const stats = { ...emptyStats(), steps: 2, toolCalls: 1 };
const run = {
  runId: 'r',
  status: 'done',
  answer: ANSWER,
  messages: [],
  toolCalls: [{ step: 1, id: 'a', tool: 'get_order', input: { order_id: 'ORD1001' } }],
  stats,
  store: new Map(),
} as unknown as RunResult;
const record: TrialRecord = {
  suite: 'refund-desk',
  task: 'T7',
  title: 'Polite refusal',
  variant: 'upgraded',
  trial: 1,
  outcome: 'passed',
  messages: [],
  modelLatenciesMs: [],
  source: 'simulator',
};
const judge = defineJudge({ name: 'polite', rubric: '- is polite' });

function input(task: Partial<TaskDefinition>): GradeInput {
  return {
    task: {
      id: 'T7',
      prompt: 'Resubmit it.',
      agent: { suite: 'refund-desk' },
      ...task,
    } as TaskDefinition,
    variant: 'upgraded',
    trial: 1,
    settings: readEvalSettings({ HARNESS_EVAL_ROOT: project }),
    record,
    run,
    agentRecorded: false,
  };
}

/** A judge cassette for trial 1 whose one sample answers `content` (Messages API blocks). */
async function judgeAnswers(content: unknown[]) {
  const sonnet = parseJudgeModel('claude-sonnet-5', 'test');
  const request = buildJudgeRequest(
    judge,
    { prompt: 'Resubmit it.', answer: ANSWER, toolCalls: run.toolCalls, messages: [] },
    sonnet,
  );
  const body = {
    id: 'msg_1',
    type: 'message',
    role: 'assistant',
    model: 'claude-sonnet-5',
    content,
    stop_reason: 'tool_use',
    usage: { input_tokens: 100, output_tokens: 20 },
  };
  await writeJudgeCassette(
    judgeCassettePath(join(project, 'fixtures'), 'T7', 'upgraded', 1),
    {
      version: 1,
      kind: 'judge',
      meta: {
        suite: 'refund-desk',
        task: 'T7',
        variant: 'upgraded',
        trial: 1,
        recordedAt: '2026-12-01T00:00:00.000Z',
        source: 'simulator',
        host: '127.0.0.1:4010',
      },
      judgments: [
        {
          check: 'polite',
          model: 'claude-sonnet-5',
          key: request.key,
          rubricHash: request.rubricHash,
          promptHash: request.promptHash,
          samples: [
            {
              request: tapedJudgeRequest(request),
              response: { status: 200, headers: {}, body },
              latencyMs: 120,
            },
          ],
        },
      ],
    },
    [],
  );
}
const verdict = (label: string, score: number) => ({
  type: 'tool_use',
  id: 'toolu_1',
  name: 'submit_verdict',
  input: { label, score, reasoning: 'because' },
});

describe('gradeTrial: the check and its scores', () => {
  it('records the scores a check returns; one below its threshold fails the trial, named', async () => {
    const graded = await gradeTrial(
      input({
        check: () => [
          { name: 'a', score: 1 },
          { name: 'b', score: 0.5, threshold: 0.75 },
        ],
      }),
    );
    expect(graded.record.outcome).toBe('failed');
    expect(graded.record.scores?.map((score) => [score.name, score.passed])).toEqual([
      ['a', true],
      ['b', false],
    ]);
    expect(graded.record.messages).toEqual(["score 'b' 0.50 does not pass (threshold 0.75)"]);
  });

  it('keeps a score recorded with run.score when an assertion after it fails', async () => {
    const graded = await gradeTrial(
      input({
        check: ({ toolCalls, score }) => {
          score(matchTrajectory(toolCalls, [{ tool: 'get_order' }], { name: 'lookups' }));
          const error = new Error('expected the answer to say Overdue');
          error.name = 'AssertionError';
          throw error;
        },
      }),
    );
    expect(graded.record.outcome).toBe('failed');
    expect(graded.record.scores).toMatchObject([{ name: 'lookups', value: 1, passed: true }]);
  });

  it('a trajectory that does not pass fails the trial with its first diverging step', async () => {
    const graded = await gradeTrial(
      input({
        check: ({ toolCalls, score }) => {
          score(matchTrajectory(toolCalls, [{ tool: 'get_payment' }], { name: 'lookups' }));
        },
      }),
    );
    expect(graded.record.messages[0]).toBe(
      'score \'lookups\' 0.00 does not pass: step 1 (model turn 1): expected get_payment(any arguments), got get_order{"order_id":"ORD1001"}',
    );
  });

  it('refuses two scores of one name in a trial: n would count it twice', async () => {
    const graded = await gradeTrial(
      input({
        check: ({ score }) => {
          score(1);
          score(0.5);
        },
      }),
    );
    expect(graded.record.outcome).toBe('errored');
    expect(graded.record.messages[0]).toBe(
      "a second score named 'check': name each score of a trial once ({ name: '...' })",
    );
  });

  it.each([
    [() => ({ score: 1.5 }), 'the check returned a score of 1.5 is not a number from 0 to 1'],
    [
      () => 'yes',
      "the check returned 'yes' (text): return nothing (assert with expect), true or false, or a score { score, threshold }",
    ],
    [() => ({ score: 1, name: 'has space' }), 'the score name "has space" is invalid'],
  ])('a broken return errors the trial: %s', async (check, message) => {
    const graded = await gradeTrial(input({ check: check as never }));
    expect(graded.record.outcome).toBe('errored');
    expect(graded.record.messages[0]).toContain(message);
  });
});

describe('gradeTrial: judged checks', () => {
  it('a judge pass passes the trial, with its verdicts and its mean score beside the check', async () => {
    await judgeAnswers([verdict('pass', 0.9)]);
    const graded = await gradeTrial(input({ check: () => {}, judges: [judge] }));
    expect(graded.record.outcome).toBe('passed');
    expect(graded.record.judgments).toMatchObject([
      { check: 'polite', verdict: 'pass', calls: 'replayed', source: 'simulator' },
    ]);
    expect(graded.record.scores).toMatchObject([{ name: 'polite', value: 0.9, source: 'judge' }]);
    expect(graded.record.judgeCassetteHash).toMatch(/^sha256:[0-9a-f]{64}$/);
  });

  it("a judge's long reasoning is cut in the trial's message; the record keeps it whole", async () => {
    const long = {
      ...verdict('fail', 0),
      input: { label: 'fail', score: 0, reasoning: 'x'.repeat(2000) },
    };
    await judgeAnswers([long]);
    const graded = await gradeTrial(input({ check: () => {}, judges: [judge] }));
    expect(graded.record.messages[0]!.length).toBeLessThan(650);
    expect(graded.record.messages[0]).toMatch(/x…$/);
    expect(graded.record.judgments![0]!.samples[0]!.reasoning).toHaveLength(2000);
  });

  it('a label of pass with a score under the threshold is a fail: both must say pass', async () => {
    await judgeAnswers([verdict('pass', 0.2)]);
    const graded = await gradeTrial(input({ check: () => {}, judges: [judge] }));
    expect(graded.record.outcome).toBe('failed');
    expect(graded.record.messages[0]).toMatch(/^judge 'polite' says fail \(0 of 1 votes pass/);
  });

  it('a judge error is its own outcome when the checks passed, never a pass', async () => {
    await judgeAnswers([{ type: 'text', text: 'VERDICT: pass' }]);
    const graded = await gradeTrial(input({ check: () => {}, judges: [judge] }));
    expect(graded.record.outcome).toBe('judge_error');
    expect(graded.record.messages).toEqual([
      'judge \'polite\' (claude-sonnet-5, sample 1): no tool call: the judge answered with text only, "VERDICT: pass"',
    ]);
    expect(graded.error).toBeInstanceOf(Error);
  });

  it('a failed check stays failed when the judge also errs, and says both', async () => {
    await judgeAnswers([verdict('pass', 7)]);
    const graded = await gradeTrial(input({ check: () => false, judges: [judge] }));
    expect(graded.record.outcome).toBe('failed');
    expect(graded.record.messages[0]).toBe('the check returned false');
    expect(graded.record.messages[1]).toMatch(/^judge 'polite' .*invalid verdict: score/);
  });

  it('a missing judge cassette is a missing fixture with the re-record command, never a verdict', async () => {
    const graded = await gradeTrial(input({ check: () => {}, judges: [judge] }));
    expect(graded.record.outcome).toBe('missing');
    expect(graded.skip).toBeDefined();
    expect(graded.record.staleCassette).toBe('judge');
    const [stale] = listStaleFixtures([graded.record]);
    expect(stale?.fixture).toBe('fixtures/T7/upgraded/trial-1.judge.json');
    expect(stale?.rerecordCommand).toBe(
      'npm run record -- --judge-only --task T7 --variant upgraded --trial 1 --simulated',
    );
  });
});
