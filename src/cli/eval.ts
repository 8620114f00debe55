import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { ConfigError, errorMessage, TaskInputError } from '../core/errors.js';
import { gateLine } from '../eval/report/gate-line.js';
import type { GateResult } from '../eval/report/report-schema.js';
import { type RunEvalsOptions, runEvals } from '../eval/run/run-evals.js';
import { isVariantName } from '../eval/spec/agent-spec.js';
import { JUDGE_ENV } from '../eval/spec/judge-model.js';
import { DEFAULT_TRIALS } from '../eval/spec/settings.js';
import { formatShard, parseShard } from '../eval/spec/shard.js';
import { shortFixtures } from '../eval/verify/fixture-inventory.js';
import type { RunningSimulator } from '../simulator/server.js';
import {
  caseFlags,
  fraction,
  nonEmpty,
  oneOf,
  parseFlags,
  positiveInteger,
  selectionFlag,
} from './args.js';
import { DECISION_FLAGS, decisionFlags } from './decision-flags.js';
import { isEntryPoint } from './entry-point.js';
import { refuseWithWatch, watchReplay } from './eval-watch.js';
import { judgeOverrides } from './judge-flags.js';
import { exportOtel, OTEL_FLAGS, OTEL_USAGE, type OtelTarget, otelTarget } from './otel-flags.js';
import { terminalLine, terminalText } from './terminal-text.js';

const USAGE = `usage: npm run eval -- [--trials N | all] [--task T1,T4] [--variant baseline,upgraded] [--suite NAME]
                       [--case ID[,ID...] | --cases N]   (dataset tasks: these cases, or N of them)
                       [--compare FILE | --reference-from REF [--allow-lower-reference]]
                       [--replay strict|lenient] [--update-reference]
                       [--alpha 0.05] [--delta 0.10] [--beta 0.20] [--undecided warn|fail] [--max-trials N]
                       [--strict-floors] [--shard i/n]
                       [--judge-model ID[,ID...]] [--judge-samples N]
                       [--rescore [--simulated] [--record-judge]] [--watch]
       npm run eval -- --compare A,B [...]   (two variants: only those, every Δ of B against A)
       npm run eval -- --merge DIR [--compare FILE | --reference-from REF [--allow-lower-reference]]
                       [--update-reference] [--alpha A] [--delta D] [--beta B] [--undecided warn|fail] [--strict-floors]
${OTEL_USAGE}

Replays the committed fixtures (no API key needed), prints pass@k / pass^k with 95% intervals,
token and latency tables, writes reports/latest.md and reports/latest.json, and exits non-zero
when the gate fails (a stale, missing or errored trial, a floor not met, or a drop against the
reference: any drop on the same cassettes; on re-recorded ones, a row decided "drop" at --alpha for the
run). Each row compared on other cassettes, and each variant against its suite's baseline, is
decided from its trials in order: drop (fails), no drop larger than --delta (passes), or
undecided (warns; fails with --undecided fail). --trials all replays every trial each row has.
--reference-from REF (a pull request's base) reads reports/reference.json at REF instead of the
checkout's, lists what the checkout changed against REF (the reference, the cassettes) at the top
of the report, and fails when the checkout's reference is lower, unless --allow-lower-reference.
--shard i/n runs one slice and writes reports/shards/shard-i-of-n.json; --merge DIR makes the
report and the gate from those.
Judged checks replay their calls from fixtures/<task>/<variant>/trial-<n>.judge.json.
--rescore re-runs every check on the recorded trials and asks the judges again, live
(HARNESS_JUDGE_API_KEY, else the provider's key) or with --simulated offline; nothing is written
unless --record-judge, which records only the judge's calls (the agent's cassettes stay as they
are). --judge-model and --judge-samples (1 to 100) override every judge's own.
--watch replays again whatever a change touches (eval files, agents, prompts, fixtures) until Ctrl-C.`;

