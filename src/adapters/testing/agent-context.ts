import { createVirtualClock } from '../../core/clock.js';
import type { AgentContext } from '../types.js';

/** The context an adapter gets in a trial, for a test that sends its requests to `baseURL` through `fetch`; a virtual clock from 0. */
export function testAgentContext(
  options: Pick<AgentContext, 'fetch' | 'baseURL'> & Partial<AgentContext>,
): AgentContext {
  return {
    prompt: 'hi',
    task: 'T1',
    variant: 'v1',
    trial: 1,
    apiKey: 'test-key',
    model: 'gpt-test',
    clock: createVirtualClock({ start: 0 }),
    signal: new AbortController().signal,
    projectDir: '.',
    ...options,
  };
}
