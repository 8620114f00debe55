import { parseArgs } from 'node:util';
import { errorMessage } from '../core/errors.js';
import { shortFixtures } from '../eval/fixture-inventory.js';
import { runEvals } from '../eval/run-evals.js';
import { DEFAULT_TRIALS } from '../eval/settings.js';
import { listFlag, oneOf, positiveInteger } from './args.js';
import { isEntryPoint } from './entry-point.js';

const USAGE = `usage: npm run eval -- [--trials N] [--task T1,T4] [--variant baseline,upgraded] [--suite NAME]
                       [--compare FILE] [--replay strict|lenient] [--update-reference]

Replays the committed fixtures (no API key needed), prints pass@k / pass^k, token and latency
tables, writes reports/latest.md and reports/latest.json, and exits non-zero when the gate fails
(a stale, missing or errored trial, a floor not met, or a drop against the reference).`;

async function main(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      trials: { type: 'string' },
      task: { type: 'string' },
      variant: { type: 'string' },
      suite: { type: 'string' },
      compare: { type: 'string' },
      replay: { type: 'string' },
      'update-reference': { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const trials = positiveInteger('--trials', values.trials, DEFAULT_TRIALS);
  const matching = oneOf('--replay', values.replay, ['strict', 'lenient'] as const, 'strict');
  const tasks = listFlag(values.task);
  const variants = listFlag(values.variant);
  const projectDir = process.cwd();

  const short = shortFixtures(`${projectDir}/fixtures`, trials, {
    ...(tasks && { tasks }),
    ...(variants && { variants }),
  });
  if (short.length > 0) {
    const listed = short
      .slice(0, 4)
      .map((entry) => `${entry.folder} has ${entry.recorded}`)
      .join(', ');
    console.error(
      `eval: --trials ${trials} asks for more trials than are recorded (${listed}${short.length > 4 ? ', ...' : ''}).\n` +
        `Record the rest: npm run record -- --trials ${trials} --missing-only (add --simulated for the simulator), or ask for fewer trials.`,
    );
    return 2;
  }

  const tty = process.stdout.isTTY === true;
  let done = 0;
  const started = performance.now();
  const result = await runEvals({
    projectDir,
    mode: 'replay',
    trials,
    matching,
    ...(tasks && { tasks }),
    ...(variants && { variants }),
    ...(listFlag(values.suite) && { suites: listFlag(values.suite)! }),
    ...(values.compare && { compare: values.compare }),
    updateReference: values['update-reference'] ?? false,
    color: tty,
    onTrial: () => {
      done += 1;
      if (tty) process.stdout.write(`\r  ${done} trials done`);
    },
  });
  if (tty) process.stdout.write('\r\x1b[K');
  console.log(result.terminal);
  for (const note of result.notes) console.log(`note: ${note}`);
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log(
    `${result.records.length} trials in ${seconds} s; wrote ${result.written.join(', ')}`,
  );
  const { gate } = result.report;
  // The reasons are listed under the report header above.
  console.log(
    gate.passed
      ? 'gate: passed'
      : `gate: FAILED (${gate.reasons.length} reason${gate.reasons.length === 1 ? '' : 's'} above)`,
  );
  if (gate.passed) return 0;
  return 1;
}

/**
 * `npm run eval` as a function: prints what the CLI prints and returns the exit code.
 * Bad input is one line on stderr and exit 2 (`--help` prints the usage).
 */
export function runEvalCli(argv: string[]): Promise<number> {
  return main(argv).catch((error: unknown) => {
    console.error(`eval: ${errorMessage(error)}`);
    return 2;
  });
}

if (isEntryPoint(import.meta.url)) {
  runEvalCli(process.argv.slice(2)).then((code) => {
    process.exitCode = code;
  });
}
