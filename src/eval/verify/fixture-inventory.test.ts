import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError } from '../../core/errors.js';
import { inventoryFixtures } from './fixture-inventory.js';

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** fixtures/T1/baseline/trial-1.json, fixtures/T8/baseline/q1/trial-1.json, and a folder outside. */
function project(): { fixtures: string; outside: string } {
  const dir = mkdtempSync(join(tmpdir(), 'fixture-inventory-'));
  made.push(dir);
  const fixtures = join(dir, 'fixtures');
  for (const folder of ['T1/baseline', 'T8/baseline/q1']) {
    mkdirSync(join(fixtures, folder), { recursive: true });
    writeFileSync(join(fixtures, folder, 'trial-1.json'), '{}');
  }
  const outside = join(dir, 'elsewhere');
  mkdirSync(join(outside, 'upgraded'), { recursive: true });
  writeFileSync(join(outside, 'upgraded/trial-1.json'), '{}');
  writeFileSync(join(outside, 'trial-2.json'), '{}');
  return { fixtures, outside };
}

const refusal = (fixtures: string, includes?: () => boolean): string => {
  try {
    inventoryFixtures(fixtures, includes);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error('inventoryFixtures accepted a symlink under fixtures/');
};

describe('inventoryFixtures', () => {
  it('lists the trials of every variant folder and of every case folder', () => {
    const { fixtures } = project();
    expect(inventoryFixtures(fixtures)).toEqual(
      new Map([
        ['T1/baseline', [1]],
        ['T8/baseline/q1', [1]],
      ]),
    );
  });

  // The break (issue 33): verify skipped a symlinked fixtures/<task>/<variant> folder ("all
  // match") while eval followed it and replayed the cassettes behind it.
  it('refuses a symlink anywhere under fixtures/ (task, variant or case folder, cassette), whatever is selected', () => {
    const links: Array<[string, string]> = [
      ['T2', '.'],
      ['T1/upgraded', 'upgraded'],
      ['T8/baseline/q2', 'upgraded'],
      ['T1/baseline/trial-2.json', 'trial-2.json'],
      ['T1/baseline/trial-1.judge.json', 'trial-2.json'],
    ];
    for (const [at, target] of links) {
      const { fixtures, outside } = project();
      symlinkSync(join(outside, target), join(fixtures, at));
      const message = refusal(fixtures, () => false);
      expect(message).toBe(
        `fixtures/${at} is a symbolic link: cassettes are read only from the folders and files under fixtures/ themselves, so that record --verify, eval and the report read the same files; replace the link by the folder or file it points to (or remove it)`,
      );
    }
  });

  it("accepts fixtures/ itself as a link (a project that shares another checkout's fixtures)", () => {
    const { fixtures } = project();
    const linked = join(fixtures, '..', 'linked-fixtures');
    symlinkSync(fixtures, linked);
    expect(inventoryFixtures(linked).get('T1/baseline')).toEqual([1]);
  });
});
