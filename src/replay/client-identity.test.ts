import { describe, expect, it } from 'vitest';
import { clientOf, describeClients } from './client-identity.js';

describe('clientOf', () => {
  it('names the SDK a user-agent names, as npm does', () => {
    expect(clientOf('OpenAI/JS 6.30.1')).toEqual({ sdk: 'openai', version: '6.30.1' });
    expect(clientOf('Anthropic/JS 1.16.0')).toEqual({
      sdk: '@anthropic-ai/sdk',
      version: '1.16.0',
    });
    expect(clientOf('ai/6.0.333 ai-sdk/provider-utils/4.0.66 runtime/node.js/v20.20.2')).toEqual({
      sdk: 'ai',
      version: '6.0.333',
    });
    expect(clientOf('ai-sdk/openai/3.0.141 ai-sdk/provider-utils/4.0.66 ai/6.0.333')).toEqual({
      sdk: 'ai',
      version: '6.0.333',
    });
    expect(clientOf('ai-sdk/openai/3.0.141 runtime/node.js/20')).toEqual({
      sdk: '@ai-sdk/openai',
      version: '3.0.141',
    });
    expect(clientOf('harness-evals/0.1.0')).toEqual({ sdk: 'harness-evals', version: '0.1.0' });
    expect(clientOf('node')).toBeUndefined();
    expect(clientOf(null)).toBeUndefined();
  });

  it('lists several clients of one trial, and says when none was named', () => {
    expect(
      describeClients([
        { sdk: 'openai', version: '6.30.1' },
        { sdk: 'openai', version: '6.30.1' },
        { sdk: 'harness-evals', version: '0.1.0' },
      ]),
    ).toEqual({ sdk: 'openai + harness-evals', version: '6.30.1 + 0.1.0' });
    expect(describeClients([])).toEqual({ sdk: 'unidentified client', version: 'unknown' });
  });
});
