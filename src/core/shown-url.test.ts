import { describe, expect, it } from 'vitest';
import { maskUserinfoIn, secretPartsOf, shownUrl } from './shown-url.js';

const TOKEN = 'tok_live_0123456789abcdef';

describe('shownUrl', () => {
  it.each([
    [`http://${TOKEN}@judge.test/v1`, 'http://[redacted]@judge.test/v1'],
    [`https://user:${TOKEN}@gw.test/`, 'https://[redacted]@gw.test'],
    [`https://u%3Ax:${TOKEN}%2F@gw.test/v1`, 'https://[redacted]@gw.test/v1'],
    [`https://gw.test/v1?api_key=${TOKEN}`, 'https://gw.test/v1?[redacted]'],
    [`https://gw.test/v1?api%5Fkey=${TOKEN}%2F`, 'https://gw.test/v1?[redacted]'],
    [`https://gw.test/#${TOKEN}`, 'https://gw.test#[redacted]'],
    ['not a url', '(not a URL)'],
  ])('shows %s as %s', (url, shown) => {
    expect(shownUrl(url)).toBe(shown);
  });
});

describe('secretPartsOf', () => {
  it('names the user-token, password, query values and fragment, as written and decoded', () => {
    expect(secretPartsOf(`http://${TOKEN}@h.test`)).toEqual([TOKEN]);
    expect(secretPartsOf('http://u:p%2Fw@h.test')).toEqual(['p%2Fw', 'p/w']);
    expect(secretPartsOf(`http://h.test/?a=1&api_key=${TOKEN}%2F#frag=xy`)).toEqual([
      '1',
      `${TOKEN}%2F`,
      `${TOKEN}/`,
      'frag=xy',
      'xy',
    ]);
    expect(secretPartsOf('http://h.test/v1')).toEqual([]);
    expect(secretPartsOf(undefined)).toEqual([]);
  });
});

describe('maskUserinfoIn', () => {
  it('masks the userinfo of every URL in a text, encoded or not', () => {
    expect(
      maskUserinfoIn(
        `fetch failed: http://${TOKEN}@judge.test/v1/messages and https://u:p%40ss@x.test`,
      ),
    ).toBe('fetch failed: http://[redacted]@judge.test/v1/messages and https://[redacted]@x.test');
    expect(maskUserinfoIn('mail me at a@b.test')).toBe('mail me at a@b.test');
  });
});
