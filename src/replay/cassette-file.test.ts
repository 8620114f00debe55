import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { canonicalJson } from '../core/canonical-json.js';
import { FixtureError, SecretLeakError } from '../core/errors.js';
import { type Cassette, cassettePath } from './cassette.js';
import { displayPath, readCassette, writeCassette } from './cassette-file.js';
import { cassetteHash } from './cassette-hash.js';
import { resealed, testCassette, textExchange } from './testing/cassettes.js';

let root: string;
beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'cassette-file-'));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});
afterEach(() => {
  vi.unstubAllEnvs();
});

let counter = 0;
/** A new cassette path in a folder that exists (tests run in any order: vitest --sequence.shuffle). */
const freshFile = () => {
  const file = cassettePath(root, 'T1', 'upgraded', ++counter);
  mkdirSync(path.dirname(file), { recursive: true });
  return file;
};

async function expectFixtureError(file: string, code: string): Promise<FixtureError> {
  const error = await readCassette(file).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(FixtureError);
  expect((error as FixtureError).code).toBe(code);
  return error as FixtureError;
}

describe('cassettePath', () => {
  it('puts the task, variant and trial in the path', () => {
    expect(cassettePath('fixtures', 'T1', 'upgraded', 2)).toBe(
      path.join('fixtures', 'T1', 'upgraded', 'trial-2.json'),
    );
  });
});

describe('displayPath', () => {
  it('shows files under the working directory relative to it', () => {
    const file = path.join(process.cwd(), 'fixtures/T1/upgraded/trial-2.json');
    expect(displayPath(file)).toBe('fixtures/T1/upgraded/trial-2.json');
    expect(displayPath('/elsewhere/trial-1.json')).toBe('/elsewhere/trial-1.json');
  });
});

