import { describe, expect, it } from 'vitest';
import { readCassette } from '../../replay/cassette-file.js';
import { chatCassette, weatherCassette } from './testing/chat-cassettes.js';
import { responsesCassette } from './testing/responses-cassette.js';
import { decodeTranscript } from './transcript.js';
import { decodeCassette } from './transcript-formats.js';

const fixture = new URL('../../../fixtures/T1/baseline/trial-1.json', import.meta.url).pathname;

describe('decodeCassette', () => {
  it('names a Messages API cassette and decodes it as decodeTranscript does', async () => {
    const cassette = await readCassette(fixture);
    expect(decodeCassette(cassette, [])).toEqual({
      format: 'anthropic-messages',
      transcript: decodeTranscript(cassette),
    });
  });

  it('names a Chat Completions cassette and decodes it', () => {
    const decoded = decodeCassette(weatherCassette(), []);
    expect(decoded).toMatchObject({ format: 'openai-chat-completions' });
    expect('transcript' in decoded && decoded.transcript.finalAnswer).toBe(
      'It is 4 °C and raining in Oslo.',
    );
  });

  it('names a Responses API cassette it cannot decode instead of an empty transcript', () => {
    // decodeTranscript alone makes an empty conversation of it: no turns, no answer.
    expect(decodeTranscript(responsesCassette()).turns).toEqual([]);
    expect(decodeCassette(responsesCassette(), [])).toEqual({
      format: 'openai-responses',
      undecoded: expect.stringContaining('2 calls of openai-responses'),
    });
  });

  it('names any other format by its first call, query left out', () => {
    const [exchange] = weatherCassette().exchanges;
    const other = { ...exchange!, request: { ...exchange!.request, path: '/v1/complete?beta=1' } };
    expect(decodeCassette(chatCassette([other]), [])).toMatchObject({
      format: 'POST /v1/complete',
    });
  });

  it('says a cassette without calls has no transcript', () => {
    expect(decodeCassette(chatCassette([]), [])).toEqual({
      unavailable: 'the cassette holds no model calls',
    });
  });
});
