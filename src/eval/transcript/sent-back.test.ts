import { describe, expect, it } from 'vitest';
import { sentBackAnswers } from './sent-back.js';
import type { Block } from './transcript-model.js';

const answer = (key: string): Block => ({ role: 'assistant', key });
const keyOf = (message: Block) => (typeof message.key === 'string' ? message.key : undefined);

describe('sentBackAnswers', () => {
  it('finds each answer in the first later request holding it, at its last copy there', () => {
    const requests: Block[][] = [
      [],
      [answer('k'), { role: 'user' }],
      [{ role: 'user' }],
      [answer('k'), answer('other'), answer('k'), { role: 'user' }],
    ];
    const found = sentBackAnswers(requests, ['k', 'k', undefined, 'k'], keyOf);
    expect(
      found.map((sent) => sent && [requests.indexOf(sent.messages as Block[]), sent.at]),
    ).toEqual([[1, 0], [3, 2], undefined, undefined]);
  });

  it('names each message of a long cassette at most once, even when no request holds the answers', () => {
    const turns = 200;
    const history: Block[] = [];
    const requests: Block[][] = [];
    for (let turn = 0; turn < turns; turn += 1) {
      requests.push([...history]);
      history.push(answer(`k${turn}`), { role: 'user' });
    }
    let named = 0;
    const found = sentBackAnswers(
      requests,
      requests.map((_, turn) => `never sent back ${turn}`),
      (message) => {
        named += 1;
        return keyOf(message);
      },
    );
    expect(found.every((sent) => sent === undefined)).toBe(true);
    const messages = requests.reduce((sum, request) => sum + request.length, 0);
    expect(named).toBeGreaterThan(0);
    expect(named).toBeLessThanOrEqual(messages);
  });
});
