import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildReport } from '../eval/report/build-report.js';
import { makeRecord } from '../eval/report/testing/records.js';
import { runMainCli } from './dispatch.js';
import { runHistoryCli } from './history.js';
import { captureCli } from './testing/cli.js';

const folders: string[] = [];
afterAll(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'history-'));
  folders.push(dir);
  return dir;
}

/** A report of T1 (`t1` passes of 10, its cassettes named by `take`) and T2 (8 of 10, never re-recorded). */
function reportText(t1: number, take: string, at: number): string {
  const trials = (task: string, passes: number, cassettes: string) =>
    Array.from({ length: 10 }, (_, index) =>
      makeRecord({
        task,
        trial: index + 1,
        outcome: index < passes ? 'passed' : 'failed',
        cassetteHash: `sha256:${cassettes}-${index}`,
      }),
    );
  // A report's bootstraps take a while on a busy machine: one per T1 count, retaken by name.
  const made =
    built.get(t1) ??
    JSON.stringify(
      buildReport({
        records: [...trials('T1', t1, 'TAKE'), ...trials('T2', 8, 'steady')],
        trials: 10,
        floors: [],
        generatedAt: 'AT',
      }),
      null,
      2,
    );
  built.set(t1, made);
  const generatedAt = new Date(Date.UTC(2026, 10, 1 + at)).toISOString();
  return `${made.replaceAll('TAKE', take).replace('"AT"', JSON.stringify(generatedAt))}\n`;
}

const built = new Map<number, string>();

/**
 * The 30 versions of reports/reference.json, one commit each: T1 passes 10/10 (re-recorded at
 * each version, 9/10 twice and 3/10 once: within noise); the prompt changes in a commit of its own before version 10,
 * where T1 falls to 2/10 (regressed); version 15 changes the prompt again and T1 is back at 10/10
 * (recovered); versions 22 and 23 are re-recordings alone, T1 at 3/10 then 10/10 (flaky twice).
 * Version 5 is an old-format report.
 */
const T1_PASSES = [
  10, 10, 9, 10, 10, 10, 10, 10, 10, 2, 2, 3, 2, 2, 10, 10, 10, 10, 10, 10, 10, 3, 10, 10, 10, 10,
  9, 10, 10, 10,
];

/** What one commit writes: its message and its files' new texts. */
interface Commit {
  message: string;
  files: Record<string, string>;
  deleted?: string[];
}

/** `git fast-import` input: the commits in order on main, each on the one before (one process, not 90). */
function fastImport(commits: readonly Commit[]): string {
  const data = (text: string) => `data ${Buffer.byteLength(text)}\n${text}\n`;
  const when = `${Date.UTC(2026, 10, 1, 12) / 1000} +0000`;
  return commits
    .map((commit, index) =>
      [
        `commit refs/heads/main\nmark :${index + 1}\n`,
        `author Ann <ann@example.test> ${when}\ncommitter Ann <ann@example.test> ${when}\n`,
        data(commit.message),
        index > 0 ? `from :${index}\n` : '',
        ...Object.entries(commit.files).map(
          ([path, text]) => `M 100644 inline ${path}\n${data(text)}`,
        ),
        ...(commit.deleted ?? []).map((path) => `D ${path}\n`),
      ].join(''),
    )
    .join('\n');
}

const git = (dir: string, args: string[], input?: string) =>
  execFileSync('git', args, { cwd: dir, ...(input !== undefined && { input }) }).toString();

