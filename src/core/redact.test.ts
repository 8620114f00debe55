import { describe, expect, it } from 'vitest';
import { maskCredentials, maskSecretHeaderValues } from './credentials.js';
import { redactForDisplay, redactText, redactValue } from './redact.js';

const KEY = 'sk-ant-api03-PLANTED0123456789abcdef';

describe('redactValue', () => {
  it('keeps a 12-19 digit JSON number that is not a card as the same number', () => {
    const input = { order_id: 123456789012, nested: [{ id: 1727712000007 }], amount: 428 };
    expect(redactValue(input)).toEqual(input);
  });

  it('turns a card-shaped JSON number into the masked string, never a broken number', () => {
    // The JSON number 6222020200112233445 is not a safe integer: it arrives as 6222020200112233000.
    const unsafe = JSON.parse('6222020200112233445') as number;
    expect(redactValue({ card: 4111111111111111, unsafe })).toEqual({
      card: '4111****1111',
      unsafe: '6222****3000',
    });
  });

  it('masks cards and credentials in every string, at any depth, without touching keys', () => {
    const value = { note: ['card 6222 0202 0011 2233 445', { key: `use ${KEY}` }], ok: true };
    expect(redactValue(value)).toEqual({
      note: ['card 6222****3445', { key: 'use sk-ant-[redacted]' }],
      ok: true,
    });
  });

  it('replaces the values of secret header keys, whatever their case', () => {
    const headers = { 'X-Api-Key': 'abc', Authorization: 'Basic xyz', accept: 'json' };
    expect(redactValue({ headers })).toEqual({
      headers: { 'X-Api-Key': '[redacted]', Authorization: '[redacted]', accept: 'json' },
    });
  });

  it('never throws: cycles, throwing getters and BigInts become readable values', () => {
    const cyclic: Record<string, unknown> = { name: 'loop' };
    cyclic.self = cyclic;
    const hostile = {
      get boom() {
        throw new Error('getter');
      },
    };
    expect(redactValue(cyclic)).toEqual({ name: 'loop', self: '[circular]' });
    expect(redactValue({ hostile })).toEqual({ hostile: '[unreadable]' });
    expect(redactValue(4111111111111111n)).toBe('4111****1111');
    expect(redactValue(new Date(0))).toBe('1970-01-01T00:00:00.000Z');
    const shared = { id: 'x' };
    expect(redactValue([shared, shared])).toEqual([{ id: 'x' }, { id: 'x' }]);
  });
});

describe('redactText and redactForDisplay', () => {
  it('mask the credential shapes and keep a label of what stood there', () => {
    expect(maskCredentials(`a ${KEY} b sk-proj-abcdefghijklmnopqrstuv`)).toBe(
      'a sk-ant-[redacted] b sk-[redacted]',
    );
    expect(redactText('Bearer abcdefghijklmnopqrstuvwxyz0123')).toBe('Bearer [redacted]');
    expect(redactText('plain text with sk- and Bearer words')).toBe(
      'plain text with sk- and Bearer words',
    );
  });

  it("mask the other providers' shapes in printed text: AWS, GitHub, Slack, Google, PEM", () => {
    const pem = `-----BEGIN ${'OPENSSH PRIVATE'} KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n-----END ${'OPENSSH PRIVATE'} KEY-----`;
    const text = [
      `ASIA${'IOSFODNN7EXAMPLE'}`,
      `github_pat_${'11ABCDEFG0aBcDeFgHiJkL_mNoPqRsTuVwXyZ01234'}`,
      `xoxp-${'123456789012-1234567890123-aBcDeFgHiJkL'}`,
      `AIza${'SyA-1234567890abcdefghijklmnopqrstu'}`,
      pem,
    ].join(' | ');
    expect(maskCredentials(text)).toBe(
      'AWS [redacted] | github_pat_[redacted] | xox-[redacted] | AIza[redacted] | PEM private key [redacted]',
    );
  });

  it('redactForDisplay also hides what follows a secret header name in text', () => {
    expect(redactForDisplay('{"x-api-key":"short-secret","model":"m"}')).toBe(
      '{"x-api-key":"[redacted]","model":"m"}',
    );
    expect(maskSecretHeaderValues('authorization: Basic dXNlcjpwYXNz')).toBe(
      'authorization: [redacted]',
    );
    expect(redactForDisplay(`x-api-key: ${KEY}`)).toBe('x-api-key: [redacted]');
  });
});