describe('readCassette', () => {
  it('reads back what writeCassette wrote', async () => {
    const file = freshFile();
    const cassette = testCassette([textExchange('hi', 'hello')]);
    await writeCassette(file, cassette);
    expect(await readCassette(file)).toEqual(cassette);
  });

  it('reports a missing file as fixture_missing', async () => {
    const error = await expectFixtureError(path.join(root, 'nope.json'), 'fixture_missing');
    expect(error.message).toBe(`${path.join(root, 'nope.json')} is missing`);
  });

  it('reports invalid JSON as fixture_corrupt naming the file', async () => {
    const file = freshFile();
    await writeCassette(file, testCassette([]));
    await writeFile(file, '{"version": 1, "meta": ');
    const error = await expectFixtureError(file, 'fixture_corrupt');
    expect(error.message).toMatch(new RegExp(`^${escapeRegExp(file)}: invalid JSON: `));
  });

  it('rejects another cassette version, naming the field', async () => {
    const file = freshFile();
    await writeCassette(file, testCassette([]));
    const data = JSON.parse(await readFile(file, 'utf8'));
    await writeFile(file, JSON.stringify({ ...data, version: 2 }));
    const error = await expectFixtureError(file, 'fixture_corrupt');
    expect(error.message).toBe(`${file}: version: expected 1`);
  });

  it('names the file and the field of a bad value inside a response', async () => {
    const file = freshFile();
    await writeCassette(file, testCassette([textExchange('hi', 'hello')]));
    const data = JSON.parse(await readFile(file, 'utf8'));
    data.exchanges[0].response.status = '200';
    await writeFile(file, JSON.stringify(data));
    const error = await expectFixtureError(file, 'fixture_corrupt');
    expect(error.message).toBe(
      `${file}: exchanges.0.response.status: expected number, received string`,
    );
  });

  it('refuses a latency no model call takes (over a day), naming the file and the field', async () => {
    // 1e16 ms moved the replay's virtual clock past the last Date: 'Invalid time value'.
    for (const [field, set] of [
      ['exchanges.0.latencyMs', (data: Cassette) => (data.exchanges[0]!.latencyMs = 1e16)],
      [
        'exchanges.0.retries.0.latencyMs',
        (data: Cassette) => (data.exchanges[0]!.retries = [{ status: 529, latencyMs: 86_400_001 }]),
      ],
    ] as const) {
      const file = freshFile();
      await writeCassette(file, testCassette([textExchange('hi', 'hello')]));
      const data = JSON.parse(await readFile(file, 'utf8'));
      set(data);
      await writeFile(file, JSON.stringify(data));
      const error = await expectFixtureError(file, 'fixture_corrupt');
      expect(error.message).toMatch(`${file}: ${field}: `);
      expect(error.message).toContain('86400000');
    }
  });

  it('names the field of a bad SSE event rather than the union', async () => {
    const file = freshFile();
    const exchange = textExchange('hi', 'hello');
    const sse = {
      ...exchange,
      response: { status: 200, headers: {}, events: [{ event: 7, data: {} }] },
    };
    await writeFile(file, JSON.stringify({ ...testCassette([]), exchanges: [sse] }));
    const error = await expectFixtureError(file, 'fixture_corrupt');
    expect(error.message).toContain('exchanges.0.response.events.0.event: expected string');
  });

  /** A cassette whose first request body holds `extra`, `depth` arrays (or objects) deep. */
  async function deepCassette(depth: number, kind: 'array' | 'object' = 'array'): Promise<string> {
    const file = freshFile();
    await writeCassette(file, testCassette([textExchange('hi', 'hello')]));
    const text = await readFile(file, 'utf8');
    // Built as text: JSON.stringify cannot write a value this deep.
    const [open, innermost, close] = kind === 'array' ? ['[', '[]', ']'] : ['{"a":', '{}', '}'];
    const nested = `${open.repeat(depth - 1)}${innermost}${close.repeat(depth - 1)}`;
    await writeFile(file, text.replace('"body": {', `"body": {"extra": ${nested}, `));
    return file;
  }

  it('refuses a value nested 100,000 levels deep as fixture_corrupt, naming the file and the path', async () => {
    const file = await deepCassette(100_000);
    const error = await expectFixtureError(file, 'fixture_corrupt');
    expect(error.message).toBe(
      `${file}: exchanges.0.request.body.extra.0.0.0.0.0.0.0.0… nests deeper than 1000 levels (a recorded cassette has a few dozen): restore the recorded cassette (git checkout) or re-record the trial`,
    );
  });

  it('counts objects as levels too, and reads a value exactly at the limit', async () => {
    // The cassette itself takes 4 levels (root, exchanges, exchange, request) and body a 5th.
    const objects = await deepCassette(996, 'object');
    const error = await expectFixtureError(objects, 'fixture_corrupt');
    expect(error.message).toContain('exchanges.0.request.body.extra.a.a.a.a.a.a.a.a… nests deeper');
    const atLimit = await deepCassette(995, 'object');
    // The content changed: its hash recomputed, so the depth is all that is tested.
    await writeFile(atLimit, resealed(JSON.parse(await readFile(atLimit, 'utf8'))));
    const cassette = await readCassette(atLimit);
    expect(JSON.stringify(cassette).length).toBeGreaterThan(995 * 5);
  });

  it('rejects a header outside the allow-list', async () => {
    const file = freshFile();
    const exchange = textExchange('hi', 'hello');
    const leaky = { ...exchange, request: { ...exchange.request, headers: { 'x-api-key': 'k' } } };
    await writeFile(file, JSON.stringify({ ...testCassette([]), exchanges: [leaky] }));
    const error = await expectFixtureError(file, 'fixture_corrupt');
    expect(error.message).toContain('exchanges.0.request.headers: Unrecognized key: "x-api-key"');
  });
});

