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

  // Reports used to mask only ANTHROPIC_API_KEY's value; the terminal masked these too.
  it('replaces the OpenAI key and a base URL password as the terminal does', () => {
    const env = {
      OPENAI_API_KEY: 'openai-gateway-456789',
      ANTHROPIC_BASE_URL: 'http://user:base-url-secret-99@gateway.test',
    };
    expect(
      redactForReport('keys openai-gateway-456789 and base-url-secret-99 in an error', env),
    ).toBe('keys [redacted OPENAI_API_KEY] and [redacted ANTHROPIC_BASE_URL password] in an error');
  });
});
