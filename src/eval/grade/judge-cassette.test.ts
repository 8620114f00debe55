import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import type { FixtureError } from '../../core/errors.js';
import { readJudgeCassette } from './judge-cassette.js';

const committed = fileURLToPath(
  new URL('../../../fixtures/T7/upgraded/trial-1.judge.json', import.meta.url),
);
const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A copy of a committed judge cassette, its JSON changed by `edit` (the hash left as it was). */
function copyWith(
  edit: (data: Record<string, unknown> & { judgments: never[] }) => string,
): string {
  const dir = mkdtempSync(join(tmpdir(), 'judge-cassette-'));
  made.push(dir);
  const file = join(dir, 'trial-1.judge.json');
  cpSync(committed, file);
  writeFileSync(file, edit(JSON.parse(readFileSync(file, 'utf8'))));
  return file;
}

// A judge's verdict decides a trial as much as the agent's answer: its cassette is sealed too.
describe('readJudgeCassette: the content hash', () => {
  it('refuses an edited verdict, or a judge cassette with no hash, as fixture_edited', () => {
    const edited = copyWith((data) =>
      JSON.stringify(data)
        .replace('"label":"pass"', '"label":"fail"')
        .replace('"label\\":\\"pass', '"label\\":\\"fail'),
    );
    const error = (() => {
      try {
        readJudgeCassette(edited);
      } catch (thrown) {
        return thrown as FixtureError;
      }
      return undefined;
    })();
    expect(error?.code).toBe('fixture_edited');
    expect(error?.message).toMatch(/its content no longer matches the contentHash/);
    const unhashed = copyWith(({ contentHash: _hash, ...rest }) => JSON.stringify(rest));
    expect(() => readJudgeCassette(unhashed)).toThrow(/it holds no contentHash/);
  });

  it('reads a re-indented copy with the same hash', () => {
    const { hash } = readJudgeCassette(committed);
    expect(hash).toMatch(/^sha256:[0-9a-f]{64}$/);
    const compact = copyWith((data) => JSON.stringify(data));
    expect(readJudgeCassette(compact).hash).toBe(hash);
  });
});
