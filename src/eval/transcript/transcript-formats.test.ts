import { describe, expect, it } from 'vitest';
import { readCassette } from '../../replay/cassette-file.js';
import { chatCassette, weatherCassette } from '../report/testing/chat-cassettes.js';
import { responsesCassette } from '../report/testing/responses-cassette.js';
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

  it('names a Responses API cassette and decodes its conversation', () => {
    const decoded = decodeCassette(responsesCassette(), []);
    expect(decoded).toMatchObject({ format: 'openai-responses' });
    if (!('transcript' in decoded)) throw new Error('expected a transcript');
    const { transcript } = decoded;
    expect([transcript.system, transcript.user]).toEqual([
      'You report the weather.',
      'What is the weather in Oslo?',
    ]);
    expect(transcript.turns.map((turn) => turn.latencyMs)).toEqual([120, 90]);
    expect(transcript.turns[0]?.blocks).toEqual([
      {
        kind: 'tool',
        call: {
          name: 'get_weather',
          id: 'call_1',
          input: '{\n  "city": "Oslo"\n}',
          result: 'Oslo: 4 °C, rain',
        },
      },
    ]);
    expect(transcript.finalAnswer).toBe('It is 4 °C and raining in Oslo.');
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
