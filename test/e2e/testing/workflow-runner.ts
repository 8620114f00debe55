import { spawn } from 'node:child_process';
import {
  chmodSync,
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { parse } from 'yaml';
import { condition, type ExpressionContext, interpolate } from './workflow-expression.js';

/** Test support: one step of a workflow job, as the YAML has it. */
interface Step {
  id?: string;
  name?: string;
  uses?: string;
  run?: string;
  if?: string;
  shell?: string;
  env?: Record<string, string | number | boolean>;
  with?: Record<string, string | number | boolean>;
  'continue-on-error'?: boolean;
}
interface Job {
  env?: Record<string, string>;
  steps: Step[];
}

/** What happened to one step: GitHub's outcome, and what it printed. */
export interface StepRun {
  label: string;
  outcome: 'success' | 'failure' | 'skipped';
  /** Why an action was not run for real, or a `run:` step was left out. */
  note?: string;
  output: string;
  ms: number;
}

/** A pull request as the job sees it (github.event.pull_request). */
export interface PullRequest {
  number: number;
  baseSha: string;
  headSha: string;
  headRef: string;
  baseRef: string;
  labels?: string[];
}

export interface JobRun {
  steps: StepRun[];
  /** The comments `gh` was asked to post or update (the stub's record), in order. */
  comments: string[];
  /** What the job wrote to GITHUB_STEP_SUMMARY. */
  summary: string;
  /** The job's result: failure when a step failed that did not continue on error. */
  status: 'success' | 'failure';
}

const REPOSITORY = 'acme/helpdesk';

/**
 * Run one job of a workflow file in `workspace` (a git checkout of the pull request), as a
 * GitHub-hosted runner would for a `pull_request` event: every `run:` step in order, in bash
 * (`shell: bash` adds pipefail, as on GitHub), honouring `if:` and `continue-on-error`, with
 * GITHUB_* variables, GITHUB_ENV, GITHUB_OUTPUT, GITHUB_STEP_SUMMARY, GITHUB_EVENT_PATH and
 * RUNNER_TEMP, CI set and no API key. Actions are emulated, each with the reason:
 * - actions/checkout: the workspace is the checkout already (its history has the base commit);
 * - actions/setup-node: this machine's node;
 * - actions/upload-artifact: the files that exist are copied to `<temp>/artifacts/<name>/`,
 *   and `artifact-url` is set when any was;
 * - anything else fails the step, naming it.
 * `gh` is a stub on PATH that records the comment body it is asked to post (`-F body=@FILE`)
 * and answers the comment list with nothing (no earlier comment).
 * `skip` names `run:` commands (by a substring) left out, each with its reason; they count
 * as succeeded.
 */
export async function runWorkflowJob(options: {
  workflow: string;
  job: string;
  workspace: string;
  temp: string;
  pullRequest: PullRequest;
  matrix?: Record<string, string | number>;
  skip?: Record<string, string>;
  env?: Record<string, string>;
}): Promise<JobRun> {
  const { workspace, temp, pullRequest } = options;
  const job = (parse(readFileSync(options.workflow, 'utf8')) as { jobs: Record<string, Job> }).jobs[
    options.job
  ];
  if (!job) throw new Error(`${options.workflow} has no job ${options.job}`);
  const files = runnerFiles(temp, pullRequest);
  const values: Record<string, unknown> = {
    github: {
      event_name: 'pull_request',
      event: JSON.parse(readFileSync(files.event, 'utf8')),
      repository: REPOSITORY,
      server_url: 'https://github.com',
      run_id: '4242',
      token: 'stub-token-not-a-secret',
      sha: pullRequest.headSha,
    },
    matrix: options.matrix ?? {},
    steps: {},
    env: {},
  };
  const context: ExpressionContext = {
    values,
    status: 'success',
    hashFiles: (pattern) => (existsSync(join(workspace, pattern)) ? 'hash' : ''),
  };
  const baseEnv = {
    ...cleanEnv(),
    ...files.env,
    ...options.env,
    PATH: `${files.bin}:${process.env.PATH}`,
  };
  const jobEnv = Object.fromEntries(
    Object.entries(job.env ?? {}).map(([name, value]) => [
      name,
      interpolate(String(value), context),
    ]),
  );
  values.env = jobEnv;
  const steps: StepRun[] = [];
  const added: Record<string, string> = {};
  for (const [index, step] of job.steps.entries()) {
    const label = step.name ?? step.run?.split('\n')[0] ?? step.uses ?? `step ${index + 1}`;
    const started = performance.now();
    let run: Omit<StepRun, 'ms'>;
    if (!condition(step.if, context)) run = { label, outcome: 'skipped', output: '' };
    else if (step.uses) run = emulateAction(step, label, { workspace, temp, context });
    else {
      const skipped = Object.entries(options.skip ?? {}).find(([text]) => step.run?.includes(text));
      if (skipped) run = { label, outcome: 'success', note: `left out: ${skipped[1]}`, output: '' };
      else {
        const env = { ...baseEnv, ...jobEnv, ...added, ...stepEnv(step, context) };
        writeFileSync(files.githubEnv, '');
        const script = interpolate(step.run ?? '', context);
        const result = await bash(script, step.shell, workspace, env);
        Object.assign(added, readGithubEnv(files.githubEnv));
        run = { label, outcome: result.code === 0 ? 'success' : 'failure', output: result.output };
      }
    }
    steps.push({ ...run, ms: Math.round(performance.now() - started) });
    if (step.id) {
      const previous = (values.steps as Record<string, { outputs?: unknown }>)[step.id];
      (values.steps as Record<string, unknown>)[step.id] = {
        outcome: run.outcome,
        conclusion:
          run.outcome === 'failure' && step['continue-on-error'] ? 'success' : run.outcome,
        outputs: previous?.outputs ?? {},
      };
    }
    if (run.outcome === 'failure' && !step['continue-on-error']) context.status = 'failure';
  }
  return {
    steps,
    comments: readComments(files.ghLog),
    summary: readFileSync(files.summary, 'utf8'),
    status: context.status,
  };
}

/** The runner's files and variables for one job: event payload, GITHUB_ENV, the summary, the gh stub. */
function runnerFiles(temp: string, pullRequest: PullRequest) {
  const runnerTemp = join(temp, 'runner-temp');
  const bin = join(temp, 'bin');
  for (const dir of [runnerTemp, bin]) mkdirSync(dir, { recursive: true });
  const event = join(temp, 'event.json');
  writeFileSync(
    event,
    JSON.stringify({
      action: 'synchronize',
      number: pullRequest.number,
      pull_request: {
        number: pullRequest.number,
        base: {
          sha: pullRequest.baseSha,
          ref: pullRequest.baseRef,
          repo: { full_name: REPOSITORY },
        },
        head: {
          sha: pullRequest.headSha,
          ref: pullRequest.headRef,
          repo: { full_name: REPOSITORY },
        },
        labels: (pullRequest.labels ?? []).map((name) => ({ name })),
      },
    }),
  );
  const githubEnv = join(temp, 'github-env');
  const summary = join(temp, 'step-summary.md');
  const ghLog = join(temp, 'gh-comments');
  mkdirSync(ghLog, { recursive: true });
  writeFileSync(summary, '');
  writeFileSync(join(bin, 'gh'), GH_STUB);
  chmodSync(join(bin, 'gh'), 0o755);
  return {
    bin,
    event,
    githubEnv,
    summary,
    ghLog,
    env: {
      CI: 'true',
      GITHUB_ACTIONS: 'true',
      GITHUB_EVENT_NAME: 'pull_request',
      GITHUB_EVENT_PATH: event,
      GITHUB_REPOSITORY: REPOSITORY,
      GITHUB_SHA: pullRequest.headSha,
      GITHUB_REF: `refs/pull/${pullRequest.number}/merge`,
      GITHUB_BASE_REF: pullRequest.baseRef,
      GITHUB_HEAD_REF: pullRequest.headRef,
      GITHUB_RUN_ID: '4242',
      GITHUB_SERVER_URL: 'https://github.com',
      GITHUB_WORKSPACE: dirname(runnerTemp),
      GITHUB_STEP_SUMMARY: summary,
      GITHUB_ENV: githubEnv,
      GITHUB_OUTPUT: join(temp, 'github-output'),
      RUNNER_TEMP: runnerTemp,
      GH_STUB_LOG: ghLog,
    },
  };
}

/**
 * `gh api ...`: the comment list is empty (no earlier comment); a POST or PATCH with
 * `-F body=@FILE` copies FILE to the log folder, numbered. Anything else fails loudly.
 */
const GH_STUB = `#!/usr/bin/env bash
set -euo pipefail
body=""
method=GET
while [ $# -gt 0 ]; do
  case "$1" in
    -X) method="$2"; shift 2 ;;
    -F) case "$2" in body=@*) body="\${2#body=@}" ;; esac; shift 2 ;;
    *) shift ;;
  esac
done
if [ "$method" = GET ]; then exit 0; fi
if [ -z "$body" ]; then echo "gh stub: $method without -F body=@FILE" >&2; exit 1; fi
n=$(ls "$GH_STUB_LOG" | wc -l)
cp "$body" "$GH_STUB_LOG/$(printf '%03d' "$n")-$method.md"
`;

function readComments(folder: string): string[] {
  return readdirSync(folder)
    .sort()
    .map((name) => readFileSync(join(folder, name), 'utf8'));
}

function emulateAction(
  step: Step,
  label: string,
  where: { workspace: string; temp: string; context: ExpressionContext },
): Omit<StepRun, 'ms'> {
  const action = step.uses ?? '';
  if (action.startsWith('actions/checkout@'))
    return {
      label,
      outcome: 'success',
      note: 'emulated: the workspace is the checkout',
      output: '',
    };
  if (action.startsWith('actions/setup-node@'))
    return {
      label,
      outcome: 'success',
      note: `emulated: this machine's node ${process.version}`,
      output: '',
    };
  if (action.startsWith('actions/upload-artifact@')) {
    const name = interpolate(String(step.with?.name ?? 'artifact'), where.context);
    const paths = String(step.with?.path ?? '')
      .split('\n')
      .map((line) => line.trim())
      .filter(Boolean);
    const target = join(where.temp, 'artifacts', name);
    const copied = paths.filter((path) => existsSync(join(where.workspace, path)));
    for (const path of copied) {
      cpSync(join(where.workspace, path), join(target, path), { recursive: true });
    }
    if (step.id) {
      const url =
        copied.length > 0 ? `https://github.com/${REPOSITORY}/actions/runs/4242/artifacts/1` : '';
      (where.context.values.steps as Record<string, unknown>)[step.id] = {
        outputs: { 'artifact-url': url },
      };
    }
    return {
      label,
      outcome: 'success',
      note: `emulated: ${copied.length} paths copied to ${target}`,
      output: '',
    };
  }
  return { label, outcome: 'failure', note: `the emulator does not know ${action}`, output: '' };
}

function stepEnv(step: Step, context: ExpressionContext): Record<string, string> {
  return Object.fromEntries(
    Object.entries(step.env ?? {}).map(([name, value]) => [
      name,
      interpolate(String(value), context),
    ]),
  );
}

function readGithubEnv(file: string): Record<string, string> {
  const text = existsSync(file) ? readFileSync(file, 'utf8') : '';
  return Object.fromEntries(
    text
      .split('\n')
      .filter((line) => line.includes('='))
      .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
  );
}

/** The user's environment less what a fresh runner has not: CI, GitHub, keys, vitest, npm's. */
function cleanEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (
      /^(CI|GITHUB_.*|RUNNER_.*|ANTHROPIC_.*|OPENAI_.*|HARNESS_.*|VITEST.*|NODE_ENV|NODE_OPTIONS|npm_.*|TEST)$/.test(
        name,
      )
    )
      continue;
    if (value !== undefined) env[name] = value;
  }
  // npm never reaches the network in these tests: the packages come from the cache npm ci filled.
  return {
    ...env,
    npm_config_offline: 'true',
    npm_config_audit: 'false',
    npm_config_fund: 'false',
    npm_config_update_notifier: 'false',
  };
}

/** A `run:` step in bash: `shell: bash` is GitHub's `bash --noprofile --norc -eo pipefail`, the default `bash -e`. */
function bash(
  script: string,
  shell: string | undefined,
  cwd: string,
  env: Record<string, string>,
): Promise<{ code: number; output: string }> {
  const args =
    shell === 'bash'
      ? ['--noprofile', '--norc', '-eo', 'pipefail', '-c', script]
      : ['-e', '-c', script];
  return new Promise((resolve, reject) => {
    const child = spawn('bash', args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
    });
    child.stderr.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? 1, output }));
  });
}
