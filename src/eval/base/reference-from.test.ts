import { execFileSync } from 'node:child_process';
import { cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { resealed } from '../../replay/testing/cassettes.js';
import {
  evalIn,
  projectWith,
  REPOSITORY_ROOT,
  readReport,
  removeEvalProjects,
  writeEval,
} from '../testing/hostile-eval-project.js';

// The break (issue 28): the gate compared against reports/reference.json from the PR's own
// checkout, so a PR could lower it. `--reference-from REF` reads it at the PR's base.

afterEach(() => {
  vi.restoreAllMocks();
  removeEvalProjects();
});

const run = (dir: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=Mallory', '-c', 'user.email=m@evil.test', ...args], {
    cwd: dir,
  })
    .toString()
    .trim();

/** A project in git: T2's cassettes copied in, its reference made, all committed as the base. */
async function baseProject(): Promise<{ project: string; base: string }> {
  const project = projectWith(writeEval(''));
  rmSync(join(project, 'fixtures'));
  cpSync(join(REPOSITORY_ROOT, 'fixtures/T2'), join(project, 'fixtures/T2'), { recursive: true });
  writeFileSync(join(project, '.gitignore'), 'dist\nnode_modules\nruns\nreports/latest.*\n');
  const made = await evalIn(project, ['--trials', '3', '--update-reference']);
  expect(made.code, made.stdout + made.stderr).toBe(0);
  run(project, 'init', '-q');
  run(project, 'add', '.');
  run(project, 'commit', '-qm', 'base');
  return { project, base: run(project, 'rev-parse', 'HEAD') };
}

/** The attack: T2 upgraded trial 1's answer emptied (its hash recomputed), the reference lowered to match. */
async function lowerInAPullRequest(project: string, curated = false): Promise<void> {
  const file = join(project, 'fixtures/T2/upgraded/trial-1.json');
  const cassette = JSON.parse(readFileSync(file, 'utf8'));
  if (curated) cassette.meta.curated = { by: 'Mallory', reason: 'an empty answer, on purpose' };
  for (const block of cassette.exchanges.at(-1).response.body.content) {
    if (block.type === 'text') block.text = '';
  }
  writeFileSync(file, resealed(cassette));
  // Re-indented only: the same content, not a change to list.
  const other = join(project, 'fixtures/T2/baseline/trial-2.json');
  writeFileSync(other, JSON.stringify(JSON.parse(readFileSync(other, 'utf8'))));
  const lowered = await evalIn(project, ['--trials', '3', '--update-reference']);
  expect(lowered.code, lowered.stdout).toBe(0);
  run(project, 'commit', '-qam', 'tidy up the T2 fixtures');
}

describe('eval --reference-from REF', () => {
  it("fails a pull request that lowers the reference, which the checkout's reference let pass", {
    timeout: 180_000,
  }, async () => {
    const { project, base } = await baseProject();
    await lowerInAPullRequest(project);
    // Judged by its own reference, the lowered run passes: the hole.
    const own = await evalIn(project, ['--trials', '3']);
    expect(own.code, own.stdout).toBe(0);

    const judged = await evalIn(project, [
      '--task',
      'T2',
      '--trials',
      '3',
      '--reference-from',
      base,
    ]);
    expect(judged.code, judged.stdout + judged.stderr).toBe(1);
    const report = JSON.parse(readReport(project, 'json'));
    // The edit with its hash recomputed is no longer silent: changed but not re-recorded.
    expect(report.gate.reasons[1]).toMatch(
      /^1 cassette changed but not re-recorded \(fixtures\/T2\/upgraded\/trial-1\.json\): /,
    );
    expect(report.gate.reasons[0]).toBe(
      `reports/reference.json lowers the bar against ${base} (T2 upgraded pass@1 1.00 -> 0.67): a pull request cannot lower the reference it is judged by, so the gate compared with ${base}'s; a maintainer allows it with --allow-lower-reference (in CI: the allow-lower-reference label)`,
    );
    expect(report.changes).toMatchObject({
      ref: base,
      commit: base,
      compared: 'base',
      reference: { status: 'changed', lowered: true, allowed: false },
      fixturesLeftOut: 0,
    });
    expect(report.changes.reference.rows).toEqual([
      expect.objectContaining({ task: 'T2', variant: 'upgraded', change: 'lowered' }),
    ]);
    // The re-indented cassette is no change; the edited one is listed with both provenances.
    expect(report.changes.fixtures).toEqual([
      {
        path: 'fixtures/T2/upgraded/trial-1.json',
        status: 'modified',
        class: 'edited',
        // The refund desk's answers come from its model script, which eval does not load in
        // its main process: the edit is caught by its unchanged recordedAt (record --verify
        // re-derives it with the script and names the exchange).
        why: expect.stringMatching(/^its content changed while its recordedAt /),
        before: expect.objectContaining({
          source: 'simulator',
          contentHash: expect.stringMatching(/^sha256:/),
        }),
        after: expect.objectContaining({
          source: 'simulator',
          contentHash: expect.stringMatching(/^sha256:/),
        }),
        commits: [{ commit: expect.stringMatching(/^[0-9a-f]{7,}$/), author: 'Mallory' }],
      },
    ]);
    // At the top of the report: right after the gate, before the scores.
    const markdown = readReport(project, 'md');
    const top = markdown.indexOf(
      `## Changed against ${base} (${base.slice(0, 7)}): the reference (lowered), 1 cassette, 1 of them changed but not re-recorded`,
    );
    expect(top).toBeGreaterThan(0);
    expect(top).toBeLessThan(markdown.indexOf('## Scores'));
    expect(markdown).toContain(
      '| fixtures/T2/upgraded/trial-1.json | modified, CHANGED, NOT RE-RECORDED | simulator, 127.0.0.1:',
    );
    expect(markdown).toMatch(/\| [0-9a-f]{7,} Mallory \|/);
    expect(judged.stdout).toContain(
      `Changed against ${base} (${base.slice(0, 7)}): the reference (lowered), 1 cassette`,
    );
  });

  it("compares with the checkout's reference when a maintainer allows a lower one", {
    timeout: 180_000,
  }, async () => {
    const { project, base } = await baseProject();
    // The edit named as one (curated): only the lowered reference is left to allow.
    await lowerInAPullRequest(project, true);
    const allowed = await evalIn(project, [
      '--trials',
      '3',
      '--reference-from',
      base,
      '--allow-lower-reference',
    ]);
    expect(allowed.code, allowed.stdout).toBe(0);
    const { changes } = JSON.parse(readReport(project, 'json'));
    expect(changes.fixtures.map((fixture: { class: string }) => fixture.class)).toEqual([
      'curated',
    ]);
    expect(changes).toMatchObject({
      compared: 'checkout',
      reference: { lowered: true, allowed: true },
    });
  });

  it('refuses a ref git does not know, or one that reads as an option, in one line', {
    timeout: 60_000,
  }, async () => {
    const { project } = await baseProject();
    for (const ref of ['no-such-branch', '-Xours', 'main..HEAD']) {
      const { code, stderr } = await evalIn(project, [`--reference-from=${ref}`]);
      expect([ref, code]).toEqual([ref, 2]);
      expect(stderr).toMatch(/^eval: --reference-from .*(no such commit|is not a git ref)/);
    }
  });
});
