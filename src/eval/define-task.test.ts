import { describe, expect, it } from 'vitest';
import { ConfigError } from '../core/errors.js';
import { defineTask } from './define-task.js';
import { defineAgent } from './spec/agent-spec.js';
import type { TaskDefinition } from './spec/task-definition.js';

// Only declarations that are refused: a valid one registers vitest tests, which a unit test
// cannot do from inside a test (the evals and define-task-runs.slow-e2e.test.ts run valid ones).

const agent = defineAgent({
  suite: 'desk',
  variants: ['baseline', 'upgraded'],
  run: async () => ({ answer: 'ok' }),
});

const base: TaskDefinition = {
  agent,
  id: 'T9',
  title: 'A task',
  prompt: 'Do the thing.',
  check: () => {},
};

function refusal(task: unknown): string {
  try {
    defineTask(task as TaskDefinition);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).message;
  }
  throw new Error('expected defineTask to refuse the declaration');
}

describe('defineTask floors', () => {
  // A NaN floor compared as "not comparable" and never failed the gate.
  it.each([
    ['NaN', Number.NaN],
    ['null', null],
    ['-0.1', -0.1],
    ['1.5', 1.5],
    ['Infinity', Number.POSITIVE_INFINITY],
    ["'0.6' (text)", '0.6'],
  ])('refuses passAt1 %s, naming the task, the variant and the field', (_what, passAt1) => {
    const message = refusal({ ...base, floors: [{ variant: 'upgraded', passAt1 }] });
    expect(message).toMatch(/^task 'T9': floors\[0\] \(variant 'upgraded'\): passAt1 /);
    expect(message).toContain('a number from 0 to 1');
  });

  it('refuses a bad passHatK the same way', () => {
    expect(refusal({ ...base, floors: [{ variant: 'baseline', passHatK: 2 }] })).toBe(
      "task 'T9': floors[0] (variant 'baseline'): passHatK 2 is not a number from 0 to 1; write the minimum rate, e.g. passHatK: 0.6",
    );
  });

  it('refuses a floor for a variant the task does not run: it would never be checked', () => {
    expect(refusal({ ...base, floors: [{ variant: 'upgrade', passAt1: 0.5 }] })).toBe(
      "task 'T9': floors[0] names variant 'upgrade', which the task does not run; its variants are baseline, upgraded",
    );
  });

  it('refuses a floor without a rate, or with a misspelt one', () => {
    expect(refusal({ ...base, floors: [{ variant: 'upgraded' }] })).toBe(
      "task 'T9': floors[0] (variant 'upgraded') sets no minimum; add passAt1, passHatK or meanScore, e.g. passAt1: 0.6",
    );
    expect(refusal({ ...base, floors: [{ variant: 'upgraded', passAtK: 0.5 }] })).toBe(
      "task 'T9': floors[0] (variant 'upgraded') has the unknown field 'passAtK'; a floor has variant, passAt1, passHatK, score and meanScore",
    );
  });

  it('refuses floors that are not a list of objects', () => {
    expect(refusal({ ...base, floors: { variant: 'upgraded', passAt1: 0.5 } })).toMatch(
      /^task 'T9': floors must be a list/,
    );
    expect(refusal({ ...base, floors: [null] })).toMatch(
      /^task 'T9': floors\[0\] must be an object/,
    );
  });
});

describe('defineTask declarations', () => {
  it('refuses a missing or non-text id instead of using "undefined" as a fixtures folder', () => {
    expect(refusal({ ...base, id: undefined })).toMatch(/^task id undefined is invalid/);
    expect(refusal({ ...base, id: 7 })).toMatch(/^task id 7 is invalid/);
  });

  it('refuses a check that is not a function, and a missing title or prompt', () => {
    expect(refusal({ ...base, check: undefined })).toBe(
      "task 'T9': check must be a function ({ answer, toolCalls, stats }) => { expect(...) }",
    );
    expect(refusal({ ...base, prompt: '' })).toBe(
      "task 'T9': prompt must be non-empty text (what the agent is asked)",
    );
    expect(refusal({ ...base, title: undefined })).toBe(
      "task 'T9': title must be text (the task's name in reports)",
    );
  });

  it('refuses an agent that is not one', () => {
    expect(refusal({ ...base, agent: undefined })).toBe(
      "task 'T9': agent must be an agent from defineAgent({ suite, variants, ... })",
    );
  });

  it('refuses variants the agent does not have, none at all, or one twice', () => {
    expect(refusal({ ...base, variants: ['upgraded', 'canary'] })).toBe(
      "task 'T9': variant 'canary' is not a variant of agent desk (baseline, upgraded)",
    );
    expect(refusal({ ...base, variants: [] })).toBe(
      "task 'T9': variants is empty; leave it out to run every variant of the agent",
    );
    // Both would record fixtures/T9/upgraded/trial-N.json at the same time.
    expect(refusal({ ...base, variants: ['upgraded', 'upgraded'] })).toBe(
      "task 'T9': variant 'upgraded' is listed twice",
    );
  });

  it('refuses an agent variant or suite that cannot name a folder or a report column', () => {
    const bad = (variants: string[], suite = 'desk') =>
      refusal({ ...base, agent: { suite, variants, run: agent.run } });
    // Variants name fixtures folders, and the reporter reads a test's first word as its variant.
    expect(bad(['../up'])).toMatch(/variant '\.\.\/up' of agent desk is invalid/);
    expect(bad(['new variant'])).toMatch(/variant 'new variant' of agent desk is invalid/);
    expect(bad([''])).toMatch(/variant '' of agent desk is invalid/);
    expect(bad(['v1'], '')).toMatch(/agent suite '' is invalid/);
  });
});

describe('defineAgent', () => {
  it('refuses variant names that cannot be a fixtures folder, and a repeated variant', () => {
    const run = async () => ({ answer: 'ok' });
    expect(() => defineAgent({ suite: 'desk', variants: ['a/b'], run })).toThrow(
      /variant 'a\/b' of agent desk is invalid: use letters, digits, '_', '-' or '\.'/,
    );
    expect(() => defineAgent({ suite: 'desk', variants: ['v1', 'v1'], run })).toThrow(
      "agent desk lists variant 'v1' twice",
    );
    expect(defineAgent({ suite: 'desk', variants: ['v1', 'v1.2-rc_1'], run }).variants).toEqual([
      'v1',
      'v1.2-rc_1',
    ]);
  });
});
