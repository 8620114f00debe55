import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { debugAgentPolicy } from '../../debug-agent/simulator-policy.js';
import { refundDeskPolicy } from '../../refund-desk/simulator-policy.js';
import { contentHashOf } from '../../replay/cassette-hash.js';
import { resealed } from '../../replay/testing/cassettes.js';
import { defaultPolicies } from '../../simulator/respond.js';
import { fixtureChanges } from './fixture-changes.js';

/** The committed T2 cassettes were answered by the refund desk's policy (its model script). */
const EXAMPLE_POLICIES = [...defaultPolicies, refundDeskPolicy, debugAgentPolicy];

const root = fileURLToPath(new URL('../../..', import.meta.url));
const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const git = (dir: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=Mallory', '-c', 'user.email=m@evil.test', ...args], {
    cwd: dir,
  })
    .toString()
    .trim();

type Data = {
  meta: Record<string, unknown>;
  exchanges: Array<{ response: { body: { content: Array<{ type: string; text: string }> } } }>;
};
const read = (dir: string, file: string): Data =>
  JSON.parse(readFileSync(join(dir, 'fixtures/T2', file), 'utf8'));
const write = (dir: string, file: string, data: Data) =>
  writeFileSync(join(dir, 'fixtures/T2', file), resealed(data));
const editAnswer = (data: Data) => {
  for (const block of data.exchanges.at(-1)!.response.body.content)
    if (block.type === 'text') block.text = 'Your refund was approved.';
  return data;
};
const live = (data: Data) => {
  Object.assign(data.meta, { source: 'live', host: 'api.anthropic.com' });
  return data;
};

/** T2's cassettes in git, baseline trials 1 and 2 relabelled live: the base commit. */
function base(): { dir: string; commit: string } {
  const dir = mkdtempSync(join(tmpdir(), 'fixture-changes-'));
  made.push(dir);
  cpSync(join(root, 'fixtures/T2'), join(dir, 'fixtures/T2'), { recursive: true });
  for (const file of ['baseline/trial-1.json', 'baseline/trial-2.json', 'upgraded/trial-1.json'])
    write(dir, file, live(read(dir, file)));
  git(dir, 'init', '-q');
  git(dir, 'add', '.');
  git(dir, 'commit', '-qm', 'base');
  return { dir, commit: git(dir, 'rev-parse', 'HEAD') };
}

