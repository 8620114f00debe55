import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../core/errors.js';
import { refuseSimulator } from './refuse-simulator.js';

const answering = (headers: Record<string, string>) => async () =>
  new Response('{}', { status: 200, headers });

describe('refuseSimulator', () => {
  it('refuses a response from the harness simulator during a live recording', async () => {
    const fetch = refuseSimulator(answering({ 'x-harness-simulator': 'estimated-usage' }));
    await expect(fetch('http://127.0.0.1/v1/messages')).rejects.toThrow(ConfigError);
    await expect(fetch('http://127.0.0.1/v1/messages')).rejects.toThrow('record with --simulated');
  });

  it("names the agent's base URL variable, and tells the recording (a client may say only 'connection error')", async () => {
    const heard: string[] = [];
    const fetch = refuseSimulator(
      answering({ 'x-harness-simulator': '1' }),
      'OPENAI_BASE_URL',
      (error) => heard.push(error.message),
    );
    await expect(fetch('http://127.0.0.1/v1/responses')).rejects.toThrow(
      'the server at OPENAI_BASE_URL is the harness simulator',
    );
    expect(heard).toEqual([expect.stringContaining('OPENAI_BASE_URL')]);
  });

  it('passes any other response through untouched', async () => {
    const fetch = refuseSimulator(answering({ 'content-type': 'application/json' }));
    const response = await fetch('https://api.anthropic.com/v1/messages');
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('{}');
  });
});
