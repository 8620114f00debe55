import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError } from '../core/errors.js';
import { readCassette } from '../replay/cassette-file.js';
import { cassetteHash } from '../replay/cassette-hash.js';
import { verifyCassette, verifyFixtures } from './verify-fixtures.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const committed = join(root, 'fixtures/T1/upgraded/trial-1.json');
const dirs: string[] = [];

/** The parts of a cassette's JSON these tests edit (JSON responses of the refund desk). */
interface EditableCassette {
  meta: Record<string, unknown>;
  exchanges: Array<{ response: { body: { content: Array<{ type: string; text?: string }> } } }>;
}

/** A project folder holding a copy of one committed cassette, to edit freely. */
function projectWith(edit?: (cassette: EditableCassette) => void): {
  dir: string;
  file: string;
} {
  const dir = mkdtempSync(join(tmpdir(), 'verify-fixtures-'));
  dirs.push(dir);
  const file = join(dir, 'fixtures/T1/upgraded/trial-1.json');
  cpSync(committed, file);
  if (edit) {
    const cassette = JSON.parse(readFileSync(file, 'utf8'));
    edit(cassette);
    writeFileSync(file, `${JSON.stringify(cassette, null, 2)}\n`);
  }
  return { dir, file };
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** The last exchange's answer text: no later request carries it, so replay cannot see an edit. */
function editFinalAnswer(cassette: EditableCassette): void {
  const block = cassette.exchanges
    .at(-1)
    ?.response.body.content.find((item) => item.type === 'text');
  if (!block?.text?.includes('Overdue'))
    throw new Error('the fixture changed: no Overdue answer to edit');
  block.text = block.text.replace('Overdue', 'On time');
}

describe('verifyFixtures', () => {
  it('re-derives every committed simulator cassette from its requests and seeds', async () => {
    const verdicts = await verifyFixtures({ projectDir: root, tasks: ['T1', 'D1'] });
    expect(verdicts.length).toBeGreaterThanOrEqual(20);
    expect(verdicts.filter((verdict) => verdict.problems.length > 0)).toEqual([]);
    expect(verdicts.filter((verdict) => verdict.notRederived)).toEqual([]);
  });

  it('does not flag a cassette that a model script answered (no built-in policy answers it)', async () => {
    // A project's own agent, recorded with its model script: the built-in policies know nothing of it.
    const { dir } = projectWith((cassette) => {
      const exchanges = cassette.exchanges as unknown as Array<{
        request: { body: { tools: Array<{ name: string }> } };
      }>;
      for (const exchange of exchanges) {
        for (const tool of exchange.request.body.tools) tool.name = `weather_${tool.name}`;
      }
    });
    const [verdict] = await verifyFixtures({ projectDir: dir });
    expect(verdict).toMatchObject({ problems: [], notRederived: true, source: 'simulator' });
  });

  it('flags a hand-edited final answer in a copy of a cassette', async () => {
    const { dir } = projectWith(editFinalAnswer);
    const [verdict] = await verifyFixtures({ projectDir: dir });
    expect(verdict?.fixture).toBe('fixtures/T1/upgraded/trial-1.json');
    expect(verdict?.problems).toHaveLength(1);
    expect(verdict?.problems[0]).toMatch(
      /^exchange \d+: the response differs from what the simulator derives from the request and seed T1\/upgraded\/1$/,
    );
  });

  it('flags a credential and a broken schema', async () => {
    const leaked = projectWith((cassette) => {
      cassette.exchanges[0]?.response.body.content.push({
        type: 'text',
        text: `sk-ant-${'a'.repeat(20)}`,
      });
    });
    const [withKey] = await verifyFixtures({ projectDir: leaked.dir });
    expect(withKey?.problems[0]).toMatch(/contains an sk-ant- API key/);
    const broken = projectWith((cassette) => {
      delete cassette.meta.model;
    });
    const [corrupt] = await verifyFixtures({ projectDir: broken.dir });
    expect(corrupt?.problems[0]).toMatch(/meta\.model/);
  });

  it('names a cassette with a value nested 100,000 levels deep instead of overflowing the stack', async () => {
    const { dir, file } = projectWith();
    const text = readFileSync(file, 'utf8');
    const nested = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    writeFileSync(file, text.replace('"body": {', `"body": {"extra": ${nested}, `));
    const verdicts = await verifyFixtures({ projectDir: dir });
    expect(verdicts).toHaveLength(1);
    expect(verdicts[0]?.fixture).toBe('fixtures/T1/upgraded/trial-1.json');
    expect(verdicts[0]?.problems).toEqual([
      expect.stringMatching(
        /trial-1\.json: exchanges\.0\.request\.body\.extra\.0\.0\.0\.0\.0\.0\.0\.0… nests deeper than 1000 levels/,
      ),
    ]);
  });

  it('checks a live cassette against the hash the reference replayed', async () => {
    const { file } = projectWith((cassette) => {
      cassette.meta.source = 'live';
      cassette.meta.host = 'api.anthropic.com';
    });
    const hash = cassetteHash(await readCassette(file));
    const ok = await verifyCassette(file, { shown: 'live.json', referenceHash: hash });
    expect(ok).toEqual({ fixture: 'live.json', source: 'live', problems: [] });
    const changed = await verifyCassette(file, {
      shown: 'live.json',
      referenceHash: 'f'.repeat(64),
    });
    expect(changed.problems[0]).toMatch(
      /content hash is not the one reports\/reference\.json replayed/,
    );
  });

  it('marks a live cassette the reference has no hash for as unchecked, not as matching', async () => {
    // A simulator cassette with an edited answer, relabelled live: nothing can re-derive it now.
    const { dir } = projectWith((cassette) => {
      editFinalAnswer(cassette);
      cassette.meta.source = 'live';
      cassette.meta.host = 'api.anthropic.com';
    });
    const [verdict] = await verifyFixtures({ projectDir: dir, reference: [] });
    expect(verdict).toMatchObject({ source: 'live', problems: [], unchecked: true });
  });

  it('checks a model-script cassette against the hash the reference replayed', async () => {
    const { dir, file } = projectWith((cassette) => {
      const exchanges = cassette.exchanges as unknown as Array<{
        request: { body: { tools: Array<{ name: string }> } };
      }>;
      for (const exchange of exchanges) {
        for (const tool of exchange.request.body.tools) tool.name = `weather_${tool.name}`;
      }
    });
    const hash = cassetteHash(await readCassette(file));
    const reference = (cassetteHash: string) => [
      { task: 'T1', variant: 'upgraded', trial: 1, cassetteHash } as never,
    ];
    const [same] = await verifyFixtures({ projectDir: dir, reference: reference(hash) });
    expect(same).toMatchObject({ problems: [], notRederived: true });
    const [edited] = await verifyFixtures({
      projectDir: dir,
      reference: reference('f'.repeat(64)),
    });
    expect(edited?.problems[0]).toMatch(
      /content hash is not the one reports\/reference\.json replayed/,
    );
  });
});

describe('verifyFixtures: the selection', () => {
  it('checks only the variants and trial numbers asked for', async () => {
    const verdicts = await verifyFixtures({
      projectDir: root,
      tasks: ['t2'],
      variants: ['upgraded'],
      trialNumbers: [2, 3],
    });
    expect(verdicts.map((verdict) => verdict.fixture)).toEqual([
      'fixtures/T2/upgraded/trial-2.json',
      'fixtures/T2/upgraded/trial-3.json',
    ]);
  });

  it('lists a selected trial that has no cassette as not matching', async () => {
    const verdicts = await verifyFixtures({
      projectDir: root,
      tasks: ['T2'],
      variants: ['upgraded'],
      trialNumbers: [5, 9],
    });
    expect(verdicts.map((verdict) => [verdict.fixture, verdict.problems])).toEqual([
      ['fixtures/T2/upgraded/trial-5.json', []],
      [
        'fixtures/T2/upgraded/trial-9.json',
        ['no such cassette: record it (npm run record -- --task T2 --variant upgraded --trial 9)'],
      ],
    ]);
  });

  it.each([
    [
      { tasks: ['T9'] },
      /^--task T9 matches no cassette under fixtures\/: the tasks with cassettes are D1, D2, D3, D3a, T1, /,
    ],
    [{ tasks: ['T1', 'T9'] }, /^--task T9 matches no cassette/],
    [
      { variants: ['upgradde'] },
      /^--variant upgradde matches no cassette under fixtures\/: the variants with cassettes are baseline, upgraded$/,
    ],
    [{ tasks: ['T1'], variants: ['nope'] }, /^--variant nope matches no cassette/],
  ])('refuses a selection naming what has no cassette (%j)', async (selection, message) => {
    const error = await verifyFixtures({ projectDir: root, ...selection }).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toMatch(message);
  });

  it('refuses a project with no cassettes at all', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'verify-fixtures-'));
    dirs.push(dir);
    await expect(verifyFixtures({ projectDir: dir })).rejects.toThrow(
      /^no cassettes under fixtures\/ to verify: record some first \(npm run record\)$/,
    );
  });
});
