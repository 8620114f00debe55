import { writeFileAtomic } from '../core/atomic-write.js';
import { ConfigError, errorMessage } from '../core/errors.js';
import { readRegularFile, whyUnreadable } from '../core/regular-file.js';
import { renderPrComment } from '../eval/report/pr-comment.js';
import {
  commentWithoutReport,
  type WorkflowStep,
  withFailedSteps,
} from '../eval/report/pr-comment-steps.js';
import { parseReport } from '../eval/report/report-schema.js';
import { nonEmpty, parseFlags } from './args.js';
import { isEntryPoint } from './entry-point.js';
import { terminalLine } from './terminal-text.js';

const USAGE = `usage: npm run comment -- [--report reports/latest.json] [--artifact-url URL] [--run-url URL] [--out FILE]
                          [--step 'NAME=OUTCOME[:LOG]' ...]

Writes a pull request's comment from an eval report (markdown, starting with a marker line the
workflow finds it by, to update it in place): the gate, what the PR changed against its base, the
rows that moved against the reference with their 95% intervals, the scores, the detection limit,
and links to the HTML report artifact and the run. Prints it, or writes it to --out.
--step names a workflow step, its outcome (steps.<id>.outcome) and the file its output went to:
a step that did not succeed is listed first, with the lines that say why. With a failed step and
no report (the eval did not run, or stopped), the comment still says which step failed and why.`;

const FLAGS = {
  report: { type: 'string' },
  'artifact-url': { type: 'string' },
  'run-url': { type: 'string' },
  out: { type: 'string' },
  step: { type: 'string', multiple: true },
  help: { type: 'boolean', short: 'h' },
} as const;

/** A report larger than this is no eval report (a 2,000-trial one is a few MiB). */
const MAX_REPORT_BYTES = 256 * 1024 * 1024;

async function main(argv: string[]): Promise<number> {
  const { values } = parseFlags({ args: argv, options: FLAGS });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  for (const flag of ['report', 'artifact-url', 'run-url', 'out'] as const) {
    nonEmpty(
      `--${flag}`,
      values[flag],
      flag === 'out' ? 'a file' : flag === 'report' ? 'a report file' : 'a URL',
    );
  }
  for (const flag of ['artifact-url', 'run-url'] as const) {
    const url = values[flag];
    if (url !== undefined && !/^https:\/\/[^\s()<>]+$/.test(url)) {
      throw new ConfigError(`--${flag} ${JSON.stringify(url.slice(0, 80))} is not an https URL`);
    }
  }
  const steps = await Promise.all((values.step ?? []).map(readStep));
  const failed = steps.some((step) => step.outcome !== 'success');
  const file = values.report ?? 'reports/latest.json';
  let text: string | undefined;
  try {
    const bytes = await readRegularFile(file);
    if (bytes.length > MAX_REPORT_BYTES) throw new Error('larger than any eval report');
    text = bytes.toString('utf8');
  } catch (error) {
    // A failed step that left no report still gets its comment: which step, and why.
    if (!failed) {
      throw new ConfigError(
        `${file} cannot be read (${whyUnreadable(error)}): run npm run eval first, or name the report with --report`,
      );
    }
  }
  const body =
    text === undefined
      ? commentWithoutReport(steps, values['run-url'])
      : withFailedSteps(
          renderPrComment(parseReport(text, file), {
            ...(values['artifact-url'] && { artifactUrl: values['artifact-url'] }),
            ...(values['run-url'] && { runUrl: values['run-url'] }),
          }),
          steps,
        );
  if (values.out) await writeFileAtomic(values.out, body);
  else process.stdout.write(body);
  return 0;
}

/** `--step 'record --verify=failure:/tmp/verify.log'`: the step, its outcome and its output. */
async function readStep(value: string): Promise<WorkflowStep> {
  const match = /^([^=]+)=(success|failure|cancelled|skipped)(?::(.+))?$/.exec(value);
  if (!match) {
    throw new ConfigError(
      `--step ${JSON.stringify(value.slice(0, 80))} is not NAME=OUTCOME[:LOG] (outcome: success, failure, cancelled or skipped)`,
    );
  }
  const [, name, outcome, logFile] = match as unknown as [string, string, string, string?];
  let log: string | undefined;
  if (logFile) {
    // A step that did not run wrote no log: it is listed without one.
    log = await readRegularFile(logFile).then(
      (bytes) => bytes.subarray(-MAX_LOG_BYTES).toString('utf8'),
      () => undefined,
    );
  }
  return { name: name.trim(), outcome, ...(log !== undefined && { log }) };
}

/** Only the end of a step's output is read: the lines that say why are quoted from it. */
const MAX_LOG_BYTES = 4 * 1024 * 1024;

/** `npm run comment` as a function: bad input is one line on stderr and exit 2. */
export function runCommentCli(argv: string[]): Promise<number> {
  return main(argv).catch((error: unknown) => {
    console.error(`comment: ${terminalLine(errorMessage(error))}`);
    return 2;
  });
}

if (isEntryPoint(import.meta.url)) {
  runCommentCli(process.argv.slice(2)).then((code) => {
    process.exitCode = code;
  });
}
