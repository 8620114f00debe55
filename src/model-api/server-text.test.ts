import { describe, expect, it } from 'vitest';
import { serverText } from './call-failure.js';

describe("serverText: a server's words fit to quote", () => {
  it('masks the whole key the call sent, whatever credential or card shapes it contains', () => {
    for (const key of [
      'gw-4111111111111111-Zq9secretTail',
      'abcd.4111111111111111.tailsecret',
      'tenant-sk-abcdefghijklmnopqrstuvwxyz012',
    ]) {
      const quoted = serverText(`{"query":"api_key=${key}"}`, key);
      expect(quoted).toBe('{"query":"api_key=[redacted API key]"}');
    }
  });

  it('quotes the start of a huge body without working through all of it', () => {
    const quoted = serverText(`sk-ant-api03-${'A'.repeat(10_000_000)}`, 'unrelated-key-123');
    expect(quoted.length).toBeLessThanOrEqual(300);
    expect(quoted).not.toMatch(/AAAA/);
  });

  it('still masks a key that straddles the 300th character', () => {
    const key = 'gw-live-0123456789abcdef';
    const quoted = serverText(`${'x'.repeat(290)}${key} tail`, key);
    expect(quoted).not.toContain('gw-live-01');
  });
});
