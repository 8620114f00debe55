import { errorMessage, HarnessError } from '../core/errors.js';
import { escapeForTerminal } from '../core/terminal-text.js';
import { formatTraceMarkdown, formatTraceTables } from '../trace-report/format.js';
import { readTraces } from '../trace-report/read-traces.js';
import { summarizeTraces } from '../trace-report/summarize.js';
import { parseCliArgs } from './args.js';
import { isEntryPoint } from './entry-point.js';

const USAGE = `usage: npm run trace -- <file or folder>... [--markdown]

Summarises JSONL run traces (e.g. runs/): per tool (calls, mean and p95 time, error rate,
decisions) and per run (status, steps, tokens, retries).
  --markdown   print GitHub markdown instead of terminal tables`;

async function main(argv: string[]): Promise<number> {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(argv);
  } catch (error) {
    console.error(`trace: ${errorMessage(error)}\n${USAGE}`);
    return 2;
  }
  const { values, positionals } = parsed;
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  if (positionals.length === 0) {
    console.error(`trace: name a trace file or folder, e.g. runs/\n${USAGE}`);
    return 2;
  }
  const traces = await readTraces(positionals);
  if (traces.length === 0) {
    console.error(
      `trace: no run traces (*.jsonl starting with run_start) in ${positionals.join(', ')}`,
    );
    return 1;
  }
  const report = summarizeTraces(traces);
  console.log(values.markdown ? formatTraceMarkdown(report) : formatTraceTables(report));
  return 0;
}

function parse(argv: string[]) {
  return parseCliArgs({
    args: argv,
    allowPositionals: true,
    options: {
      markdown: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
}

/** `npm run trace` as a function: prints what the CLI prints and returns the exit code. */
export function runTraceCli(argv: string[]): Promise<number> {
  return main(argv).catch((error: unknown) => {
    const prefix = error instanceof HarnessError ? error.code : 'error';
    // The message names a path, which may come from a folder listing.
    console.error(`trace: ${prefix}: ${escapeForTerminal(errorMessage(error))}`);
    return 2;
  });
}

if (isEntryPoint(import.meta.url)) {
  runTraceCli(process.argv.slice(2)).then((code) => {
    process.exitCode = code;
  });
}