const FLAGS = {
  trials: { type: 'string' },
  task: { type: 'string' },
  variant: { type: 'string' },
  case: { type: 'string' },
  cases: { type: 'string' },
  suite: { type: 'string' },
  compare: { type: 'string' },
  'reference-from': { type: 'string' },
  'allow-lower-reference': { type: 'boolean' },
  replay: { type: 'string' },
  'update-reference': { type: 'boolean' },
  alpha: { type: 'string' },
  ...DECISION_FLAGS,
  'strict-floors': { type: 'boolean' },
  shard: { type: 'string' },
  merge: { type: 'string' },
  rescore: { type: 'boolean' },
  'record-judge': { type: 'boolean' },
  simulated: { type: 'boolean' },
  'judge-model': { type: 'string' },
  'judge-samples': { type: 'string' },
  ...OTEL_FLAGS,
  watch: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

type EvalFlags = ReturnType<typeof parseEvalFlags>;
/** What the report and the gate of a run or a merge take from the flags. */
type ReportFlags = ReturnType<typeof reportOptions>;

function parseEvalFlags(argv: string[]) {
  return parseFlags({ args: argv, options: FLAGS }, ['--task', '--variant', '--suite', '--case'])
    .values;
}

async function main(argv: string[]): Promise<number> {
  const values = parseEvalFlags(argv);
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  if (values.watch) refuseWithWatch(values);
  nonEmpty('--compare', values.compare, 'a report file (e.g. --compare reports/reference.json)');
  nonEmpty('--merge', values.merge, 'a folder of shard results (e.g. --merge reports/shards)');
  nonEmpty(
    '--reference-from',
    values['reference-from'],
    'a git ref (e.g. --reference-from origin/main)',
  );
  if (values['allow-lower-reference'] && values['reference-from'] === undefined) {
    throw new ConfigError(
      "--allow-lower-reference goes with --reference-from REF (it allows a reference lower than REF's)",
    );
  }
  const tasks = selectionFlag('--task', values.task);
  const pair = variantPair(values.compare, process.cwd());
  if (pair && values.variant !== undefined) {
    throw new ConfigError(
      `--compare ${pair.join(',')} picks the variants to run: drop --variant ${values.variant}`,
    );
  }
  const variants = pair ?? selectionFlag('--variant', values.variant);
  if (values.compare !== undefined && !pair && values['reference-from'] !== undefined) {
    throw new ConfigError(
      '--compare FILE and --reference-from REF both name the reference: give one',
    );
  }
  const suites = selectionFlag('--suite', values.suite);
  const cases = caseFlags(values);
  const otel = otelTarget(values, process.env);
  const { compare: _compare, ...rest } = values;
  const report = {
    ...reportOptions(pair ? rest : values),
    ...(pair && { deltaReference: pair[0] }),
  };
  if (values.merge !== undefined) return merge(values, values.merge, report, otel);
  const shard = values.shard === undefined ? undefined : parseShard(values.shard);
  if (
    shard &&
    (values.compare !== undefined ||
      values['update-reference'] ||
      values['reference-from'] !== undefined)
  ) {
    throw new ConfigError(
      '--compare, --reference-from and --update-reference belong to the merge (npm run eval -- --merge reports/shards ...), not to one --shard',
    );
  }
  // --trials all: every row replays what was recorded for it (record --until-decided stops rows at different counts).
  const recordedTrials = values.trials?.trim() === 'all';
  if (recordedTrials && shard) {
    throw new ConfigError(
      '--trials all replays what each row has, which a shard cannot deal out: give --trials N with --shard',
    );
  }
  const trials = recordedTrials
    ? DEFAULT_TRIALS
    : positiveInteger('--trials', values.trials, DEFAULT_TRIALS);
  const matching = oneOf('--replay', values.replay, ['strict', 'lenient'] as const, 'strict');
  const judge = judgeFlags(values);
  const projectDir = process.cwd();
  const selection = { ...(tasks && { tasks }), ...(variants && { variants }), ...cases };
  if (!recordedTrials && !cases.caseSample && tooFewRecorded(projectDir, trials, selection))
    return 2;
  const simulator = await openJudgeSimulator(values.simulated === true);
  try {
    const run = values.watch ? watchReplay : (options: RunEvalsOptions) => replay(otel, options);
    return await run({
      projectDir,
      mode: 'replay',
      trials,
      ...(recordedTrials && { recordedTrials }),
      matching,
      ...(tasks && { tasks }),
      ...(variants && { variants }),
      ...(suites && { suites }),
      ...cases,
      ...report,
      ...(shard && { shard }),
      judge,
      ...(values.simulated && { source: 'simulator' as const }),
    });
  } finally {
    await simulator?.close();
  }
}

/** --rescore, --record-judge, --simulated, --judge-model, --judge-samples: checked, one line each. */
function judgeFlags(values: EvalFlags): NonNullable<RunEvalsOptions['judge']> {
  if (values['record-judge'] && !values.rescore) {
    throw new ConfigError(
      '--record-judge goes with --rescore: npm run eval -- --rescore --record-judge',
    );
  }
  if (values.simulated && !values.rescore) {
    throw new ConfigError(
      '--simulated goes with --rescore (the judges are asked again, offline): npm run eval -- --rescore --simulated',
    );
  }
  if (values['record-judge'] && process.env.CI) {
    throw new ConfigError(
      '--record-judge is refused when CI is set: CI replays the committed judge calls; record on your machine and commit them',
    );
  }
  const overrides = judgeOverrides(values);
  if (values.rescore && !values.simulated) requireJudgeKey();
  return {
    mode: values.rescore ? (values['record-judge'] ? 'record' : 'live') : 'replay',
    ...overrides,
  };
}

/** A live --rescore needs a key for the judges: one line when there is none at all. */
function requireJudgeKey(): void {
  if (
    process.env[JUDGE_ENV.apiKey] ||
    process.env.ANTHROPIC_API_KEY ||
    process.env.OPENAI_API_KEY
  ) {
    return;
  }
  throw new ConfigError(
    `--rescore asks the judges live: set ${JUDGE_ENV.apiKey} (or ANTHROPIC_API_KEY / OPENAI_API_KEY), or judge offline with --simulated`,
  );
}

/** `--rescore --simulated`: the simulator the judges are asked on (its built-in judge policy). */
async function openJudgeSimulator(simulated: boolean): Promise<RunningSimulator | undefined> {
  if (!simulated) return undefined;
  // Loaded only here: a replay never loads the simulator.
  const { startSimulator } = await import('../simulator/server.js');
  const { SIMULATOR_URL_ENV } = await import('../eval/trial/upstream.js');
  const simulator = await startSimulator({ unmatched: 'error' });
  process.env[SIMULATOR_URL_ENV] = simulator.url;
  return simulator;
}

/**
 * `--compare A,B`: two variant names (not a report file there), for a focused view of A and B
 * with every Δ against A; undefined for a report file (`--compare reports/old.json`).
 */
export function variantPair(
  value: string | undefined,
  projectDir: string,
): [string, string] | undefined {
  if (value === undefined || existsSync(resolve(projectDir, value))) return undefined;
  const parts = value.split(',').map((part) => part.trim());
  if (parts.length !== 2 || !parts.every(isVariantName)) return undefined;
  const [first, second] = parts as [string, string];
  if (first === second) {
    throw new ConfigError(
      `--compare ${value} names one variant twice: give two, e.g. --compare baseline,candidate`,
    );
  }
  return [first, second];
}

function reportOptions(
  values: Pick<
    EvalFlags,
    | 'compare'
    | 'reference-from'
    | 'allow-lower-reference'
    | 'update-reference'
    | 'alpha'
    | 'strict-floors'
    | 'delta'
    | 'beta'
    | 'undecided'
    | 'max-trials'
  >,
) {
  const alpha = fraction('--alpha', values.alpha);
  const decide = decisionFlags(values);
  return {
    ...(Object.keys(decide).length > 0 && { decide }),
    ...(values.compare && { compare: values.compare }),
    ...(values['reference-from'] && { referenceFrom: values['reference-from'] }),
    ...(values['allow-lower-reference'] && { allowLowerReference: true }),
    updateReference: values['update-reference'] ?? false,
    ...(alpha !== undefined && { alpha }),
    strictFloors: values['strict-floors'] ?? false,
    color: process.stdout.isTTY === true,
  };
}

/** `--merge DIR`: the report and the gate of the shard results in DIR. */
async function merge(values: EvalFlags, dir: string, report: ReportFlags, otel?: OtelTarget) {
  const runFlags = [
    'trials',
    'task',
    'variant',
    'suite',
    'case',
    'cases',
    'replay',
    'shard',
    'rescore',
    'record-judge',
    'simulated',
    'judge-model',
    'judge-samples',
  ] as const;
  const given = runFlags.filter((flag) => values[flag] !== undefined);
  if (given.length > 0) {
    throw new ConfigError(
      `--merge takes the trials and the selection from the shards: drop ${given.map((flag) => `--${flag}`).join(', ')}`,
    );
  }
  // Loaded only to merge: a run does not pay for the shard schemas before it starts.
  const { mergeEvals } = await import('../eval/run/merge-evals.js');
  const merged = await mergeEvals({ projectDir: process.cwd(), dir, ...report });
  console.log(merged.terminal);
  for (const note of merged.notes) console.log(`note: ${terminalLine(note)}`);
  console.log(
    `${merged.records.length} trials from ${merged.shards} shards; wrote ${merged.written.join(', ') || 'nothing'}`,
  );
  const code = printGate(merged.report.gate, merged.writeError);
  return exportOtel(otel, { ...merged, projectDir: process.cwd() }, code);
}

/** Whether --trials asks for more trials than the fixtures hold; says so on stderr when it does. */
function tooFewRecorded(
  projectDir: string,
  trials: number,
  selection: { tasks?: string[]; variants?: string[]; cases?: string[] },
): boolean {
  const short = shortFixtures(`${projectDir}/fixtures`, trials, selection);
  if (short.length === 0) return false;
  const listed = short
    .slice(0, 4)
    .map((entry) => `${entry.folder} has ${entry.recorded}`)
    .join(', ');
  console.error(
    `eval: --trials ${trials} asks for more trials than are recorded (${listed}${short.length > 4 ? ', ...' : ''}).\n` +
      `Record the rest: npm run record -- --trials ${trials} --missing-only (add --simulated for the simulator), or ask for fewer trials.`,
  );
  return true;
}

/** Replay the selected trials (or one shard of them), print the tables and the gate. */
async function replay(otel: OtelTarget | undefined, options: RunEvalsOptions): Promise<number> {
  const tty = process.stdout.isTTY === true;
  let done = 0;
  const started = performance.now();
  const result = await runEvals({
    ...options,
    onTrial: () => {
      done += 1;
      if (tty) process.stdout.write(`\r  ${done} trials done`);
    },
  });
  if (tty) process.stdout.write('\r\x1b[K');
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  if (options.shard) {
    // A slice's scores are partial: the tables and the gate come from --merge.
    const outcomes = new Map<string, number>();
    for (const record of result.records) {
      outcomes.set(record.outcome, (outcomes.get(record.outcome) ?? 0) + 1);
    }
    const counts = [...outcomes].map(([outcome, count]) => `${count} ${outcome}`).join(', ');
    console.log(
      `shard ${formatShard(options.shard)}: ${result.records.length} trials (${counts || 'none'}) in ${seconds} s; wrote ${result.written.join(', ')}\n` +
        'The report and the gate come from the merge: npm run eval -- --merge reports/shards',
    );
    return exportOtel(otel, { ...result, projectDir: options.projectDir }, 0, options.shard);
  }
  console.log(result.terminal);
  for (const note of result.notes) console.log(`note: ${terminalLine(note)}`);
  console.log(
    `${result.records.length} trials in ${seconds} s; wrote ${result.written.join(', ') || 'nothing'}`,
  );
  const code = printGate(result.report.gate, result.writeError);
  return exportOtel(otel, { ...result, projectDir: options.projectDir }, code);
}

/** The gate's verdict; exit 2 when the reports CI reads could not be written, whatever it says. */
function printGate(gate: GateResult, writeError?: string): number {
  // The reasons are listed under the report header above.
  console.log(gateLine(gate));
  if (writeError) {
    console.error(`eval: ${writeError}`);
    return 2;
  }
  return gate.passed ? 0 : 1;
}

/**
 * `npm run eval` as a function: prints what the CLI prints and returns the exit code.
 * Bad input is one line on stderr and exit 2 (`--help` prints the usage).
 */
export function runEvalCli(argv: string[]): Promise<number> {
  return main(argv).catch((error: unknown) => {
    // A file each task names that is missing or wrong: one line each.
    if (error instanceof TaskInputError) {
      for (const line of error.message.split('\n')) console.error(`eval: ${terminalLine(line)}`);
      return 2;
    }
    // Shard and reference errors quote task ids and paths from files; their lines are kept.
    console.error(`eval: ${terminalText(errorMessage(error))}`);
    return 2;
  });
}

if (isEntryPoint(import.meta.url)) {
  runEvalCli(process.argv.slice(2)).then((code) => {
    process.exitCode = code;
  });
}
