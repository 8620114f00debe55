import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessionFetch } from './session-fetch.js';

const server = setupServer(
  http.post('http://fake.local/v1/messages', () =>
    HttpResponse.json({ type: 'error' }, { status: 429, headers: { 'retry-after': '1' } }),
  ),
);
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterAll(() => server.close());

describe('sessionFetch', () => {
  it('lets the SDK cancel a mocked body before a retry without hanging', async () => {
    const response = await sessionFetch('http://fake.local/v1/messages', { method: 'POST' });
    expect(response.status).toBe(429);
    expect(response.headers.get('retry-after')).toBe('1');
    await expect(response.body?.cancel()).resolves.toBeUndefined();
  });

  it('passes bodies through unchanged', async () => {
    const response = await sessionFetch('http://fake.local/v1/messages', { method: 'POST' });
    expect(await response.json()).toEqual({ type: 'error' });
  });
});
