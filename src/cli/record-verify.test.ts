import { execFileSync } from 'node:child_process';
import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { resealed } from '../replay/testing/cassettes.js';
import { runEvalCli } from './eval.js';
import { runRecordCli } from './record.js';
import { captureCli } from './testing/cli.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
let project: string;

/**
 * A throwaway project with this repository's T2 and a copy of its cassettes, one of them with an
 * edited final answer. The refund desk's agent file registers its simulated model (its model
 * script), which re-derives the cassettes: the package's simulator does not know it.
 */
beforeAll(() => {
  project = mkdtempSync(join(tmpdir(), 'record-verify-'));
  for (const name of [
    'src',
    'node_modules',
    'dist',
    'AGENTS.md',
    'evals/refund-desk.agent.ts',
    'evals/t2-order-not-found.eval.ts',
  ]) {
    mkdirSync(dirname(join(project, name)), { recursive: true });
    symlinkSync(join(root, name), join(project, name));
  }
  cpSync(join(root, 'package.json'), join(project, 'package.json'));
  cpSync(join(root, 'vitest.evals.config.ts'), join(project, 'vitest.evals.config.ts'));
  cpSync(join(root, 'fixtures/T2'), join(project, 'fixtures/T2'), { recursive: true });
  const file = join(project, 'fixtures/T2/upgraded/trial-2.json');
  const cassette = JSON.parse(readFileSync(file, 'utf8'));
  const answer = cassette.exchanges
    .at(-1)
    .response.body.content.find((block: { type: string }) => block.type === 'text');
  answer.text = `${answer.text} (edited by hand)`;
  // The edit with its content hash recomputed: the re-derivation catches it.
  writeFileSync(file, resealed(cassette));
  // A simulator cassette relabelled live: no reference here, so nothing can check it.
  const relabelled = join(project, 'fixtures/T2/baseline/trial-4.json');
  const flipped = JSON.parse(readFileSync(relabelled, 'utf8'));
  flipped.meta.source = 'live';
  flipped.meta.host = 'api.anthropic.com';
  writeFileSync(relabelled, resealed(flipped));
});
afterAll(() => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
  rmSync(project, { recursive: true, force: true });
});