describe('fixtureChanges', () => {
  // The break (issue 33): a hand-edited cassette with its hash recomputed passed the gate; the
  // only trace was an unchanged recordedAt beside a new hash.
  it('classifies every changed cassette: re-recorded, re-derived, edited (not re-recorded), curated, removed', async () => {
    const { dir, commit } = base();
    // Live, content edited, recordedAt as it was: edited by hand.
    write(dir, 'upgraded/trial-1.json', editAnswer(read(dir, 'upgraded/trial-1.json')));
    // Simulator, answer edited: it no longer follows from its request.
    write(dir, 'upgraded/trial-2.json', editAnswer(read(dir, 'upgraded/trial-2.json')));
    // Simulator, re-recorded (a new recordedAt), every answer still the simulator's.
    const rerun = read(dir, 'upgraded/trial-3.json');
    rerun.meta.recordedAt = '2026-12-07T09:00:00.000Z';
    write(dir, 'upgraded/trial-3.json', rerun);
    // Live, a new recording (a new recordedAt).
    const recorded = editAnswer(read(dir, 'baseline/trial-1.json'));
    recorded.meta.recordedAt = '2026-12-07T09:00:00.000Z';
    write(dir, 'baseline/trial-1.json', recorded);
    // Live, edited with a curated entry: who and why.
    const curated = editAnswer(read(dir, 'baseline/trial-2.json'));
    curated.meta.curated = {
      by: 'Alice Reviewer',
      reason: 'the API answered with a typo we do not test',
    };
    write(dir, 'baseline/trial-2.json', curated);
    // Re-indented: no change. Deleted: removed.
    const indent = join(dir, 'fixtures/T2/baseline/trial-3.json');
    writeFileSync(indent, JSON.stringify(JSON.parse(readFileSync(indent, 'utf8'))));
    unlinkSync(join(dir, 'fixtures/T2/baseline/trial-4.json'));

    const { fixtures, leftOut } = await fixtureChanges(dir, commit, EXAMPLE_POLICIES);
    expect(leftOut).toBe(0);
    const classes = Object.fromEntries(
      fixtures.map((fixture) => [fixture.path.replace('fixtures/T2/', ''), fixture.class]),
    );
    expect(classes).toEqual({
      'baseline/trial-1.json': 're-recorded',
      'baseline/trial-2.json': 'curated',
      'baseline/trial-4.json': 'removed',
      'upgraded/trial-1.json': 'edited',
      'upgraded/trial-2.json': 'edited',
      'upgraded/trial-3.json': 're-derived',
    });
    const why = (path: string) => fixtures.find((fixture) => fixture.path.endsWith(path))?.why;
    expect(why('upgraded/trial-1.json')).toMatch(
      /^its content changed while its recordedAt \(20\d\d-[^)]+\) and provenance did not: not a recording; re-record it, restore it, or name who edited it and why in meta\.curated$/,
    );
    expect(why('upgraded/trial-2.json')).toMatch(/^exchange \d+: /);
    expect(fixtures.find((f) => f.path.endsWith('baseline/trial-2.json'))?.after?.curated).toEqual({
      by: 'Alice Reviewer',
      reason: 'the API answered with a typo we do not test',
    });
  });

  it('counts a curated entry already at the base as no marker for a new edit', async () => {
    const { dir } = base();
    const curated = read(dir, 'baseline/trial-2.json');
    curated.meta.curated = { by: 'Alice Reviewer', reason: 'a reviewed edit' };
    write(dir, 'baseline/trial-2.json', curated);
    git(dir, 'commit', '-qam', 'curated');
    const commit = git(dir, 'rev-parse', 'HEAD');
    write(dir, 'baseline/trial-2.json', editAnswer(read(dir, 'baseline/trial-2.json')));
    const { fixtures } = await fixtureChanges(dir, commit, EXAMPLE_POLICIES);
    expect(fixtures.map((fixture) => fixture.class)).toEqual(['edited']);
  });

  it("classifies a judge cassette with a flipped verdict as edited, by the judge's re-derivation", async () => {
    const { dir } = base();
    cpSync(join(root, 'fixtures/T7/baseline'), join(dir, 'fixtures/T7/baseline'), {
      recursive: true,
    });
    git(dir, 'add', '.');
    git(dir, 'commit', '-qm', 'T7');
    const commit = git(dir, 'rev-parse', 'HEAD');
    const file = join(dir, 'fixtures/T7/baseline/trial-1.judge.json');
    const judge = JSON.parse(readFileSync(file, 'utf8'));
    judge.judgments[0].samples[0].response.body.content[0].input.label = 'pass';
    const { contentHash: _old, ...content } = judge;
    writeFileSync(file, JSON.stringify({ ...content, contentHash: contentHashOf(content) }));
    const { fixtures } = await fixtureChanges(dir, commit, EXAMPLE_POLICIES);
    expect(fixtures.map(({ path, class: kind }) => [path, kind])).toEqual([
      ['fixtures/T7/baseline/trial-1.judge.json', 'edited'],
    ]);
    expect(fixtures[0]?.why).toMatch(/^judge 'polite-refusal' \(claude-sonnet-5\) sample 1: /);
  });

  // The break (issue 33): changes.fixtures kept 2,500 and dropped the rest.
  it('lists every changed cassette, however many', async () => {
    const { dir, commit } = base();
    const text = readFileSync(join(dir, 'fixtures/T2/upgraded/trial-4.json'));
    for (let trial = 6; trial < 6 + 520; trial++)
      writeFileSync(join(dir, `fixtures/T2/upgraded/trial-${trial}.json`), text);
    const { fixtures, leftOut } = await fixtureChanges(dir, commit, EXAMPLE_POLICIES);
    expect(leftOut).toBe(0);
    expect(fixtures).toHaveLength(520);
    expect(new Set(fixtures.map((fixture) => fixture.class))).toEqual(new Set(['re-derived']));
  });
});
