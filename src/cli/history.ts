import { resolve } from 'node:path';
import { writeFileAtomic } from '../core/atomic-write.js';
import { ConfigError, errorMessage } from '../core/errors.js';
import { historyFromDir, historyFromGit } from '../eval/base/history-source.js';
import { renderHistoryHtml } from '../eval/report/history-html.js';
import { renderHistoryMarkdown } from '../eval/report/history-markdown.js';
import { buildHistory, type History } from '../eval/report/history-model.js';
import { listFlag, nonEmpty, parseFlags, positiveInteger } from './args.js';
import { isEntryPoint } from './entry-point.js';
import { terminalLine } from './terminal-text.js';

const USAGE = `usage: npm run history -- [--file reports/reference.json] [--harness PATHS] [--limit N]
                          [--dir DIR] [--out FILE] [--html reports/history.html]

Reads every committed version of the report file (git log --follow, git show: no checkout), or
with --dir every .json report in DIR (downloaded CI reports, ordered by generatedAt), and shows
per task and variant the pass@1 line with its 95% intervals. Each change between two consecutive
reports is marked regressed, recovered, improved or flaky (the verdict moved while the harness
files did not), with the commit it happened at; a version that cannot be read is skipped and named.
  --file     the report over git (default reports/reference.json)
  --harness  the paths that are the harness, comma-separated (default: every tracked file but
             reports/ and fixtures/)
  --limit    the most recent commits read (default 200)
  --dir      a folder of reports instead of git (no harness there: nothing is called flaky)
  --out      write the markdown summary to FILE instead of stdout
  --html     where the page with the small-multiples plot goes (default reports/history.html)`;

const FLAGS = {
  file: { type: 'string' },
  dir: { type: 'string' },
  harness: { type: 'string' },
  limit: { type: 'string' },
  out: { type: 'string' },
  html: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** The flags that choose what is read. */
interface HistoryFlags {
  file?: string | undefined;
  dir?: string | undefined;
  harness?: string | undefined;
  limit?: string | undefined;
}

async function readHistory(values: HistoryFlags, cwd: string) {
  if (values.dir !== undefined) {
    if (values.file !== undefined || values.harness !== undefined) {
      throw new ConfigError(
        '--dir reads a folder of reports, not git: leave out --file and --harness',
      );
    }
    const dir = resolve(cwd, values.dir);
    return { source: values.dir, ...(await historyFromDir(dir, values.dir)) };
  }
  const file = values.file ?? 'reports/reference.json';
  const harness = listFlag(values.harness);
  const read = await historyFromGit({
    projectDir: cwd,
    file,
    limit: positiveInteger('--limit', values.limit, 200, 100_000),
    ...(harness && { harness }),
  });
  return { source: file, ...read };
}

async function main(argv: string[], cwd: string): Promise<number> {
  const { values } = parseFlags({ args: argv, options: FLAGS });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  for (const flag of ['file', 'dir', 'harness', 'out', 'html'] as const) {
    nonEmpty(
      `--${flag}`,
      values[flag],
      flag === 'dir' ? 'a folder' : flag === 'harness' ? 'paths' : 'a file',
    );
  }
  const read = await readHistory(values, cwd);
  const history: History = { ...read, series: buildHistory(read.points) };
  const markdown = renderHistoryMarkdown(history);
  const html = resolve(cwd, values.html ?? 'reports/history.html');
  await writeFileAtomic(html, renderHistoryHtml(history));
  if (values.out) await writeFileAtomic(resolve(cwd, values.out), markdown);
  else process.stdout.write(markdown);
  console.error(
    `history: ${history.points.length} reports read, ${history.skipped.length} skipped; plot in ${html}`,
  );
  return 0;
}

/** `npm run history` as a function: bad input is one line on stderr and exit 2. */
export function runHistoryCli(argv: string[], cwd: string = process.cwd()): Promise<number> {
  return main(argv, cwd).catch((error: unknown) => {
    console.error(`history: ${terminalLine(errorMessage(error))}`);
    return 2;
  });
}

if (isEntryPoint(import.meta.url)) {
  runHistoryCli(process.argv.slice(2)).then((code) => {
    process.exitCode = code;
  });
}
