import type Anthropic from '@anthropic-ai/sdk';
import { describe, expect, it } from 'vitest';
import { addUsage, emptyStats, modelCallEvent, stopAfterTools, tokensSpent } from './stop-rules.js';
import type { Decision, ToolCallRecord } from './types.js';

/** What a model client that skips the boundary check (a hand-written double) might hand over. */
const odd = (usage: Record<string, unknown>) => usage as unknown as Anthropic.Usage;

describe('addUsage', () => {
  it('adds token counts as numbers', () => {
    const stats = emptyStats();
    addUsage(stats, odd({ input_tokens: 30000, output_tokens: 1, cache_read_input_tokens: 5 }), 12);
    addUsage(stats, odd({ input_tokens: 10, output_tokens: 2, cache_read_input_tokens: null }), 3);
    expect(stats).toMatchObject({
      inputTokens: 30010,
      outputTokens: 3,
      cacheReadTokens: 5,
      modelMs: 15,
    });
    expect(tokensSpent(stats)).toBe(30018);
  });

  it('never concatenates a count sent as a string, nor counts a negative or fractional one', () => {
    const stats = emptyStats();
    addUsage(stats, odd({ input_tokens: '30000', output_tokens: '1' }), 0);
    addUsage(
      stats,
      odd({ input_tokens: -5, output_tokens: 1.5, cache_creation_input_tokens: Number.NaN }),
      0,
    );
    expect(stats).toMatchObject({ inputTokens: 0, outputTokens: 0, cacheWriteTokens: 0 });
    expect(typeof stats.inputTokens).toBe('number');
    expect(tokensSpent(stats)).toBe(0);
  });
});

describe('modelCallEvent', () => {
  it('reports only whole non-negative token counts', () => {
    const response = {
      stop_reason: 'end_turn',
      usage: odd({ input_tokens: '7', output_tokens: 2 }),
    };
    expect(modelCallEvent(1, response as Anthropic.Message, 5)).toMatchObject({
      input_tokens: 0,
      output_tokens: 2,
    });
  });
});

describe('stopAfterTools', () => {
  const record = (decision: Decision, id: string): ToolCallRecord => ({
    step: 1,
    id: `toolu_${id}`,
    tool: 'lookup',
    input: { id },
    decision,
    isError: decision !== 'allow',
    ms: 0,
    resultChars: 0,
    effect: 'read',
  });
  const notRun = 'lookup was not run: the run was cancelled before it started';

  it('does not count calls the run was cancelled before, which never ran', () => {
    const cancelled = ['1', '2', '3'].map((id) => record('cancelled', id));
    const texts = cancelled.map(() => notRun);
    expect(stopAfterTools(cancelled, texts, { maxSteps: 9, failureStreak: 3 })).toBeUndefined();
    expect(stopAfterTools(cancelled, texts, { maxSteps: 9, noProgressWindow: 3 })).toBeUndefined();
  });

  it('skips a cancelled call: it neither extends a failure streak nor breaks a repeated error', () => {
    const streak = [record('allow', '1'), record('failed', '2'), record('cancelled', '3')];
    const streakTexts = [undefined, 'down', notRun];
    const limits = { maxSteps: 9, failureStreak: 3 };
    expect(
      stopAfterTools([...streak, record('failed', '4')], [...streakTexts, 'down'], limits),
    ).toBeUndefined();
    expect(
      stopAfterTools(
        [...streak, record('failed', '4'), record('failed', '5')],
        [...streakTexts, 'down', 'down'],
        limits,
      ),
    ).toEqual({ status: 'failure_streak', detail: '3 tool calls failed in a row' });

    const repeated = [
      record('failed', '1'),
      record('cancelled', '2'),
      record('failed', '3'),
      record('failed', '4'),
    ];
    const repeatedTexts = ['down', notRun, 'down', 'down'];
    expect(stopAfterTools(repeated, repeatedTexts, { maxSteps: 9, noProgressWindow: 3 })).toEqual({
      status: 'no_progress',
      detail: 'the same call or error repeated 3 times',
    });
  });
});
