import { ConfigError, errorMessage, TaskInputError } from '../core/errors.js';
import { maskConfiguredKeys } from '../core/secret-values.js';
import { shownUrl } from '../core/shown-url.js';
import { spentLines } from '../eval/report/cost-view.js';
import { trialLabel } from '../eval/report/format.js';
import { loadReference } from '../eval/run/finish-run.js';
import { type RunEvalsOptions, runEvals } from '../eval/run/run-evals.js';
import { JUDGE_ENV } from '../eval/spec/judge-model.js';
import {
  type ModelChoice,
  parseModelFlags,
  unknownModelSuites,
} from '../eval/spec/model-choice.js';
import { DEFAULT_TRIALS } from '../eval/spec/settings.js';
import { parseShard } from '../eval/spec/shard.js';
import { liveApiOf, SIMULATOR_URL_ENV } from '../eval/trial/upstream.js';
import { MODEL_TIMEOUT_ENV, modelTimeoutFrom } from '../model-api/model-client.js';
import { PROVIDER_DEFAULTS, PROVIDERS } from '../model-api/provider.js';
import { type RunningSimulator, startSimulator } from '../simulator/server.js';
import { caseFlags, nonEmpty, parseFlags, positiveInteger, selectionFlag } from './args.js';
import { DECISION_FLAGS } from './decision-flags.js';
import { isEntryPoint } from './entry-point.js';
import { exitAfterFlush } from './exit-after-flush.js';
import { checkBaseUrl } from './model-config.js';
import { openJudgeSimulator, recordJudgeFlags } from './record-judge.js';
import { emptyCounts, recordLine, repeatedFailureLines, summaryLine } from './record-lines.js';
import { planWith } from './record-plan.js';
import { recordUntilDecided, untilDecidedFlags } from './record-until-decided.js';
import { verify } from './record-verify.js';
import { terminalLine } from './terminal-text.js';

const USAGE = `usage: npm run record -- [--trials N | --trial N[,N...]] [--task T1,T3] [--variant baseline|upgraded]
                         [--suite NAME] [--case ID[,ID...] | --cases N] [--simulated] [--missing-only] [--concurrency K]
                         [--model ID | --model SUITE=ID ...] [--shard i/n] [--model-timeout SECS]
                         [--judge-only] [--judge-model ID[,ID...]] [--judge-samples N]
                         [--judge-simulated | --judge-script]
       npm run record -- --until-decided [--batch 3] [--max-trials 60] [--budget USD] [--alpha 0.05] [--delta 0.10] [--beta 0.20]
                         [--task ...] [--variant ...] [--simulated] ...
       npm run record -- --plan [--max-trials 60] [--alpha 0.05] [--delta 0.10] [--beta 0.20] [--task ...]
       npm run record -- --verify [--base REF] [--task T1,T3] [--variant V] [--trials N | --trial N[,N...]]

Records one cassette per trial (fixtures/<task>/<variant>/trial-<n>.json) against the live
Messages API (ANTHROPIC_API_KEY, ANTHROPIC_BASE_URL if set; OPENAI_API_KEY, OPENAI_BASE_URL for
agents with provider: 'openai'; an agent's own baseUrlEnv / apiKeyEnv when it declares them), or with --simulated offline: the task's or agent's model script,
else the built-in simulator policies, labelled source: simulator. A trial that fails writes nothing and keeps the
old cassette, and so does one whose agent sent a model request around the fetch it was given.
Each agent records with --model SUITE=ID, else --model ID, else its own model, else its
provider's (ANTHROPIC_MODEL or claude-opus-5; OPENAI_MODEL or gpt-4.1-mini). Refuses to run in CI. --model-timeout is the deadline of one model call, headers and
body (default 600, or HARNESS_MODEL_TIMEOUT).
Judged checks are recorded with their trial, into trial-<n>.judge.json beside its cassette;
--judge-only replays the agent's cassettes and records only the judge calls (the agent's
cassettes stay byte for byte). --judge-model and --judge-samples (1 to 100) override every judge's own.
--until-decided records --batch more trials of each compared row still open (each variant against
reports/reference.json on other cassettes, and against its suite's baseline), decides each row
from its trials in order (drop, no drop larger than --delta, undecided), and stops each row once
decided, at --max-trials, or before a round that would likely pass --budget. What is recorded is kept: run again, it goes on from there, to the
same decisions. Replay them with npm run eval -- --trials all.
--plan spends nothing: per row, the trials a decision would likely take, fixed-n and sequential.
--judge-simulated records the agent live while its judges answer offline (each judge's judge
script, else the simulator's built-in judge); --judge-script answers each with its own judge
script only. A judge that fails writes no judge cassette; the agent's cassette is kept.
--verify records nothing: it re-derives every simulator cassette's responses from its requests
and seed, checks every cassette's schema and secrets (and a live one's hash against
reports/reference.json), lists the ones that do not match or that it could not check (a live
cassette the reference has no hash for), and exits 1 if any. --base REF (in CI, the pull request's
base) checks live cassettes against reports/reference.json at REF, not the checkout's.`;

