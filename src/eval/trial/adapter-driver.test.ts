import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { AgentAdapter, AgentOutput } from '../../adapters/types.js';
import { createVirtualClock } from '../../core/clock.js';
import { ConfigError } from '../../core/errors.js';
import { defineAgent } from '../spec/agent-spec.js';
import { EVAL_ENV, readEvalSettings } from '../spec/settings.js';
import type { TaskDefinition } from '../spec/task-definition.js';
import { adapterDriver, toRunResult } from './adapter-driver.js';

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

describe('adapterDriver', () => {
  let root: string | undefined;
  afterEach(() => {
    if (root) rmSync(root, { recursive: true, force: true });
  });

  // It ended at its start time: run_end carried run_start's timestamp whatever the run took.
  it("ends the trial's trace at the run's end on the run's clock, not at its start", async () => {
    root = mkdtempSync(join(tmpdir(), 'adapter-driver-'));
    const settings = readEvalSettings({ [EVAL_ENV.root]: root, [EVAL_ENV.mode]: 'replay' });
    const adapter: AgentAdapter = async ({ fetch, baseURL }) => {
      await fetch(`${baseURL}/v1/messages`, { method: 'POST', body: '{}' });
      await fetch(`${baseURL}/v1/messages`, { method: 'POST', body: '{}' });
      return { answer: 'done' };
    };
    const task: TaskDefinition = {
      agent: defineAgent({ suite: 'adapters', variants: ['v1'], run: adapter }),
      id: 'A1',
      title: 'two model calls',
      prompt: 'hi',
      check: () => {},
    };
    const clock = createVirtualClock({ start: Date.parse('2026-09-30T08:00:00.000Z') });
    // As a replay serves a call: the clock moves on by the recorded latency, 400 ms each.
    const served: typeof fetch = async () => {
      clock.advance(400);
      return new Response('{}');
    };
    const driver = adapterDriver(adapter, { task, variant: 'v1', trial: 1, settings });
    const result = await driver.drive({
      fetch: served,
      baseURL: 'http://replay.invalid',
      apiKey: 'replay-without-key',
      modelId: 'claude-test',
      clock,
    });
    expect(result.stats.modelMs).toBe(800);
    const events = readFileSync(driver.tracePath!, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string; ts?: string });
    const at = (type: string) => events.find((event) => event.type === type)?.ts;
    expect(at('run_start')).toBe('2026-09-30T08:00:00.000Z');
    expect(at('run_end')).toBe('2026-09-30T08:00:00.800Z');
  });
});
