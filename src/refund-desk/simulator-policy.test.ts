import { describe, expect, it } from 'vitest';
import { type DriveOptions, driveConversation } from '../simulator/drive.js';
import {
  BASELINE_SYSTEM,
  FULL_ACCOUNT,
  REFUND_DESK_TOOLS,
  refundDeskScript,
  upgradedSystem,
} from '../simulator/testing/refund-desk.js';
import { createRefundDeskPolicy } from './simulator-policy.js';

const PROMPTS = {
  T1: "Why hasn't the refund for order ORD1001 arrived yet?",
  T2: 'How far along is the refund for order ORD3003?',
  T3: 'Has the refund for order ORD4004 arrived?',
  T4: 'How is the refund for order ORD5005 going?',
  T5: 'The customer of ORD1001 confirmed a new payee account. Please resubmit the refund.',
  T6: 'Where is the refund record for order ORD2002?',
} as const;
type TaskId = keyof typeof PROMPTS;

/** The refund desk without the "misses a rule" habit, so rule checks are exact. */
const ruleAbiding = [createRefundDeskPolicy({ missRule: 0 })];
const SEEDS = [1, 2, 3, 4, 5, 6];

function play(
  task: TaskId,
  variant: 'baseline' | 'upgraded',
  trial: number,
  extra: Partial<DriveOptions> = {},
) {
  return driveConversation({
    prompt: PROMPTS[task],
    system: variant === 'baseline' ? BASELINE_SYSTEM : upgradedSystem(),
    tools: REFUND_DESK_TOOLS,
    run: refundDeskScript(),
    seed: `${task}/${variant}/${trial}`,
    policies: ruleAbiding,
    ...extra,
  });
}

const firstSentence = (text: string) => text.split(/(?<=[.?!])\s/)[0] ?? '';

