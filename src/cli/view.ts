import { spawn } from 'node:child_process';
import { errorMessage } from '../core/errors.js';
import { parseCliArgs, positiveInteger } from './args.js';
import { createLabelApi } from './view-label.js';
import {
  allowedHostName,
  reportJsonOf,
  reportUrl,
  resolveReport,
  serveReport,
} from './view-report.js';

const USAGE = `usage: npm run view -- [FILE] [--serve | --label] [--port N] [--allow-host NAME] [--no-open]

Shows the HTML eval report (default reports/latest.html, written by npm run eval).
  FILE        another report, e.g. a CI artifact you downloaded
  --serve     serve it on 127.0.0.1 and print the URL (until Ctrl-C)
  --label     serve it as --serve does, with a labelling view: go through the judged trials
              with the keyboard (j/k move, p/f pass/fail, s score, n note) and save each label
              to the judge's human-labels file; the calibration is recomputed as you go.
              Reads the run's JSON report beside FILE (reports/latest.json).
  --port N    the port for --serve or --label (default: any free port)
  --allow-host NAME
              also answer requests for NAME (a cloud IDE's forwarding address);
              --serve answers 127.0.0.1, localhost and [::1] only. Repeatable.
  --no-open   only print the URL; never start a browser
Without --serve it prints the file:// URL and, in an interactive terminal, opens it.`;

/** The desktop's "open this URL" command, if there is one. */
function opener(): string | undefined {
  if (process.platform === 'darwin') return 'open';
  if (process.platform === 'win32') return 'explorer';
  return process.env.DISPLAY || process.env.WAYLAND_DISPLAY ? 'xdg-open' : undefined;
}

function open(url: string): void {
  const command = opener();
  // Only a person at a terminal gets a browser; scripts, tests and CI only get the URL.
  if (!command || !process.stdout.isTTY || process.env.CI) return;
  const child = spawn(command, [url], { stdio: 'ignore', detached: true });
  child.on('error', () => undefined);
  child.unref();
}

async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseCliArgs({
    args: argv,
    allowPositionals: true,
    options: {
      serve: { type: 'boolean' },
      label: { type: 'boolean' },
      port: { type: 'string' },
      'allow-host': { type: 'string', multiple: true },
      'no-open': { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  if (positionals.length > 1) {
    console.error(`view: give one report file, got ${positionals.length}\n\n${USAGE}`);
    return 2;
  }
  const allowHosts = (values['allow-host'] ?? []).map(allowedHostName);
  const serve = values.serve || values.label;
  if (allowHosts.length > 0 && !serve) {
    console.error(`view: --allow-host is for --serve (or --label)\n\n${USAGE}`);
    return 2;
  }
  const file = resolveReport(process.cwd(), positionals[0]);
  if (!serve) {
    const url = reportUrl(file);
    console.log(url);
    if (!values['no-open']) open(url);
    return 0;
  }
  const port = values.port === undefined ? 0 : positiveInteger('--port', values.port, 0, 65535);
  const label = values.label
    ? createLabelApi({ projectDir: process.cwd(), reportFile: reportJsonOf(file) })
    : undefined;
  const server = await serveReport({ file, port, allowHosts, ...(label && { label }) });
  const what = label ? 'labelling' : 'serving';
  console.log(`${what} ${file} at ${server.url}${label ? '#label' : ''} (Ctrl-C to stop)`);
  if (!values['no-open']) open(`${server.url}${label ? '#label' : ''}`);
  process.once('SIGINT', () => void server.close());
  process.once('SIGTERM', () => void server.close());
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error(`view: ${errorMessage(error)}\n\n${USAGE}`);
    process.exitCode = 2;
  },
);