/** The throwaway repository: its folder, and the commit of each version (1-based). */
function syntheticHistory(): { dir: string; commits: string[] } {
  const commits: Commit[] = [];
  for (const [index, passes] of T1_PASSES.entries()) {
    const version = index + 1;
    if (version === 10)
      commits.push({
        message: 'prompt: never refund',
        files: { 'AGENTS.md': 'Be brief. Never refund.\n' },
      });
    // Each version is a new recording of T1 (new cassettes): its moves are sampled, not replayed.
    const reference =
      version === 5
        ? '{ "schemaVersion": 2, "tasks": [] }\n'
        : reportText(passes, `take-${version}`, version);
    commits.push({
      message: `reference v${version}`,
      files: {
        'reports/reference.json': reference,
        // A re-recording rewrites the cassettes: fixtures/ is not the harness.
        'fixtures/T1/upgraded/trial-1.json': `{ "take": "take-${version}" }\n`,
        ...(version === 1 || version === 15 ? { 'AGENTS.md': 'Be brief.\n' } : {}),
      },
    });
  }
  const dir = tempDir();
  git(dir, ['init', '-q']);
  git(dir, ['fast-import', '--quiet'], fastImport(commits));
  git(dir, ['symbolic-ref', 'HEAD', 'refs/heads/main']);
  const made = git(dir, ['rev-list', '--reverse', 'main']).trim().split('\n');
  const versions = made.filter((_, index) => !commits[index]!.message.startsWith('prompt'));
  return { dir, commits: ['', ...versions] };
}

async function history(cwd: string, ...args: string[]) {
  return captureCli(() => runHistoryCli(args, cwd));
}