describe('writeCassette', () => {
  it('writes version, meta, exchanges with sorted keys, 2-space indent and a final newline', async () => {
    const file = freshFile();
    await writeCassette(file, testCassette([textExchange('hi', 'hello')]));
    const text = await readFile(file, 'utf8');
    expect(text.endsWith('}\n')).toBe(true);
    expect(Object.keys(JSON.parse(text))).toEqual(['version', 'contentHash', 'meta', 'exchanges']);
    expect(text).toContain('\n  "meta": {\n    "host": "127.0.0.1:4000",\n    "model"');
    expect(text.indexOf('"latencyMs"')).toBeLessThan(text.indexOf('"request"'));
  });

  it('drops headers outside the allow-lists, whatever their case', async () => {
    const file = freshFile();
    const exchange = textExchange('hi', 'hello');
    const headers = {
      'Content-Type': 'application/json',
      'request-id': 'req_1',
      'set-cookie': 'a=b',
    };
    const cassette = testCassette([
      {
        ...exchange,
        response: {
          ...exchange.response,
          headers: headers as unknown as Record<'content-type', string>,
        },
      },
    ]);
    await writeCassette(file, cassette);
    expect((await readCassette(file)).exchanges[0]?.response.headers).toEqual({
      'content-type': 'application/json',
    });
  });

  const leaks: Array<[string, (cassette: Cassette) => Cassette, string]> = [
    [
      'an sk-ant key in a response body',
      (c) => withAnswer(c, 'key: sk-ant-api03-abcdefghij'),
      'an sk-ant- API key',
    ],
    [
      'the ANTHROPIC_API_KEY value',
      (c) => withAnswer(c, 'key: live-key-0123456789'),
      'the ANTHROPIC_API_KEY value',
    ],
    [
      'a value passed in secrets',
      (c) => withAnswer(c, 'token "tok/en\\9876543"'),
      'secret #1 passed to the writer',
    ],
    [
      'an authorization header name',
      (c) => withAnswer(c, { authorization: 'Bearer x' }),
      'the authorization header name',
    ],
  ];

  it.each(leaks)('refuses %s, writes nothing and keeps the old file', async (_, plant, rule) => {
    vi.stubEnv('ANTHROPIC_API_KEY', 'live-key-0123456789');
    const file = freshFile();
    await writeCassette(file, testCassette([textExchange('hi', 'hello')]));
    const before = await readFile(file);
    const attempt = writeCassette(file, plant(testCassette([textExchange('hi', 'hello')])), {
      secrets: ['tok/en\\9876543'],
    });
    await expect(attempt).rejects.toThrow(SecretLeakError);
    await expect(attempt).rejects.toThrow(
      new RegExp(`line \\d+ contains ${rule}; nothing was written`),
    );
    expect(await readFile(file)).toEqual(before);
    const temps = (await readdir(path.dirname(file))).filter((name) => name.endsWith('.tmp'));
    expect(temps).toEqual([]);
  });

  it('never prints the secret it refused', async () => {
    const attempt = writeCassette(
      freshFile(),
      withAnswer(testCassette([textExchange('hi', '')]), 'sk-ant-api03-abcdefghij'),
    );
    await expect(attempt).rejects.toThrow(SecretLeakError);
    await attempt.catch((error: Error) => expect(error.message).not.toContain('abcdefghij'));
  });

  it('ignores secrets too short to be told apart from ordinary text', async () => {
    vi.stubEnv('ANTHROPIC_API_KEY', 'x');
    const file = freshFile();
    await writeCassette(file, testCassette([textExchange('x marks the spot', 'ok')]), {
      secrets: ['ok'],
    });
    expect((await readCassette(file)).exchanges).toHaveLength(1);
  });
});

