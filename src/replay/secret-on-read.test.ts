import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FixtureError, SecretLeakError } from '../core/errors.js';
import { type Cassette, cassettePath, type Exchange } from './cassette.js';
import { displayPath, readCassette, serializeCassette, writeCassette } from './cassette-file.js';
import { createReplayServer, type ReplayServer } from './replay-server.js';
import { testCassette, textExchange } from './testing/cassettes.js';

const KEY = 'sk-ant-api03-PLANTED0123456789abcdef';

/** Bytes that read as no text once decoded, as an image's base64 does. */
function randomBase64(): string {
  return Buffer.from(Array.from({ length: 300 }, (_, index) => (index * 131 + 7) % 256)).toString(
    'base64',
  );
}
const RERECORD = 'npm run record -- --task T1 --variant upgraded --trial 2';

let root: string;
let server: ReplayServer;
beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'secret-on-read-'));
  server = createReplayServer();
  server.listen();
});
afterAll(async () => {
  server.close();
  await rm(root, { recursive: true, force: true });
});

let counter = 0;
/** Writes the cassette as a person or a broken tool would: bypassing writeCassette's scan. */
async function plant(cassette: Cassette): Promise<string> {
  const file = cassettePath(root, 'T1', 'upgraded', ++counter);
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(
    file,
    serializeCassette({ ...cassette, meta: { ...cassette.meta, trial: counter } }),
  );
  return file;
}

/** A streamed answer whose text arrives in pieces of `size` characters. */
function streamedExchange(text: string, size: number): Exchange {
  const pieces = text.match(new RegExp(`[^]{1,${size}}`, 'g')) ?? [];
  const delta = (piece: string) => ({
    event: 'content_block_delta',
    data: { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: piece } },
  });
  return {
    ...textExchange('hi', ''),
    response: {
      status: 200,
      headers: { 'content-type': 'text/event-stream' },
      events: [
        {
          event: 'content_block_start',
          data: {
            type: 'content_block_start',
            index: 0,
            content_block: { type: 'text', text: '' },
          },
        },
        ...pieces.map(delta),
        { event: 'message_stop', data: { type: 'message_stop' } },
      ],
    },
  };
}

