import { spawn } from 'node:child_process';
import { errorMessage } from '../core/errors.js';
import { parseCliArgs, positiveInteger } from './args.js';
import { allowedHostName, reportUrl, resolveReport, serveReport } from './view-report.js';

const USAGE = `usage: npm run view -- [FILE] [--serve [--port N] [--allow-host NAME]] [--no-open]

Shows the HTML eval report (default reports/latest.html, written by npm run eval).
  FILE        another report, e.g. a CI artifact you downloaded
  --serve     serve it on 127.0.0.1 and print the URL (until Ctrl-C)
  --port N    the port for --serve (default: any free port)
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
  if (allowHosts.length > 0 && !values.serve) {
    console.error(`view: --allow-host is for --serve\n\n${USAGE}`);
    return 2;
  }
  const file = resolveReport(process.cwd(), positionals[0]);
  if (!values.serve) {
    const url = reportUrl(file);
    console.log(url);
    if (!values['no-open']) open(url);
    return 0;
  }
  const port = values.port === undefined ? 0 : positiveInteger('--port', values.port, 0, 65535);
  const server = await serveReport({ file, port, allowHosts });
  console.log(`serving ${file} at ${server.url} (Ctrl-C to stop)`);
  if (!values['no-open']) open(server.url);
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