function withAnswer(cassette: Cassette, answer: unknown): Cassette {
  const [first] = cassette.exchanges;
  if (!first) throw new Error('test cassette needs an exchange');
  return {
    ...cassette,
    exchanges: [{ ...first, response: { status: 200, headers: {}, body: answer } }],
  };
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

describe('cassetteHash', () => {
  const sha256 = (text: string) => `sha256:${createHash('sha256').update(text).digest('hex')}`;

  it('is sha256 of the canonical content, written into the file as contentHash', async () => {
    const file = freshFile();
    const cassette = testCassette([textExchange('hi', 'hello')]);
    await writeCassette(file, cassette);
    const read = await readCassette(file);
    const { version, meta, exchanges } = read;
    expect(cassetteHash(read)).toBe(sha256(canonicalJson({ version, meta, exchanges })));
    expect(cassetteHash(cassette)).toBe(cassetteHash(read));
    expect(JSON.parse(await readFile(file, 'utf8')).contentHash).toBe(cassetteHash(read));
  });

  it('stays the same when the file is re-indented or its keys reordered', async () => {
    // The break: re-indenting changed every hash, and every row left the exact gate.
    const file = freshFile();
    await writeCassette(file, testCassette([textExchange('hi', 'hello')]));
    const canonical = cassetteHash(await readCassette(file));
    const data = JSON.parse(await readFile(file, 'utf8'));
    for (const text of [
      JSON.stringify(data),
      JSON.stringify(
        { exchanges: data.exchanges, meta: data.meta, contentHash: data.contentHash, version: 1 },
        null,
        '\t',
      ),
    ]) {
      await writeFile(file, text);
      expect(cassetteHash(await readCassette(file))).toBe(canonical);
    }
  });

  it('is refused on read when the content changed, missing, or not a sha256 hash', async () => {
    const file = freshFile();
    await writeCassette(file, testCassette([textExchange('hi', 'hello')]));
    const data = JSON.parse(await readFile(file, 'utf8'));
    data.exchanges[0].response.body.content[0].text = 'edited';
    await writeFile(file, JSON.stringify(data));
    const edited = await expectFixtureError(file, 'fixture_edited');
    expect(edited.message).toMatch(
      /: its content no longer matches the contentHash it was recorded with \(sha256:[0-9a-f]{12}…, now sha256:[0-9a-f]{12}…\): it was changed after recording; restore the recorded file \(git checkout\) or re-record the trial; a cassette is never edited by hand$/,
    );
    for (const [contentHash, message] of [
      [undefined, 'it holds no contentHash'],
      ['abc', 'its contentHash is not a sha256:<64 hex digits> hash'],
    ] as const) {
      await writeFile(file, JSON.stringify({ ...data, contentHash }));
      expect((await expectFixtureError(file, 'fixture_edited')).message).toContain(message);
    }
  });
});

describe('cassetteHash blind spots', () => {
  /** A recorded cassette's text, edited as text, its recorded contentHash left as it was. */
  async function editedText(edit: (text: string) => string): Promise<string> {
    const file = freshFile();
    const exchange = textExchange('hi', 'hello');
    Object.assign((exchange.response as { body: object }).body, { stop_sequence: null });
    await writeCassette(file, testCassette([exchange]));
    const text = await readFile(file, 'utf8');
    const edited = edit(text);
    expect(edited).not.toBe(text);
    await writeFile(file, edited);
    return file;
  }

  it('sees a "__proto__" key added to a response body or a tool input as an edit', async () => {
    for (const edit of [
      (text: string) =>
        text.replace('"role": "assistant"', '"__proto__": {"x": 1}, "role": "assistant"'),
      (text: string) =>
        text.replace('"text": "hello"', '"__proto__": {"amount": 5000}, "text": "hello"'),
      (text: string) => text.replace('"max_tokens": 256', '"__proto__": null, "max_tokens": 256'),
    ]) {
      await expectFixtureError(await editedText(edit), 'fixture_edited');
    }
  });

  it('refuses 1e400 in place of null, and a number that replays as another one', async () => {
    for (const [edit, message] of [
      [
        (text: string) => text.replace('"stop_sequence": null', '"stop_sequence": 1e400'),
        'the number 1e400 is out of range',
      ],
      [
        (text: string) => text.replace('"max_tokens": 256', '"max_tokens": 256.00000000000000001'),
        'has more digits than a double holds',
      ],
    ] as const) {
      const error = await expectFixtureError(await editedText(edit), 'fixture_corrupt');
      expect(error.message).toMatch(/trial-\d+\.json: line \d+: /);
      expect(error.message).toContain(message);
      expect(error.message).toContain(
        'restore the recorded cassette (git checkout) or re-record the trial',
      );
    }
  });

  it('refuses a key given twice, which a reviewer reads one way and JSON.parse another', async () => {
    const file = await editedText((text) =>
      text.replace('"text": "hello"', '"text": "refund approved", "text": "hello"'),
    );
    expect((await expectFixtureError(file, 'fixture_corrupt')).message).toContain(
      'the key "text" appears twice',
    );
  });

  it('reads other spellings of the same number (1E2, -0) as the same content, as replay sends it', async () => {
    const file = await editedText((text) =>
      text.replace('"max_tokens": 256', '"max_tokens": 2.56E2'),
    );
    expect(JSON.stringify((await readCassette(file)).exchanges[0]?.request.body)).toContain(
      '"max_tokens":256',
    );
  });
});
