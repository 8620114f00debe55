import { describe, expect, it } from 'vitest';
import { sendJudgeRequest } from './judge-client.js';
import type { JudgeRequest } from './judge-prompt.js';

const TOKEN = 'tok_live_0123456789abcdef';

const request = {
  check: 'tone',
  model: { provider: 'anthropic', id: 'claude-judge' },
  path: '/v1/messages',
  body: {},
  rubricHash: 'r',
  promptHash: 'p',
  key: 'k',
} as unknown as JudgeRequest;

describe('sendJudgeRequest', () => {
  it('keeps a user-token of the judge base URL out of its error (fetch quotes the URL)', async () => {
    // Node's fetch refuses a URL with credentials before it connects, quoting the URL.
    const error = await sendJudgeRequest(
      { baseURL: `http://${TOKEN}@127.0.0.1:9`, apiKey: 'k', fetch: globalThis.fetch },
      request,
      async () => {},
    ).catch((thrown: unknown) => thrown as Error);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toMatch(
      /^the judge API at 127\.0\.0\.1:9 could not be reached/,
    );
    expect((error as Error).message).not.toContain(TOKEN);
  });
});
