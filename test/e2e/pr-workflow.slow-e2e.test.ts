import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resealed } from '../../src/replay/testing/cassettes.js';
import { installedProject, REPO } from './testing/installed-project.js';
import { runCommand } from './testing/run-command.js';
import { type JobRun, runWorkflowJob } from './testing/workflow-runner.js';

// The scaffolded workflow had never run as a whole: verify failed on init's own example, so
// the gate and the pull request comment never ran. Here every `run:` step of the workflows runs
// in order, as a pull request's job runs them (workflow-runner.ts says what is emulated).

let work: string;
let project: string;
let baseSha: string;
let pr = 0;
/** Each case's comment, printed at the end (the closing note shows them). */
const posted: Array<{ name: string; comment: string }> = [];

const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', args, {
    cwd,
    encoding: 'utf8',
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: 'Ada',
      GIT_AUTHOR_EMAIL: 'ada@example.com',
      GIT_COMMITTER_NAME: 'Ada',
      GIT_COMMITTER_EMAIL: 'ada@example.com',
    },
  }).trim();

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'pr-workflow-e2e-'));
  const installed = await installedProject(work, 'helpdesk');
  project = installed.dir;
  const init = await runCommand('npx', ['harness-evals', 'init'], project);
  expect(init.code, init.output).toBe(0);
  // The adopter's main branch: init's example and its reference, committed.
  const reference = await runCommand(
    'npx',
    ['harness-evals', 'eval', '--update-reference'],
    project,
  );
  expect(reference.code, reference.output).toBe(0);
  git(project, 'init', '-q', '-b', 'main');
  git(project, 'add', '-A');
  git(project, 'commit', '-qm', 'harness-evals init');
  baseSha = git(project, 'rev-parse', 'HEAD');
}, 10 * 60_000);
afterAll(() => {
  for (const { name, comment } of posted)
    console.log(`\n===== PR comment: ${name} =====\n${comment}`);
  if (work) rmSync(work, { recursive: true, force: true });
  // Removing three installed projects and a clone took more than vitest's 10 s at load 18.
}, 120_000);

/** A pull request branch from main, changed by `change`, committed, and its job run. */
async function pullRequest(name: string, change: () => Promise<void>): Promise<JobRun> {
  pr += 1;
  git(project, 'checkout', '-q', '-B', name, baseSha);
  // What an earlier case's job wrote (reports, runs) is not in a fresh checkout.
  git(project, 'clean', '-qfdx', '-e', 'node_modules', '-e', '*.tgz');
  await change();
  git(project, 'add', '-A');
  git(project, 'commit', '-qm', name, '--allow-empty');
  const headSha = git(project, 'rev-parse', 'HEAD');
  const temp = mkdtempSync(join(work, `${name}-runner-`));
  const run = await runWorkflowJob({
    workflow: join(project, '.github/workflows/harness-evals.yml'),
    job: 'eval',
    workspace: project,
    temp,
    pullRequest: { number: pr, baseSha, headSha, headRef: name, baseRef: 'main' },
  });
  posted.push({ name, comment: run.comments.join('\n---\n') });
  return run;
}

const outcomes = (run: JobRun) =>
  Object.fromEntries(run.steps.map((step) => [step.label, step.outcome]));
const explain = (run: JobRun) =>
  run.steps.map((step) => `${step.label}: ${step.outcome}\n${step.output.slice(-3000)}`).join('\n');