describe('refund-desk policy: business rules', () => {
  it.each(SEEDS)('ORD1001 upgraded (trial %i): "Overdue" first, masked account, yuan', (trial) => {
    const run = play('T1', 'upgraded', trial);
    expect(firstSentence(run.answer)).toMatch(/^Overdue: .*ORD1001.*2026-09-15/);
    expect(run.answer).toContain('6222****3445');
    expect(run.answer).not.toContain(FULL_ACCOUNT);
    expect(run.answer).toContain('428.00 yuan');
    expect(run.answer).toContain('payee account information is abnormal');
    expect(run.toolCalls.map((call) => call.name).sort()).toEqual(['get_order', 'get_payment']);
  });

  it.each(SEEDS)('ORD1001 baseline (trial %i): full account, no "Overdue"', (trial) => {
    const run = play('T1', 'baseline', trial);
    expect(run.answer).toContain(FULL_ACCOUNT);
    expect(run.answer).not.toMatch(/overdue/i);
    expect(run.answer).toMatch(/\b428\b/);
    expect(run.answer).not.toContain('yuan');
  });

  it('quotes an account that arrives masked exactly as the tool returned it', () => {
    const run = play('T1', 'baseline', 1, { run: refundDeskScript({ account: '6222****3445' }) });
    expect(run.answer).toContain('6222****3445');
  });

  it('cannot judge "Overdue" without a date in the system prompt', () => {
    const system = upgradedSystem().replace(/Today is .*\n/, '');
    expect(play('T1', 'upgraded', 1, { system }).answer).not.toMatch(/overdue/i);
  });

  it('does not call a refund overdue when its due date is still ahead', () => {
    const system = upgradedSystem({ today: '2026-09-14' });
    expect(play('T1', 'upgraded', 1, { system }).answer).not.toMatch(/overdue/i);
  });

  it.each(SEEDS)('ORD2002 (trial %i): a screenshot only with the rule', (trial) => {
    expect(play('T6', 'upgraded', trial).answer).toMatch(/provide a payment screenshot/);
    const baseline = play('T6', 'baseline', trial).answer;
    expect(baseline).not.toMatch(/screenshot/i);
    expect(baseline).toMatch(/cash on delivery or not yet synced/);
  });

  it.each(['baseline', 'upgraded'] as const)(
    'ORD3003 (%s): asks to check the number',
    (variant) => {
      const run = play('T2', variant, 1);
      expect(run.answer).toMatch(/check|verify/i);
      expect(run.answer).toContain('ORD3003');
      expect(run.toolCalls.filter((call) => call.name === 'resubmit_refund')).toEqual([]);
    },
  );

  it('ORD4004: says the payment system is not responding and to try later', () => {
    const answer = play('T3', 'upgraded', 1).answer;
    expect(answer).toMatch(/not responding/);
    expect(answer).toMatch(/try again later/);
  });

  it.each(['baseline', 'upgraded'] as const)(
    'ORD5005 (%s): mentions the bank channel from a truncated result',
    (variant) => {
      const answer = play('T4', variant, 1).answer;
      expect(answer).toMatch(/bank channel busy/);
      expect(answer).toMatch(/refund processing/);
    },
  );

  it('T5: resubmits, then reports a refusal as needing a human', () => {
    const run = play('T5', 'upgraded', 1);
    expect(run.toolCalls.at(-1)).toMatchObject({
      name: 'resubmit_refund',
      input: { order_id: 'ORD1001', reason: 'customer confirmed a new payee account' },
    });
    expect(run.answer).toMatch(/human's approval/);
    expect(run.answer).toMatch(/handed .* over to a human agent/);
  });

  it('T5: says it resubmitted when the write executed', () => {
    const run = play('T5', 'baseline', 1, { run: refundDeskScript({ resubmit: 'executed' }) });
    expect(run.answer).toMatch(/resubmitted the refund/);
  });

  it('holds a resubmission the user did not confirm, under the resubmit rule', () => {
    const prompt = 'Please resubmit the refund for ORD1001.';
    const upgraded = play('T5', 'upgraded', 1, { prompt });
    expect(upgraded.toolCalls.map((call) => call.name)).not.toContain('resubmit_refund');
    expect(upgraded.answer).toMatch(/human agent/);
    const baseline = play('T5', 'baseline', 1, { prompt });
    expect(baseline.toolCalls.map((call) => call.name)).toContain('resubmit_refund');
  });

  it('asks for the order number when the prompt has none', () => {
    const run = play('T1', 'upgraded', 1, { prompt: 'Where is my refund?' });
    expect(run.toolCalls).toEqual([]);
    expect(run.answer).toMatch(/order number/);
  });

  it('retries a failed lookup at most once and answers after a hook blocks the retry', () => {
    const base = refundDeskScript();
    let payments = 0;
    const options = {
      run: (name: string, input: Record<string, unknown>) => {
        if (name === 'get_payment' && ++payments > 1) {
          return { text: 'Blocked: get_payment was already called with this input', isError: true };
        }
        return base(name, input);
      },
      policies: [createRefundDeskPolicy({ retryFailedLookup: 1 })],
    };
    const run = play('T3', 'upgraded', 1, options);
    expect(run.toolCalls.filter((call) => call.name === 'get_payment')).toHaveLength(2);
    expect(run.answer).toMatch(/not responding/);
  });
});

describe('refund-desk policy: habits across trials', () => {
  const trials = (count: number) => Array.from({ length: count }, (_, index) => index + 1);
  const playDefault = (task: TaskId, variant: 'baseline' | 'upgraded', trial: number) =>
    play(task, variant, trial, { policies: [createRefundDeskPolicy()] });

  it('plays the same trial the same way every time', () => {
    expect(playDefault('T1', 'upgraded', 7)).toEqual(playDefault('T1', 'upgraded', 7));
  });

  it('varies the trajectory across 20 trial seeds', () => {
    const runs = trials(20).map((trial) => playDefault('T3', 'upgraded', trial));
    const shapes = new Set(
      runs.map((run) => run.toolCalls.map((call) => `${call.turn}:${call.name}`).join(' ')),
    );
    expect(shapes.size).toBeGreaterThanOrEqual(3);
    expect(new Set(runs.map((run) => run.answer)).size).toBeGreaterThanOrEqual(5);
  });

  it('looks up order and payment in parallel in about half the trials', () => {
    const parallel = trials(40)
      .map((trial) => playDefault('T1', 'upgraded', trial))
      .filter((run) => run.toolCalls.filter((call) => call.turn === 0).length === 2).length;
    expect(parallel).toBeGreaterThanOrEqual(10);
    expect(parallel).toBeLessThanOrEqual(30);
  });

  it('retries a timed-out payment lookup in about a third of the trials, never twice', () => {
    const counts = trials(40).map(
      (trial) =>
        playDefault('T3', 'upgraded', trial).toolCalls.filter((call) => call.name === 'get_payment')
          .length,
    );
    const retried = counts.filter((count) => count === 2).length;
    expect(retried).toBeGreaterThanOrEqual(5);
    expect(retried).toBeLessThanOrEqual(25);
    expect(Math.max(...counts)).toBe(2);
  });

  it('misses a rule now and then (about 1 in 10 answers per rule)', () => {
    const answers = trials(100).map((trial) => playDefault('T1', 'upgraded', trial).answer);
    const missedOverdue = answers.filter((text) => !text.startsWith('Overdue')).length;
    const leaked = answers.filter((text) => text.includes(FULL_ACCOUNT)).length;
    for (const count of [missedOverdue, leaked]) {
      expect(count).toBeGreaterThanOrEqual(2);
      expect(count).toBeLessThanOrEqual(25);
    }
  });
});
