import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
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
});