const FLAGS = {
  trials: { type: 'string' },
  trial: { type: 'string' },
  task: { type: 'string' },
  variant: { type: 'string' },
  case: { type: 'string' },
  cases: { type: 'string' },
  suite: { type: 'string' },
  simulated: { type: 'boolean' },
  'missing-only': { type: 'boolean' },
  concurrency: { type: 'string' },
  model: { type: 'string', multiple: true },
  shard: { type: 'string' },
  'model-timeout': { type: 'string' },
  verify: { type: 'boolean' },
  base: { type: 'string' },
  'judge-only': { type: 'boolean' },
  'judge-model': { type: 'string' },
  'judge-samples': { type: 'string' },
  'until-decided': { type: 'boolean' },
  batch: { type: 'string' },
  alpha: { type: 'string' },
  ...DECISION_FLAGS,
  plan: { type: 'boolean' },
  budget: { type: 'string' },
  'judge-simulated': { type: 'boolean' },
  'judge-script': { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

type RecordFlags = ReturnType<typeof parseRecordFlags>;

function parseRecordFlags(argv: string[]) {
  return parseFlags({ args: argv, options: FLAGS }, [
    '--task',
    '--variant',
    '--suite',
    '--case',
    '--trial',
  ]).values;
}

/** A forecast records nothing: a flag that only recording reads is a mistake, not a no-op. */
function refuseRecordingFlags(values: RecordFlags): void {
  const unread = (
    [
      'until-decided',
      'batch',
      'budget',
      'simulated',
      'missing-only',
      'concurrency',
      'model',
      'shard',
      'verify',
      'judge-only',
      'trials',
      'trial',
    ] as const
  ).filter((flag) => values[flag] !== undefined);
  if (unread.length > 0) {
    throw new ConfigError(
      `--plan spends nothing and records nothing: drop ${unread.map((flag) => `--${flag}`).join(', ')}`,
    );
  }
}

async function main(argv: string[]): Promise<number> {
  const values = parseRecordFlags(argv);
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  if (values.trials !== undefined && values.trial !== undefined) {
    throw new ConfigError('give --trials N or --trial N[,N...], not both');
  }
  const trialNumbers = trialList(values.trial);
  const tasks = selectionFlag('--task', values.task);
  const variants = selectionFlag('--variant', values.variant);
  const suites = selectionFlag('--suite', values.suite);
  const cases = caseFlags(values);
  const models = parseModelFlags(values.model ?? []);
  const selection = {
    ...(trialNumbers && { trialNumbers }),
    ...(tasks && { tasks }),
    ...(variants && { variants }),
  };
  // Read-only, so allowed in CI too.
  if (values.verify) return verifyWith(values, selection);
  if (values.plan) {
    refuseRecordingFlags(values);
    return planWith(values, selection);
  }
  const untilDecided = untilDecidedFlags(values);
  if (process.env.CI) {
    throw new ConfigError(
      'recording is refused when CI is set: CI replays the committed fixtures; record on your machine and commit them',
    );
  }
  const trials = positiveInteger('--trials', values.trials, DEFAULT_TRIALS);
  const concurrency = positiveInteger('--concurrency', values.concurrency, 4, 64);
  const simulated = values.simulated ?? false;
  // One slice of the trials, dealt as `eval --shard` deals them (one machine per slice).
  const shard = values.shard === undefined ? undefined : parseShard(values.shard);
  // Read in each recording trial: a bad value is one line here, not one failure per trial.
  modelTimeoutFrom(process.env, values['model-timeout']);
  // The trials run in vitest's worker, which reads the deadline from the environment: the
  // flag's own text, which the same parser took (String(1e-7) is '1e-7', which it refuses).
  if (values['model-timeout'] !== undefined)
    process.env[MODEL_TIMEOUT_ENV] = values['model-timeout'];
  const judge = recordJudgeFlags(values);
  // Before anything is printed: a base URL's password, a key a server echoes.
  maskConfiguredKeys(process.env);
  const simulator = await openUpstream(simulated, judge.only === true);
  // --judge-simulated: the built-in judge answers from a simulator of its own, the agent live.
  const judgeSimulator = judge.offline === 'simulator' ? await openJudgeSimulator() : undefined;
  maskConfiguredKeys(process.env);
  const run: RunEvalsOptions & { models: ModelChoice } = {
    judge,
    projectDir: process.cwd(),
    mode: 'record',
    trials,
    ...selection,
    ...(suites && { suites }),
    ...cases,
    source: simulated ? 'simulator' : 'live',
    missingOnly: values['missing-only'] ?? false,
    concurrency,
    models,
    ...(shard && { shard }),
    writeReports: false,
  };
  try {
    if (untilDecided) {
      return await recordUntilDecided({
        ...untilDecided,
        run,
        reference: await loadReference(run.projectDir, undefined),
        log: (line) => console.log(line),
      });
    }
    return await record(run);
  } finally {
    await simulator?.close();
    await judgeSimulator?.close();
  }
}

/** `--verify`: the selection's cassettes checked, nothing recorded. */
function verifyWith(
  values: RecordFlags,
  selection: { tasks?: string[]; variants?: string[]; trialNumbers?: number[] },
): Promise<number> {
  const recordingOnly = [
    'suite',
    'case',
    'cases',
    'simulated',
    'missing-only',
    'concurrency',
    'model',
    'shard',
    'model-timeout',
    'judge-only',
    'judge-model',
    'judge-samples',
    'judge-simulated',
    'judge-script',
  ] as const;
  const given = recordingOnly.filter((flag) => values[flag] !== undefined);
  if (given.length > 0) {
    throw new ConfigError(
      `--verify checks the cassettes already recorded: drop ${given.map((flag) => `--${flag}`).join(', ')}`,
    );
  }
  const trials =
    values.trials === undefined ? undefined : positiveInteger('--trials', values.trials, 1);
  const { trialNumbers, ...rows } = selection;
  nonEmpty('--base', values.base, "a git ref (e.g. --base origin/main, the pull request's base)");
  return verify({
    ...rows,
    ...(values.base !== undefined && { base: values.base }),
    ...((trialNumbers || trials) && {
      trialNumbers: trialNumbers ?? Array.from({ length: trials ?? 0 }, (_, index) => index + 1),
    }),
  });
}

/**
 * Where the recording goes: a simulator started here (`--simulated`, returned to be closed),
 * or the live API, whose key must be set.
 */
async function openUpstream(
  simulated: boolean,
  judgeOnly: boolean,
): Promise<RunningSimulator | undefined> {
  if (!simulated) {
    const judgeKey = judgeOnly && process.env[JUDGE_ENV.apiKey];
    const apis = PROVIDERS.map((provider) => ({ provider, ...liveApiOf({ provider }) })).filter(
      ({ keyName }) => process.env[keyName],
    );
    if (apis.length === 0 && !judgeKey) {
      throw new ConfigError(
        'ANTHROPIC_API_KEY is not set (OPENAI_API_KEY for OpenAI agents): export it to record against the live API, or pass --simulated',
      );
    }
    // Every live API's base URL variable, and the judge's, checked before any trial runs: a bad
    // OPENAI_BASE_URL is one line here, not a failed trial per OpenAI agent.
    for (const provider of PROVIDERS) {
      const { urlName } = liveApiOf({ provider });
      if (process.env[urlName]) checkBaseUrl(process.env, urlName);
    }
    const judgeUrl = process.env[JUDGE_ENV.baseURL] && checkBaseUrl(process.env, JUDGE_ENV.baseURL);
    const where = [
      ...apis.map(
        ({ provider, urlName, baseURL }) =>
          `${PROVIDER_DEFAULTS[provider].label} agents at ${shownUrl(baseURL)} (${urlName})`,
      ),
      ...(judgeUrl ? [`judges at ${shownUrl(judgeUrl)} (${JUDGE_ENV.baseURL})`] : []),
    ];
    console.log(terminalLine(`recording live: ${where.join('; ')} (source: live)`));
    return undefined;
  }
  // Nothing answers a request no policy or model script matches: recording fails instead of taping a made-up answer.
  const simulator = await startSimulator({ delayMs: [40, 160], unmatched: 'error' });
  // The simulator accepts any key; this one can never be mistaken for a real credential.
  process.env.ANTHROPIC_BASE_URL = simulator.url;
  process.env[SIMULATOR_URL_ENV] = simulator.url;
  process.env.ANTHROPIC_API_KEY = 'simulator-placeholder';
  console.log(`recording against the simulator at ${simulator.url} (source: simulator)`);
  return simulator;
}

/** Record the selected trials, printing each as it ends; 1 when any failed. */
async function record(options: RunEvalsOptions & { models: ModelChoice }): Promise<number> {
  const started = performance.now();
  const counts = emptyCounts();
  // Ctrl-C: a cassette is renamed into place whole or not at all, so every trial not listed as
  // recorded still has its old one; the line says so, and record ends (its worker threads too).
  const interrupted = () => {
    console.log(
      '\nrecord: interrupted (Ctrl-C): the trials listed above as recorded are kept; every other trial wrote nothing and keeps its old cassette (a judge whose agent was recorded before Ctrl-C may now be stale: eval names it, with its --judge-only command)',
    );
    void exitAfterFlush(130);
  };
  process.once('SIGINT', interrupted);
  const result = await runEvals({
    ...options,
    onTrial: (record, ms) => {
      const line = recordLine(record, ms, counts, options.judge?.only === true);
      if (line) console.log(line);
    },
  }).finally(() => process.removeListener('SIGINT', interrupted));
  // A trial that hung (vitest's test timeout) or threw has no record: it failed all the same.
  for (const trial of result.unfinished) {
    counts.failed += 1;
    console.log(`  ✗ ${trialLabel(trial)}: ${terminalLine(trial.problem)}; nothing written`);
  }
  for (const line of repeatedFailureLines(counts)) console.log(line);
  for (const error of result.loadErrors) console.log(`  ✗ ${terminalLine(error)}`);
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log(`\n${summaryLine(counts, seconds)}`);
  for (const line of spentLines(result.report)) console.log(terminalLine(line));
  if (
    result.records.length === 0 &&
    result.unfinished.length === 0 &&
    result.loadErrors.length === 0
  ) {
    console.log('nothing selected: check --task / --variant / --suite');
  }
  const unknown = unknownModelSuites(options.models, new Set(result.suites));
  if (unknown.length > 0) {
    console.error(
      `record: --model names ${unknown.map((suite) => `suite ${suite}`).join(', ')}, which no agent declares (known suites: ${result.suites.join(', ') || 'none'}): the trials above used their default models`,
    );
    return 2;
  }
  return counts.failed > 0 || counts.judgeFailed > 0 || result.loadErrors.length > 0 ? 1 : 0;
}

/** `--trial 1,3`: each trial once (a trial listed twice was checked, and counted, twice). */
function trialList(value: string | undefined): number[] | undefined {
  if (value === undefined) return undefined;
  const trials = value.split(',').map((trial) => positiveInteger('--trial', trial.trim(), 1));
  const twice = trials.find((trial, index) => trials.indexOf(trial) !== index);
  if (twice !== undefined) {
    throw new ConfigError(`--trial lists trial ${twice} twice: list each trial once`);
  }
  return trials;
}

/**
 * `npm run record` as a function: prints what the CLI prints and returns the exit code.
 * Bad input is one line on stderr and exit 2 (`--help` prints the usage).
 */
export function runRecordCli(argv: string[]): Promise<number> {
  return main(argv).catch((error: unknown) => {
    // One line per problem: a TaskInputError lists each file a task names that is wrong.
    const lines =
      error instanceof TaskInputError ? error.message.split('\n') : [errorMessage(error)];
    for (const line of lines) console.error(`record: ${terminalLine(line)}`);
    return 2;
  });
}

if (isEntryPoint(import.meta.url)) {
  runRecordCli(process.argv.slice(2)).then((code) => {
    process.exitCode = code;
  });
}