describe("init's workflow, run step by step as a pull request's job (slow e2e)", () => {
  it(
    'passes on the untouched project, and comments that the gate passed',
    async () => {
      const run = await pullRequest('pr-untouched', async () => {
        writeFileSync(join(project, 'README.md'), '# helpdesk\n');
      });
      expect(outcomes(run), explain(run)).toEqual({
        'actions/checkout@v4': 'success',
        'actions/setup-node@v4': 'success',
        'npm ci': 'success',
        'record --verify': 'success',
        'eval gate': 'success',
        'actions/upload-artifact@v4': 'success',
        'comment on the pull request': 'success',
      });
      expect(run.status).toBe('success');
      expect(run.comments).toHaveLength(1);
      expect(run.comments[0]).toContain('## harness-evals: ✅ gate passed');
      expect(run.comments[0]).not.toContain('❌');
      expect(run.summary).toContain('gate');
    },
    5 * 60_000,
  );

  it(
    'fails the gate on a worse prompt re-recorded with the simulator, and the comment says why',
    async () => {
      const run = await pullRequest('pr-worse-prompt', async () => {
        const file = join(project, 'evals/h1-ticket-status.eval.ts');
        writeFileSync(
          file,
          readFileSync(file, 'utf8').replace(
            "prompt: 'What is the status of ticket TCK-101?'",
            "prompt: 'What is the status of my ticket?'",
          ),
        );
        const record = await runCommand(
          'npx',
          ['harness-evals', 'record', '--simulated', '--task', 'H1'],
          project,
        );
        expect(record.output).toContain('recorded');
      });
      const steps = outcomes(run);
      expect(steps['eval gate'], explain(run)).toBe('failure');
      expect(steps['comment on the pull request'], explain(run)).toBe('success');
      expect(run.status).toBe('failure');
      expect(run.comments).toHaveLength(1);
      const [comment] = run.comments as [string];
      expect(comment).toContain('## harness-evals: ❌ gate failed');
      expect(comment).toContain('**Why the gate failed**');
      expect(comment).toMatch(/H1.*upgraded/);
      // Re-recorded without --update-reference: verify reports it, and the comment shows it.
      expect(steps['record --verify']).toBe('failure');
      expect(comment).toContain('❌ step `record --verify`: **failure**');
      expect(comment).toContain('npm run eval -- --trials 3 --update-reference');
    },
    5 * 60_000,
  );

  it(
    'flags a hand-edited cassette whose hash was recomputed',
    async () => {
      const run = await pullRequest('pr-edited-cassette', async () => {
        const file = join(project, 'fixtures/H1/baseline/trial-1.json');
        const cassette = JSON.parse(readFileSync(file, 'utf8'));
        const answer = cassette.exchanges
          .at(-1)
          .response.body.content.find((block: { type: string }) => block.type === 'text');
        answer.text = `${answer.text} Your refund has been approved.`;
        writeFileSync(file, resealed(cassette));
      });
      const steps = outcomes(run);
      expect(steps['record --verify'], explain(run)).toBe('failure');
      expect(steps['eval gate'], explain(run)).not.toBe('skipped');
      expect(steps['comment on the pull request']).toBe('success');
      expect(run.status).toBe('failure');
      const [comment] = run.comments as [string];
      expect(comment).toContain('❌ step `record --verify`: **failure**');
      expect(comment).toContain('✗ fixtures/H1/baseline/trial-1.json (simulator)');
      expect(comment).toContain("model script 'helpdesk'");
    },
    5 * 60_000,
  );
});

describe("this repository's eval.yml, run step by step as a pull request's job (slow e2e)", () => {
  it(
    'passes on an untouched pull request, and comments that the gate passed',
    async () => {
      const clone = join(work, 'harness-evals');
      execFileSync('git', ['clone', '-q', REPO, clone]);
      const base = git(clone, 'rev-parse', 'HEAD');
      git(clone, 'checkout', '-q', '-b', 'pr-untouched');
      writeFileSync(join(clone, 'NOTES.md'), 'a pull request that changes no eval\n');
      git(clone, 'add', '-A');
      git(clone, 'commit', '-qm', 'notes');
      // The dependencies and the build of this checkout: an offline `npm ci` of every dev
      // dependency and a build would add minutes and test nothing the other steps do not.
      symlinkSync(join(REPO, 'node_modules'), join(clone, 'node_modules'));
      cpSync(join(REPO, 'dist'), join(clone, 'dist'), { recursive: true });
      const run = await runWorkflowJob({
        workflow: join(clone, '.github/workflows/eval.yml'),
        job: 'eval',
        workspace: clone,
        temp: mkdtempSync(join(work, 'repo-runner-')),
        matrix: { node: 22 },
        pullRequest: {
          number: 99,
          baseSha: base,
          headSha: git(clone, 'rev-parse', 'HEAD'),
          headRef: 'pr-untouched',
          baseRef: 'main',
        },
        skip: {
          'npm ci': 'node_modules is linked from this checkout (see above)',
          'npm run typecheck': '.ci/run runs it',
          'npm run lint': '.ci/run runs it (and lint:workflows)',
          'npx vitest run': 'the unit tests: .ci/run runs them (npm test)',
          'npm run test:e2e': 'this test is part of it',
        },
      });
      posted.push({ name: 'harness-evals eval.yml, untouched', comment: run.comments.join('\n') });
      expect(
        run.steps.filter((step) => step.outcome !== 'success'),
        explain(run),
      ).toEqual([]);
      expect(run.status).toBe('success');
      expect(run.comments).toHaveLength(1);
      expect(run.comments[0]).toContain('## harness-evals: ✅ gate passed');
    },
    10 * 60_000,
  );
});