describe('npm run history', () => {
  it('marks the regression, the recovery and the flaky flips of 30 commits, naming each commit', async () => {
    const { dir, commits } = syntheticHistory();
    const result = await history(dir, '--out', 'history.md');
    expect(result.code, result.stderr).toBe(0);
    const markdown = readFileSync(join(dir, 'history.md'), 'utf8');
    const short = (version: number) => commits[version]!.slice(0, 7);
    const changes = markdown
      .split('\n')
      .filter((line) => /^\| refund-desk T\d/.test(line) && line.includes('**'))
      .map((line) => line.split(' | ').slice(0, 3).join(' | '));
    expect(changes).toEqual([
      `| refund-desk T1 upgraded | **regressed** | \`${short(10)}\` 2026-11-01 reference v10`,
      `| refund-desk T1 upgraded | **recovered** | \`${short(15)}\` 2026-11-01 reference v15`,
      `| refund-desk T1 upgraded | **flaky** | \`${short(22)}\` 2026-11-01 reference v22`,
      `| refund-desk T1 upgraded | **flaky** | \`${short(23)}\` 2026-11-01 reference v23`,
    ]);
    expect(markdown).toContain(
      `- \`${short(5)}\`: reports/reference.json: schemaVersion 2 is not 3 or 4`,
    );
    expect(markdown).toContain('29 reports');
    expect(markdown).toMatch(
      /^\| refund-desk T2 upgraded \| 29 \| ▇{29} \| 0\.80 \[.*\] \| steady \|$/m,
    );

    // Taken as the harness, the re-recorded cassettes change at every version: nothing is flaky.
    const asHarness = await history(
      dir,
      '--harness',
      'fixtures',
      '--out',
      'fixtures.md',
      '--html',
      'f.html',
    );
    expect(asHarness.code, asHarness.stderr).toBe(0);
    expect(readFileSync(join(dir, 'fixtures.md'), 'utf8').match(/\*\*\w+\*\*/g)).toEqual([
      '**regressed**',
      '**recovered**',
      '**regressed**',
      '**recovered**',
    ]);
    const html = readFileSync(join(dir, 'reports/history.html'), 'utf8');
    const t1 = html.slice(
      html.indexOf('data-row="refund-desk/T1/upgraded"'),
      html.indexOf('data-row="refund-desk/T2/upgraded"'),
    );
    const points = [...t1.matchAll(/<circle [^>]*data-commit="([0-9a-f]+)" data-rate="([\d.]+)"/g)];
    const readable = commits.slice(1).filter((_, index) => index !== 4);
    expect(points.map(([, commit]) => commit)).toEqual(readable);
    expect(points.map(([, , rate]) => Number(rate))).toEqual(
      T1_PASSES.filter((_, index) => index !== 4).map((passes) => passes / 10),
    );
    const marks = [...t1.matchAll(/data-mark="(\w+)" data-commit="([0-9a-f]+)"/g)];
    expect(marks.map(([, mark, commit]) => [mark, commit])).toEqual([
      ['regressed', commits[10]],
      ['recovered', commits[15]],
      ['flaky', commits[22]],
      ['flaky', commits[23]],
    ]);
    expect(html).not.toMatch(/<script|https?:\/\/(?!www\.w3\.org\/2000\/svg)/);
    expect(html).toMatch(/content="default-src 'none'; style-src 'sha256-[^']+'/);
  }, 60_000);

  it('skips a version that is not JSON and one where the file is deleted, naming their commits', async () => {
    const file = 'reports/reference.json';
    const dir = tempDir();
    git(dir, ['init', '-q']);
    git(
      dir,
      ['fast-import', '--quiet'],
      fastImport([
        { message: 'first', files: { [file]: reportText(10, 'a', 1) } },
        { message: 'broken', files: { [file]: '{ "schemaVersion": ' } },
        { message: 'gone', files: {}, deleted: [file] },
        { message: 'back', files: { [file]: reportText(2, 'b', 4), 'AGENTS.md': 'Be terse.\n' } },
      ]),
    );
    git(dir, ['symbolic-ref', 'HEAD', 'refs/heads/main']);
    const [, broken, gone] = git(dir, ['rev-list', '--reverse', 'main']).trim().split('\n');
    const result = await history(dir, '--out', 'history.md', '--html', 'page.html');
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain('history: 2 reports read, 2 skipped');
    const markdown = readFileSync(join(dir, 'history.md'), 'utf8');
    expect(markdown).toContain(
      `- \`${broken!.slice(0, 7)}\`: reports/reference.json: not valid JSON`,
    );
    expect(markdown).toContain(
      `- \`${gone!.slice(0, 7)}\`: reports/reference.json is deleted at this commit`,
    );
    expect(markdown).toContain('**regressed**');
  });

  it('refuses a folder outside git, a file never committed and an empty --dir, each naming the fix', async () => {
    const plain = tempDir();
    const outside = await history(plain);
    expect([outside.code, outside.stderr]).toEqual([
      2,
      expect.stringMatching(/^history: .* is not in a git repository: .*--dir DIR\n$/),
    ]);
    git(plain, ['init', '-q']);
    const empty = await history(plain);
    expect([empty.code, empty.stderr]).toEqual([
      2,
      expect.stringMatching(
        /^history: reports\/reference\.json was never committed in .*--update-reference/,
      ),
    ]);
    const none = await history(plain, '--dir', '.');
    expect([none.code, none.stderr]).toEqual([
      2,
      expect.stringMatching(/^history: --dir \. holds no \.json report: download/),
    ]);
    const both = await history(plain, '--dir', '.', '--file', 'a.json');
    expect([both.code, both.stderr]).toEqual([
      2,
      'history: --dir reads a folder of reports, not git: leave out --file and --harness\n',
    ]);
  });

  it('reads a folder of reports in generatedAt order, and calls nothing flaky there', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'a-late.json'), reportText(2, 'b', 3));
    writeFileSync(join(dir, 'b_early.json'), reportText(10, 'a', 1));
    writeFileSync(join(dir, 'c-bad.json'), '[]');
    const result = await history(dir, '--dir', '.', '--out', 'history.md');
    expect(result.code, result.stderr).toBe(0);
    const markdown = readFileSync(join(dir, 'history.md'), 'utf8');
    expect(markdown).toContain('2 reports, `b_early.json` 2026-11-02 to `a-late.json` 2026-11-04');
    expect(markdown).toContain('- `c-bad.json`: c-bad.json');
    expect(markdown).toMatch(
      /\| refund-desk T1 upgraded \| \*\*regressed\*\* \| `a-late\.json` .* \| harness unknown \(no git\) \|/,
    );
  });

  it('is a harness-evals command with its usage', async () => {
    const listed = await captureCli(async () => (await runMainCli(['--help'])) ?? 0);
    expect(listed.stdout).toMatch(
      /^ {2}history {4}pass@1 per task and variant over the git history/m,
    );
    const usage = await captureCli(async () => (await runMainCli(['history', '--help'])) ?? 0);
    expect([usage.code, usage.stdout]).toEqual([
      0,
      expect.stringMatching(/^usage: npm run history -- /),
    ]);
  });
});
