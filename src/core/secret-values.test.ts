import { afterEach, describe, expect, it } from 'vitest';
import { redactForDisplay, redactText, redactValue } from './redact.js';
import {
  forgetSecretValues,
  maskConfiguredKeys,
  maskSecretValue,
  maskValue,
} from './secret-values.js';

// A gateway key: no known credential shape, so only its exact value can find it.
const GATEWAY_KEY = 'gw-live-0123456789abcdefXYZ';

afterEach(forgetSecretValues);

describe('maskSecretValue', () => {
  it('makes every redacted text and value hide the exact value, whatever its shape', () => {
    expect(redactText(`key ${GATEWAY_KEY} refused`)).toContain(GATEWAY_KEY);
    maskSecretValue(GATEWAY_KEY, 'ANTHROPIC_API_KEY');
    expect(redactText(`key ${GATEWAY_KEY} refused`)).toBe(
      'key [redacted ANTHROPIC_API_KEY] refused',
    );
    expect(redactForDisplay(`a${GATEWAY_KEY}b`)).toBe('a[redacted ANTHROPIC_API_KEY]b');
    const event = { type: 'run_end', detail: `400: key ${GATEWAY_KEY}`, list: [[GATEWAY_KEY]] };
    expect(JSON.stringify(redactValue(event))).not.toContain(GATEWAY_KEY);
  });

  it('also finds the value JSON-escaped, as it appears inside printed JSON', () => {
    const quoted = 'gw"live\\0123456789';
    maskSecretValue(quoted, 'ANTHROPIC_API_KEY');
    expect(redactText(JSON.stringify({ echoed: quoted }))).toBe(
      '{"echoed":"[redacted ANTHROPIC_API_KEY]"}',
    );
  });

  // fetch trims header values: a key read with a CRLF env file's \r goes out without it.
  it.each([
    ['a trailing space', `${GATEWAY_KEY} `],
    ['a trailing \\r', `${GATEWAY_KEY}\r`],
    ['a leading tab', `\t${GATEWAY_KEY}`],
  ])('also finds the value trimmed when it has %s, as fetch sends it', (_name, key) => {
    maskSecretValue(key, 'ANTHROPIC_API_KEY');
    expect(redactText(`echo api_key=${GATEWAY_KEY}&x=1`)).toBe(
      'echo api_key=[redacted ANTHROPIC_API_KEY]&x=1',
    );
    expect(redactText(`as read: ${JSON.stringify(key)}`)).not.toContain(GATEWAY_KEY);
  });

  it('does not mask a trimmed value too short to tell from ordinary text', () => {
    maskSecretValue('abcdefg  ', 'ANTHROPIC_API_KEY');
    expect(redactText('abcdefg and more')).toBe('abcdefg and more');
  });

  it('ignores values too short to tell from ordinary text', () => {
    maskSecretValue('abc', 'ANTHROPIC_API_KEY');
    maskSecretValue('', 'ANTHROPIC_API_KEY');
    maskSecretValue(undefined, 'ANTHROPIC_API_KEY');
    expect(redactText('abc def')).toBe('abc def');
  });
});

describe('maskConfiguredKeys', () => {
  it('masks the API keys an environment configures', () => {
    maskConfiguredKeys({ ANTHROPIC_API_KEY: GATEWAY_KEY, OPENAI_API_KEY: 'openai-gateway-42' });
    expect(redactText(`${GATEWAY_KEY} / openai-gateway-42`)).toBe(
      '[redacted ANTHROPIC_API_KEY] / [redacted OPENAI_API_KEY]',
    );
  });

  it("masks the judge's key and its base URL's password as the agents' are", () => {
    maskConfiguredKeys({
      HARNESS_JUDGE_API_KEY: 'judge-gateway-0123',
      HARNESS_JUDGE_BASE_URL: 'https://u:judgepass0123@gateway.test/v1',
    });
    expect(redactText('judge-gateway-0123 at https://u:judgepass0123@gateway.test/v1')).toBe(
      '[redacted HARNESS_JUDGE_API_KEY] at https://[redacted]@gateway.test/v1',
    );
  });

  it('masks the password of a base URL that carries one', () => {
    maskConfiguredKeys({ ANTHROPIC_BASE_URL: 'http://user:gw%2Fpass0123456789@127.0.0.1:1' });
    expect(
      redactText('at http://user:gw%2Fpass0123456789@127.0.0.1:1/v1 (gw/pass0123456789)'),
    ).toBe('at http://[redacted]@127.0.0.1:1/v1 ([redacted ANTHROPIC_BASE_URL password])');
  });
});

describe('maskValue', () => {
  it('masks the value and its trimmed form, which is what fetch sends', () => {
    for (const key of [`${GATEWAY_KEY} `, `${GATEWAY_KEY}\r`, ` ${GATEWAY_KEY}`]) {
      expect(maskValue(`key=${GATEWAY_KEY}.`, key, 'API key')).toBe('key=[redacted API key].');
    }
  });

  it('leaves text alone for a value too short, trimmed or not', () => {
    expect(maskValue('echo abcdefg.', ' abcdefg ', 'API key')).toBe('echo abcdefg.');
  });
});
