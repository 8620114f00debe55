import { describe, expect, it } from 'vitest';
import type { AgentOutput } from '../../adapters/types.js';
import { ConfigError } from '../../core/errors.js';
import { toRunResult } from './adapter-driver.js';

const convert = (output: unknown) => () => toRunResult(output as AgentOutput, 'run-1', 1);

describe('toRunResult', () => {
  it('keeps the status and the detail of a run that failed', () => {
    const result = toRunResult({ answer: '', status: 'error', detail: 'timed out' }, 'run-1', 1);
    expect([result.status, result.detail]).toEqual(['error', 'timed out']);
  });

  // Both used to pass: an unknown status counted as a finished run, a missing answer as ''.
  it('refuses a status the runtime does not know, naming the ones it does', () => {
    expect(convert({ answer: 'ok', status: 'failed' })).toThrow(ConfigError);
    expect(convert({ answer: 'ok', status: 'failed' })).toThrow(
      "the agent's run returned status 'failed': use one of done, max_steps, token_budget, no_progress, failure_streak, model_stop, error, awaiting_approval (error for a run that failed)",
    );
  });

  it('refuses an output without a text answer', () => {
    expect(convert(undefined)).toThrow(
      "the agent's run returned undefined: return { answer: string, toolCalls?, usage?, status?, detail? }",
    );
    expect(convert({ text: 'ok' })).toThrow(
      /returned an answer of type undefined: return \{ answer: string/,
    );
  });
});