describe('readCassette: a credential inside is a fixture problem, never a replay', () => {
  it('refuses a key in a recorded answer as fixture_secret, naming the file and the fix, not the key', async () => {
    const file = await plant(testCassette([textExchange('hi', `here: ${KEY}`)]));
    const error = await readCassette(file).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(FixtureError);
    expect((error as FixtureError).code).toBe('fixture_secret');
    expect((error as Error).message).toMatch(
      new RegExp(
        `^${displayPath(file).replace(/[.\\]/g, '\\$&')}: line \\d+ contains an sk-ant- API key`,
      ),
    );
    expect((error as Error).message).toContain('re-record the trial');
    expect((error as Error).message).not.toContain('PLANTED');
  });

  it('finds a key split across text_delta events by the text they assemble to', async () => {
    const file = await plant(testCassette([streamedExchange(`the key is ${KEY} ok`, 6)]));
    const error = await readCassette(file).catch((thrown: unknown) => thrown);
    expect((error as FixtureError).code).toBe('fixture_secret');
    expect((error as Error).message).toContain(
      'the text streamed in exchanges[0] content block 0 text contains an sk-ant- API key',
    );
  });

  it("finds a key split between a block's start and its deltas, as the client joins them", async () => {
    const exchange = streamedExchange(KEY.slice(12), 6);
    if (!('events' in exchange.response)) throw new Error('expected a streamed response');
    const blockStart = exchange.response.events[0]?.data as { content_block: { text: string } };
    blockStart.content_block.text = KEY.slice(0, 12);
    const file = await plant(testCassette([exchange]));
    const error = await readCassette(file).catch((thrown: unknown) => thrown);
    expect((error as FixtureError).code).toBe('fixture_secret');
    expect((error as Error).message).toContain(
      'the text streamed in exchanges[0] content block 0 text contains an sk-ant- API key',
    );
  });

  it('finds a key split across Chat Completions chunks (content and tool-call arguments)', async () => {
    const chunk = (delta: object) => ({
      event: 'message',
      data: { choices: [{ index: 0, delta }] },
    });
    const pieces = `the key is ${KEY} ok`.match(/[\s\S]{1,5}/g) ?? [];
    for (const toDelta of [
      (piece: string) => ({ content: piece }),
      (piece: string) => ({ tool_calls: [{ index: 0, function: { arguments: piece } }] }),
    ]) {
      const exchange = streamedExchange('', 5);
      if (!('events' in exchange.response)) throw new Error('expected a streamed response');
      exchange.response.events = [...pieces.map((piece) => chunk(toDelta(piece)))];
      const file = await plant(testCassette([exchange]));
      const error = await readCassette(file).catch((thrown: unknown) => thrown);
      expect((error as FixtureError).code).toBe('fixture_secret');
      expect((error as Error).message).toMatch(
        /the text streamed in exchanges\[0\] choice 0 delta\.(content|tool_calls\[0\]\.function\.arguments) contains an sk-ant- API key/,
      );
    }
  });

  it('finds a key split across Responses API events: text, refusal, reasoning and argument deltas', async () => {
    const pieces = `the key is ${KEY} ok`.match(/[\s\S]{1,5}/g) ?? [];
    const escaped = `{"note":"${KEY.replace('api03', '\\u0061pi03')}"}`.match(/[\s\S]{1,7}/g) ?? [];
    const cases: Array<[string[], (piece: string, at: number) => Record<string, unknown>]> = [
      [
        pieces,
        (delta) => ({
          type: 'response.output_text.delta',
          item_id: 'msg_1',
          output_index: 0,
          content_index: 0,
          delta,
        }),
      ],
      [
        pieces,
        (delta, at) => ({
          type: at % 2 ? 'response.refusal.delta' : 'response.output_text.delta',
          item_id: 'msg_1',
          output_index: 0,
          delta,
        }),
      ],
      [
        pieces,
        (delta) => ({
          type: 'response.reasoning_summary_text.delta',
          item_id: 'rs_1',
          output_index: 0,
          summary_index: 0,
          delta,
        }),
      ],
      [
        escaped,
        (delta) => ({
          type: 'response.function_call_arguments.delta',
          item_id: 'fc_1',
          output_index: 0,
          delta,
        }),
      ],
    ];
    for (const [parts, toData] of cases) {
      const exchange = streamedExchange('', 5);
      if (!('events' in exchange.response)) throw new Error('expected a streamed response');
      // A Responses API exchange: its findings are named as that API's reader names the place.
      exchange.request.path = '/v1/responses';
      exchange.response.events = parts.map((piece, at) => {
        const data = toData(piece, at);
        return { event: String(data.type), data };
      });
      const file = await plant(testCassette([exchange]));
      const error = await readCassette(file).catch((thrown: unknown) => thrown);
      expect((error as FixtureError).code).toBe('fixture_secret');
      expect((error as Error).message).toMatch(
        /the text streamed in exchanges\[0\] output item (msg|rs|fc)_1 delta contains an sk-ant- API key/,
      );
      expect((error as Error).message).not.toContain('PLANTED');
    }
  });

  it('finds a key split across any field of the chunks: reasoning, refusal, fields no client knows', async () => {
    // The break: an OpenAI key split across delta.reasoning / delta.refusal chunks was recorded,
    // replayed and passed verify. Every string field counts, at any depth, per field.
    const openAiKey = 'sk-proj-PLANTED0123456789abcdefghij';
    const pieces = `the key is ${openAiKey} ok`.match(/[\s\S]{1,4}/g) ?? [];
    const fields: Array<[string, (piece: string) => object]> = [
      ['delta.reasoning', (piece) => ({ delta: { reasoning: piece } })],
      ['delta.refusal', (piece) => ({ delta: { refusal: piece } })],
      ['delta.reasoning_content', (piece) => ({ delta: { reasoning_content: piece } })],
      ['delta.audio.transcript', (piece) => ({ delta: { audio: { transcript: piece } } })],
      [
        'logprobs.content[].token',
        (piece) => ({ delta: {}, logprobs: { content: [{ token: piece }] } }),
      ],
    ];
    for (const [field, choice] of fields) {
      const exchange = streamedExchange('', 5);
      if (!('events' in exchange.response)) throw new Error('expected a streamed response');
      // Interleaved with content chunks: each field is joined on its own, as a client joins it.
      exchange.response.events = pieces.flatMap((piece) => [
        { event: 'message', data: { choices: [{ index: 0, ...choice(piece) }] } },
        { event: 'message', data: { choices: [{ index: 0, delta: { content: 'x' } }] } },
      ]);
      const file = await plant(testCassette([exchange]));
      const error = await readCassette(file).catch((thrown: unknown) => thrown);
      expect([field, (error as FixtureError).code]).toEqual([field, 'fixture_secret']);
      expect((error as Error).message).toContain(
        `the text streamed in exchanges[0] choice 0 ${field} contains an sk- secret key`,
      );
    }
  });

  it('finds a key split across nested fields of Messages events (a citation, a server tool result)', async () => {
    const pieces = KEY.match(/[\s\S]{1,5}/g) ?? [];
    const exchange = streamedExchange('', 5);
    if (!('events' in exchange.response)) throw new Error('expected a streamed response');
    exchange.response.events = pieces.map((piece) => ({
      event: 'content_block_delta',
      data: {
        type: 'content_block_delta',
        index: 1,
        delta: { type: 'citations_delta', citation: { type: 'char_location', cited_text: piece } },
      },
    }));
    const file = await plant(testCassette([exchange]));
    const error = await readCassette(file).catch((thrown: unknown) => thrown);
    expect((error as FixtureError).code).toBe('fixture_secret');
    expect((error as Error).message).toContain(
      'the text streamed in exchanges[0] content block 1 citation.cited_text contains an sk-ant- API key',
    );
  });

  // Fake keys in the providers' shapes, assembled so that no real-looking key sits in this file.
  const SHAPES: Array<[string, string]> = [
    ['an sk- secret key', `sk-proj-${'Ab3dEf6hIj9kLm2nOp5q'.repeat(3)}`],
    ['an AWS access key id', `AKIA${'IOSFODNN7EXAMPLE'}`],
    ['an AWS temporary or role key id', `ASIA${'IOSFODNN7EXAMPLE'}`],
    [
      'an AWS secret access key',
      `aws_secret_access_key = ${'wJalrXUtnFEMI/K7MDENG+bPxRfiCY'}EXAMPLEKEY`,
    ],
    ['a GitHub token', `ghp_${'aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789'}`],
    ['a GitHub fine-grained token', `github_pat_${'11ABCDEFG0aBcDeFgHiJkL_mNoPqRsTuVwXyZ01234'}`],
    ['a Slack token', `xoxb-${'123456789012-1234567890123-aBcDeFgHiJkL'}`],
    ['a Slack webhook URL', `https://hooks.slack.com/services/${'T0000/B0000/XXXXXXXXXXXXXXXX'}`],
    ['a Google API key', `AIza${'SyA-1234567890abcdefghijklmnopqrstu'}`],
    [
      'a PEM private key',
      `-----BEGIN ${'RSA PRIVATE'} KEY-----\nMIIEpAIBAAKCAQEA\n-----END ${'RSA PRIVATE'} KEY-----`,
    ],
  ];

  it('refuses the key shapes of other providers (OpenAI, AWS, GitHub, Slack, Google, PEM)', async () => {
    for (const [rule, key] of SHAPES) {
      const file = await plant(testCassette([textExchange('hi', `here: ${key} ok`)]));
      const error = await readCassette(file).catch((thrown: unknown) => thrown);
      expect([rule, (error as FixtureError).code]).toEqual([rule, 'fixture_secret']);
      expect((error as Error).message).toContain(`contains ${rule}`);
    }
  });

  it('refuses a key base64-encoded (at any alignment, standard or URL-safe) or URL-encoded', async () => {
    const encodings: Array<[string, (text: string) => string]> = [
      ['base64', (text) => Buffer.from(text).toString('base64')],
      ['base64', (text) => Buffer.from(text).toString('base64url')],
      ['base64', (text) => `xyz${Buffer.from(`ab${text}`).toString('base64')}`],
      ['URL-encoded', (text) => [...text].map((c) => `%${c.charCodeAt(0).toString(16)}`).join('')],
      [
        'base64',
        (text) => Buffer.from(encodeURIComponent(text).replaceAll('-', '%2D')).toString('base64'),
      ],
    ];
    for (const [key, [how, encode]] of [KEY, SHAPES[4]![1]].flatMap((k) =>
      encodings.map((encoding) => [k, encoding] as const),
    )) {
      const file = await plant(
        testCassette([textExchange('hi', `blob: ${encode(`the key ${key}`)}`)]),
      );
      const error = await readCassette(file).catch((thrown: unknown) => thrown);
      expect([how, (error as FixtureError).code]).toEqual([how, 'fixture_secret']);
      expect((error as Error).message).toContain(`(${how})`);
    }
  });

  it('still reads base64 and percent-encoded text that holds no key (ids, images, URLs)', async () => {
    const file = await plant(
      testCassette([
        textExchange(
          'hi',
          `id msg_01AbCdEfGhIjKlMnOpQrStUvWx, ${Buffer.from('just a sentence, nothing secret here').toString('base64')}, ${randomBase64()}, https://example.test/a%20b?q=%E2%9C%93`,
        ),
      ]),
    );
    await expect(readCassette(file)).resolves.toBeDefined();
  });

  it('replays such a cassette as a problem with the re-record command: the run never starts', async () => {
    const file = await plant(testCassette([textExchange('hi', `here: ${KEY}`)]));
    let ran = false;
    const result = await server.replay(
      {
        file,
        label: { task: 'T1', variant: 'upgraded', trial: counter },
        rerecordCommand: RERECORD,
      },
      async () => {
        ran = true;
        return 'passed';
      },
    );
    expect(ran).toBe(false);
    expect(result.value).toBeUndefined();
    expect(result.problem?.code).toBe('fixture_secret');
    expect(result.problem?.message).toContain(`${displayPath(file)} holds a credential (task T1`);
    expect(result.problem?.message).toContain(`re-record: ${RERECORD}`);
  });

  it('still reads an ordinary streamed cassette', async () => {
    const file = await plant(testCassette([streamedExchange('sk- is not a key; 6222****3445', 4)]));
    expect((await readCassette(file)).exchanges).toHaveLength(1);
  });

  it('finds a key spelled with JSON escapes in streamed tool input (input_json_delta)', async () => {
    // "\\u0061" is "a": the client decodes the partial JSON to the real key.
    const escaped = KEY.replace('api03', '\\u0061pi03');
    for (const size of [200, 4]) {
      const pieces =
        `{"order_id":"ORD1001","note":"${escaped}"}`.match(new RegExp(`[^]{1,${size}}`, 'g')) ?? [];
      const exchange = streamedExchange('', 5);
      if (!('events' in exchange.response)) throw new Error('expected a streamed response');
      exchange.response.events = pieces.map((partial_json) => ({
        event: 'content_block_delta',
        data: {
          type: 'content_block_delta',
          index: 0,
          delta: { type: 'input_json_delta', partial_json },
        },
      }));
      const file = await plant(testCassette([exchange]));
      const error = await readCassette(file).catch((thrown: unknown) => thrown);
      expect((error as FixtureError).code).toBe('fixture_secret');
      expect((error as Error).message).toContain(
        'the text streamed in exchanges[0] content block 0 partial_json contains an sk-ant- API key',
      );
    }
  });

  it('finds a key in Chat Completions tool-call arguments spelled with \\u escapes', async () => {
    const exchange = streamedExchange('', 5);
    if (!('events' in exchange.response)) throw new Error('expected a streamed response');
    const args = `{"note":"${KEY.replace(/-/g, '\\u002d')}"}`;
    exchange.response.events = [
      {
        event: 'message',
        data: {
          choices: [
            { index: 0, delta: { tool_calls: [{ index: 0, function: { arguments: args } }] } },
          ],
        },
      },
    ];
    const file = await plant(testCassette([exchange]));
    const error = await readCassette(file).catch((thrown: unknown) => thrown);
    expect((error as FixtureError).code).toBe('fixture_secret');
  });

  it('finds a key a hand-edited file spells with \\u escapes in an ordinary JSON string', async () => {
    const file = await plant(testCassette([textExchange('hi', 'KEY-GOES-HERE')]));
    const text = await readFile(file, 'utf8');
    await writeFile(file, text.replace('KEY-GOES-HERE', KEY.replace('sk-ant', '\\u0073k-ant')));
    const error = await readCassette(file).catch((thrown: unknown) => thrown);
    expect((error as FixtureError).code).toBe('fixture_secret');
    expect((error as Error).message).not.toContain('PLANTED');
  });

  it('still reads streamed tool input with ordinary escapes (quotes, newlines, non-ASCII)', async () => {
    const exchange = streamedExchange('', 5);
    if (!('events' in exchange.response)) throw new Error('expected a streamed response');
    exchange.response.events = [
      {
        event: 'content_block_delta',
        data: {
          type: 'content_block_delta',
          index: 0,
          delta: {
            type: 'input_json_delta',
            partial_json: '{"note":"say \\"hi\\"\\n\\u00e9t\\u00e9 sk- \\\\u0061"}',
          },
        },
      },
    ];
    const file = await plant(testCassette([exchange]));
    expect((await readCassette(file)).exchanges).toHaveLength(1);
  });
});

describe('writeCassette: a key spelled with JSON escapes is still a key', () => {
  it('refuses streamed tool input whose partial JSON spells a key with \\u escapes, and writes nothing', async () => {
    const escaped = KEY.replace('api03', '\\u0061pi03');
    const exchange = streamedExchange('', 5);
    if (!('events' in exchange.response)) throw new Error('expected a streamed response');
    exchange.response.events = [
      {
        event: 'content_block_delta',
        data: {
          type: 'content_block_delta',
          index: 0,
          delta: { type: 'input_json_delta', partial_json: `{"note":"${escaped}"}` },
        },
      },
    ];
    const file = cassettePath(root, 'T9', 'upgraded', 1);
    const error = await writeCassette(file, testCassette([exchange])).catch(
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(SecretLeakError);
    expect((error as Error).message).not.toContain('PLANTED');
    await expect(readFile(file)).rejects.toThrow(/ENOENT/);
  });
});