describe('npm run record -- --verify', () => {
  it('lists the edited cassette and exits 1, in CI too', async () => {
    // In process, run from the throwaway project as `npm run record -- --verify` would be.
    vi.spyOn(process, 'cwd').mockReturnValue(project);
    vi.stubEnv('CI', '1');
    const result = await captureCli(() => runRecordCli(['--verify']));
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('✗ fixtures/T2/upgraded/trial-2.json (simulator)');
    expect(result.stdout).toMatch(
      /cassettes checked \(0 simulator re-derived, \d+ re-derived with the task's own scripts, 0 from model scripts no task declares, 0 live hash-checked\): 1 does not match, 1 live not checked/,
    );
    expect(result.stdout).not.toContain('trial-1.json');
    expect(result.stdout).toContain(
      'Re-record with:\n  npm run record -- --task T2 --variant upgraded --trial 2 --simulated',
    );
  });

  it('lists a live cassette it could not check by name, does not say all match, and exits 1', async () => {
    vi.spyOn(process, 'cwd').mockReturnValue(project);
    const result = await captureCli(() => runRecordCli(['--verify', '--variant', 'baseline']));
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(
      '? fixtures/T2/baseline/trial-4.json (live): not checked: no reports/reference.json',
    );
    expect(result.stdout).not.toContain('all match');
    expect(result.stdout).toMatch(/: 1 live not checked\n/);
    expect(result.stdout).toContain(
      'A live cassette is checked against the content hash reports/reference.json replayed: make the reference cover it (npm run eval -- --trials 4 --update-reference, and commit it), or re-record it',
    );
  });

  it('checks only the --variant and --trial asked for', async () => {
    vi.spyOn(process, 'cwd').mockReturnValue(project);
    const one = await captureCli(() =>
      runRecordCli(['--verify', '--task', 'T2', '--variant', 'upgraded', '--trial', '1']),
    );
    expect(one.code).toBe(0);
    expect(one.stdout).toMatch(
      /^1 cassettes checked \(0 simulator re-derived, 1 re-derived with the task's own scripts, .*\): all match\n$/,
    );
    const edited = await captureCli(() =>
      runRecordCli(['--verify', '--variant', 'upgraded', '--trials', '2']),
    );
    expect(edited.code).toBe(1);
    expect(edited.stdout).toMatch(/^2 cassettes checked .*: 1 does not match$/m);
  });

  it.each([
    [
      ['--task', 'T9'],
      'record: --task T9 matches no cassette under fixtures/: the tasks with cassettes are T2',
    ],
    [
      ['--variant', 'upgradde'],
      'record: --variant upgradde matches no cassette under fixtures/: the variants with cassettes are baseline, upgraded',
    ],
    [
      ['--simulated', '--shard', '1/2'],
      'record: --verify checks the cassettes already recorded: drop --simulated, --shard',
    ],
    [
      ['--missing-only', '--concurrency', '2', '--model', 'x'],
      'record: --verify checks the cassettes already recorded: drop --missing-only, --concurrency, --model',
    ],
    [['--trials', '3', '--trial', '2'], 'record: give --trials N or --trial N[,N...], not both'],
  ])('exits 2 for --verify %j, checking nothing', async (args, message) => {
    vi.spyOn(process, 'cwd').mockReturnValue(project);
    const result = await captureCli(() => runRecordCli(['--verify', ...args]));
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(`${message}\n`);
  });
});

describe('npm run record -- --verify and npm run eval over a symlinked fixtures folder', () => {
  // The break (issue 33): verify skipped fixtures/T2/upgraded as a symlink (259 of 264 checked,
  // "all match") while eval followed it and replayed the cassettes behind it.
  it('are both refused, exit 2, with the same line naming the link', async () => {
    const linked = mkdtempSync(join(tmpdir(), 'record-verify-link-'));
    try {
      for (const name of ['src', 'node_modules', 'dist'])
        symlinkSync(join(root, name), join(linked, name));
      cpSync(join(root, 'package.json'), join(linked, 'package.json'));
      cpSync(join(root, 'fixtures/T2/baseline'), join(linked, 'fixtures/T2/baseline'), {
        recursive: true,
      });
      cpSync(join(root, 'fixtures/T2/upgraded'), join(linked, 'elsewhere/upgraded'), {
        recursive: true,
      });
      symlinkSync(join(linked, 'elsewhere/upgraded'), join(linked, 'fixtures/T2/upgraded'));
      vi.spyOn(process, 'cwd').mockReturnValue(linked);
      const line =
        'fixtures/T2/upgraded is a symbolic link: cassettes are read only from the folders and files under fixtures/ themselves';
      const verified = await captureCli(() => runRecordCli(['--verify']));
      expect(verified.code).toBe(2);
      expect(verified.stderr).toContain(line);
      expect(verified.stdout).not.toContain('all match');
      const evaluated = await captureCli(() => runEvalCli(['--task', 'T2', '--trials', '1']));
      expect(evaluated.code).toBe(2);
      expect(evaluated.stderr).toContain(line);
    } finally {
      rmSync(linked, { recursive: true, force: true });
    }
  });
});

interface SealedCassette {
  meta: Record<string, unknown>;
  exchanges: Array<{ response: { body: { content: Array<{ type: string; text: string }> } } }>;
}

describe('npm run record -- --verify --base REF', () => {
  // The break (issue 33): a forged cassette relabelled live, with its hash also changed in the
  // pull request's own reports/reference.json, passed verify ("1 live hash-checked: all match").
  it("checks live cassettes against the base's reference, not the pull request's", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'record-verify-base-'));
    const git = (...args: string[]) =>
      execFileSync('git', ['-c', 'user.name=M', '-c', 'user.email=m@evil.test', ...args], {
        cwd: dir,
      })
        .toString()
        .trim();
    try {
      cpSync(join(root, 'fixtures/T2/upgraded'), join(dir, 'fixtures/T2/upgraded'), {
        recursive: true,
      });
      const file = join(dir, 'fixtures/T2/upgraded/trial-1.json');
      const reference = JSON.parse(readFileSync(join(root, 'reports/reference.json'), 'utf8'));
      /** The cassette rewritten by `change`, and the reference's hash for it set to match. */
      const seal = (change: (cassette: SealedCassette) => void) => {
        const cassette = JSON.parse(readFileSync(file, 'utf8'));
        change(cassette);
        const text = resealed(cassette);
        writeFileSync(file, text);
        for (const trial of reference.trialProvenance)
          if (trial.task === 'T2' && trial.variant === 'upgraded' && trial.trial === 1)
            trial.cassetteHash = JSON.parse(text).contentHash;
        mkdirSync(join(dir, 'reports'), { recursive: true });
        writeFileSync(join(dir, 'reports/reference.json'), JSON.stringify(reference));
      };
      seal((cassette) =>
        Object.assign(cassette.meta, { source: 'live', host: 'api.anthropic.com' }),
      );
      git('init', '-q');
      git('add', '.');
      git('commit', '-qm', 'base');
      const base = git('rev-parse', 'HEAD');
      seal((cassette) => {
        for (const block of cassette.exchanges.at(-1)?.response.body.content ?? [])
          if (block.type === 'text') block.text = 'Your refund was approved.';
      });
      vi.spyOn(process, 'cwd').mockReturnValue(dir);
      const own = await captureCli(() => runRecordCli(['--verify', '--trial', '1']));
      expect(own.stdout).toMatch(/1 live hash-checked\): all match/);
      const judged = await captureCli(() =>
        runRecordCli(['--verify', '--trial', '1', '--base', base]),
      );
      expect(judged.code).toBe(1);
      expect(judged.stdout).toContain('✗ fixtures/T2/upgraded/trial-1.json (live)');
      expect(judged.stdout).toContain(
        `its content hash is not the one ${base}:reports/reference.json replayed`,
      );
      const unknown = await captureCli(() => runRecordCli(['--verify', '--base', 'no-such-ref']));
      expect(unknown.code).toBe(2);
      expect(unknown.stderr).toMatch(/--base no-such-ref: no such commit/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
