import { afterEach, describe, expect, it, vi } from 'vitest';
import { respondChat } from './chat-completions.js';
import { defineModelScript } from './model-script.js';
import { respond } from './respond.js';

afterEach(() => {
  vi.unstubAllEnvs();
});

const SEED = 'H1/v1/1';
const headers = { 'x-api-key': 'test', authorization: 'Bearer test', 'x-harness-seed': SEED };
const ask = (policy: ReturnType<typeof defineModelScript>) =>
  respond({ model: 'm', max_tokens: 10, messages: [{ role: 'user', content: 'Hi' }] }, headers, {
    policies: [policy],
    unmatched: 'error',
  });

// A script that busy-looped was not bounded by --model-timeout (no timer fires while it runs),
// and one returning 42 or {} was recorded as an empty answer.
describe('a model script function that gives no answer it may give', () => {
  it('is stopped at the model call deadline when it loops, and says so', () => {
    vi.stubEnv('HARNESS_MODEL_TIMEOUT', '0.2');
    const looping = defineModelScript({
      name: 'looping',
      // Bounded, so that without the deadline this test fails (after a minute) instead of hanging.
      respond: () => {
        const until = Date.now() + 60_000;
        while (Date.now() < until) {}
        return { text: 'too late' };
      },
    });
    const answer = ask(looping);
    expect(answer.status).toBe(400);
    expect(looping.problemFor(SEED)).toBe(
      'ran past the model call deadline (0.2 s, --model-timeout) and was stopped: does it loop forever? (request 1)',
    );
    expect(looping.problemFor('H1/v1/2')).toBeUndefined();
  }, 90_000);

  it('is stopped at the deadline when reading its answer loops (a getter, a Proxy)', () => {
    vi.stubEnv('HARNESS_MODEL_TIMEOUT', '0.2');
    // Bounded, so that without the deadline this test fails (after a minute) instead of hanging.
    const spin = () => {
      const until = Date.now() + 60_000;
      while (Date.now() < until) {}
      return 'too late';
    };
    const answers: unknown[] = [
      {
        get text() {
          return spin();
        },
      },
      { toolCalls: [{ name: 'x', input: new Proxy({}, { ownKeys: () => [spin()] }) }] },
    ];
    for (const [index, value] of answers.entries()) {
      const odd = defineModelScript({ name: `odd${index}`, respond: () => value as never });
      expect(ask(odd).status).toBe(400);
      expect(odd.problemFor(SEED)).toBe(
        'ran past the model call deadline (0.2 s, --model-timeout) and was stopped: does it loop forever? (request 1)',
      );
    }
  }, 150_000);

  it.each([
    [42, 'returned 42, not an answer'],
    [null, 'returned null, not an answer'],
    ['hi', "returned 'hi', not an answer"],
    [[{ text: 'hi' }], 'returned an array, not an answer'],
    [{}, 'returned an empty answer'],
    [{ text: '' }, 'returned an empty answer'],
    [{ txt: 'hi' }, "returned an answer with 'txt'"],
    [{ text: 7 }, 'returned text 7'],
    [{ toolCalls: {} }, 'returned toolCalls an object, not a list'],
    [{ toolCalls: [{ name: 'x' }] }, 'returned toolCalls[0] an object, not { name, input }'],
    [Promise.resolve({ text: 'hi' }), 'returned a promise: a script answers synchronously'],
  ])('refuses an answer of %j, recording nothing', (value, problem) => {
    const odd = defineModelScript({ name: 'odd', respond: () => value as never });
    expect(ask(odd).status).toBe(400);
    expect(odd.problemFor(SEED)).toMatch(
      new RegExp(
        `^${problem.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}.*answer \\{ text: "..." \\} and/or \\{ toolCalls: \\[\\{ name, input \\}\\] \\}.*\\(request 1\\)$`,
      ),
    );
    // The Chat Completions wire format reads the same script.
    expect(
      respondChat({ model: 'm', messages: [{ role: 'user', content: 'Hi' }] }, headers, {
        policies: [odd],
        unmatched: 'error',
      }).status,
    ).toBe(400);
  });

  it('names what a script threw', () => {
    const throwing = defineModelScript({
      respond: () => {
        throw new Error('no such order');
      },
    });
    expect(ask(throwing).status).toBe(400);
    expect(throwing.problemFor(SEED)).toBe('threw: no such order (request 1)');
  });

  it('still answers, and still has no answer when it returns undefined', () => {
    const fine = defineModelScript({ respond: () => ({ text: 'fine' }) });
    expect(ask(fine).status).toBe(200);
    const none = defineModelScript({ respond: () => undefined });
    expect(ask(none).status).toBe(400);
    expect(none.problemFor(SEED)).toBeUndefined();
  });

  it('refuses turns as data that are no answer when the script is defined', () => {
    expect(() => defineModelScript({ name: 'turns', turns: [{ text: 'a' }, 42 as never] })).toThrow(
      /^model script 'turns' turn 2 returned 42, not an answer/,
    );
    expect(() => defineModelScript({ turns: [{}] })).toThrow(/turn 1 returned an empty answer/);
  });
});
