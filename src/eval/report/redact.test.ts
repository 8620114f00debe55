import { describe, expect, it } from 'vitest';
import { redactForReport } from './redact.js';

describe('redactForReport', () => {
  it('masks card numbers to their first and last four digits', () => {
    expect(redactForReport('"refund_account":"6222020200112233445"', {})).toBe(
      '"refund_account":"6222****3445"',
    );
  });

  it('masks spaced card numbers and secret header values as the core redaction does', () => {
    expect(redactForReport('card 6222 0202 0011 2233 445, x-api-key: abc123def', {})).toBe(
      'card 6222****3445, x-api-key: [redacted]',
    );
  });

  it('replaces API keys and the value of ANTHROPIC_API_KEY', () => {
    const env = { ANTHROPIC_API_KEY: 'my-gateway-token-123' };
    const text = redactForReport('key sk-ant-api03-abcdefghijkl and my-gateway-token-123', env);
    expect(text).toBe('key sk-ant-[redacted] and [redacted ANTHROPIC_API_KEY]');
  });
});
