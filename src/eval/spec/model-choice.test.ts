import { describe, expect, it } from 'vitest';
import {
  chosenModel,
  decodeModelChoice,
  encodeModelChoice,
  parseModelFlags,
  recordingModel,
  unknownModelSuites,
} from './model-choice.js';

describe('--model', () => {
  it('takes one model for every agent and SUITE=ID for one agent, given again or comma-separated', () => {
    const choice = parseModelFlags(['gpt-4.1', 'weather=qwen3:8b,desk=claude-opus-5']);
    expect(choice).toEqual({
      all: 'gpt-4.1',
      bySuite: { weather: 'qwen3:8b', desk: 'claude-opus-5' },
    });
    expect(decodeModelChoice(encodeModelChoice(choice))).toEqual(choice);
    expect(encodeModelChoice(parseModelFlags([]))).toBeUndefined();
    // An older launcher's plain id is every agent's.
    expect(decodeModelChoice('claude-x')).toEqual({ all: 'claude-x', bySuite: {} });
  });

  it('picks per agent: SUITE=ID, then ID, then the agent, then its provider variable, then its provider', () => {
    const openai = { suite: 'weather', provider: 'openai' as const };
    const anthropic = { suite: 'desk' };
    const env = {};
    expect(recordingModel(parseModelFlags([]), openai, env)).toBe('gpt-4.1-mini');
    expect(recordingModel(parseModelFlags([]), anthropic, env)).toBe('claude-opus-5');
    expect(
      recordingModel(parseModelFlags([]), openai, { OPENAI_MODEL: 'gpt-o', ANTHROPIC_MODEL: 'c' }),
    ).toBe('gpt-o');
    expect(
      recordingModel(parseModelFlags([]), { ...openai, model: 'own' }, { OPENAI_MODEL: 'gpt-o' }),
    ).toBe('own');
    expect(recordingModel(parseModelFlags(['all']), { ...openai, model: 'own' }, env)).toBe('all');
    expect(recordingModel(parseModelFlags(['all', 'weather=mine']), openai, env)).toBe('mine');
    expect(recordingModel(parseModelFlags(['weather=mine']), anthropic, env)).toBe('claude-opus-5');
  });

  it('overrides a replay only where it was asked, and names suites no agent declares', () => {
    const choice = parseModelFlags(['weathr=x']);
    expect(chosenModel(choice, 'weather')).toBeUndefined();
    expect(unknownModelSuites(choice, new Set(['weather', 'desk']))).toEqual(['weathr']);
    expect(chosenModel(parseModelFlags(['__proto__=x']), 'toString')).toBeUndefined();
  });
});
