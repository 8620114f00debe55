import { existsSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ConfigError } from '../core/errors.js';
import { readRegularFile } from '../core/regular-file.js';
import { type createLabelApi, LABELS_PATH } from './view-label.js';

type LabelApi = ReturnType<typeof createLabelApi>;

/** The name of the meta element that turns the viewer's labelling view on. */
export const LABEL_META = 'harness-label';

/**
 * The report as `view --label` serves it: its policy also lets the page reach its own origin
 * (the labelling API), and a meta element tells the viewer to offer the labelling view. The
 * file on disk, and every other way of opening it, keeps `default-src 'none'`.
 */
export function labelPage(html: string): string {
  const policy = /(<meta http-equiv="Content-Security-Policy" content=")default-src 'none';/;
  if (!policy.test(html)) {
    throw new ConfigError(
      'this file is not an HTML report written by npm run eval (no report policy): run npm run eval and label reports/latest.html',
    );
  }
  return html
    .replace(policy, "$1default-src 'none'; connect-src 'self';")
    .replace('<title>', `<meta name="${LABEL_META}" content="${LABELS_PATH}">\n<title>`);
}

/** Where `npm run eval` writes the HTML report. */
export const LATEST_HTML = 'reports/latest.html';

/** The report to show: the one given, else reports/latest.html; a clear error when it is not there. */
export function resolveReport(projectDir: string, given?: string): string {
  const file = resolve(projectDir, given ?? LATEST_HTML);
  if (!existsSync(file) || !statSync(file).isFile()) {
    const shown = relative(projectDir, file) || file;
    const what = existsSync(file) && statSync(file).isDirectory() ? 'a directory' : 'no such file';
    throw new ConfigError(
      given === undefined
        ? `${LATEST_HTML} does not exist yet: run npm run eval first (it writes the HTML report)`
        : `${shown}: ${what}; give an HTML report written by npm run eval`,
    );
  }
  return file;
}

/** The run's JSON report beside an HTML one (reports/latest.json): what labelling reads. */
export function reportJsonOf(html: string): string {
  const json = `${html.replace(/\.html?$/i, '')}.json`;
  if (!existsSync(json)) {
    throw new ConfigError(
      `${json} does not exist: --label reads the run's JSON report beside the HTML one; run npm run eval (it writes both)`,
    );
  }
  return json;
}

export function reportUrl(file: string): string {
  return pathToFileURL(file).href;
}

/** The names this machine answers to: any other Host is a page whose name was rebound to it. */
const LOOPBACK_HOSTS = ['127.0.0.1', 'localhost', '[::1]'];

/** A host name `--allow-host` takes: a DNS name or an IPv4 address, no port, no path. */
const HOST_NAME =
  /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*$/i;

/** Checks a name given to `--allow-host`; the error names it and the shape it must have. */
export function allowedHostName(name: string): string {
  if (!HOST_NAME.test(name)) {
    throw new ConfigError(
      `--allow-host ${JSON.stringify(name)}: give a host name as the browser's address bar shows it, without scheme, port or path (e.g. my-box-8080.app.github.dev)`,
    );
  }
  return name.toLowerCase();
}

/** Whether a request's Host header is exactly one of `names`, with an optional port. */
function hostAllowed(host: string | undefined, names: readonly string[]): boolean {
  if (host === undefined) return false;
  const match = /^(.+?)(?::(\d{1,5}))?$/.exec(host.toLowerCase());
  return match !== null && names.includes(match[1]!);
}

/**
 * Serve one report file on 127.0.0.1 (for a machine whose browser cannot open file:// paths,
 * e.g. a container with a forwarded port). Every path answers with the report; it is re-read
 * on each request, so a new eval run shows on reload. Only requests for a loopback name, or a
 * name in `allowHosts` (a cloud IDE's forwarding address), are answered, any port: a web page
 * whose own name was rebound to 127.0.0.1 (DNS rebinding) would otherwise read the report,
 * prompts and tool results included.
 */
export async function serveReport(options: {
  file: string;
  port?: number;
  allowHosts?: readonly string[];
  /** `view --label`: the labelling API at LABELS_PATH, and the page told it may reach it. */
  label?: LabelApi;
}): Promise<{ url: string; close: () => Promise<void> }> {
  const names = [...LOOPBACK_HOSTS, ...(options.allowHosts ?? []).map(allowedHostName)];
  const { label } = options;
  const server = createServer((request, response) => {
    if (
      label &&
      request.url?.split('?')[0] === LABELS_PATH &&
      hostAllowed(request.headers.host, names)
    ) {
      label.handle(request, response, request.headers.host!);
      return;
    }
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      response.writeHead(405, { allow: 'GET, HEAD' }).end();
      return;
    }
    // A browser sends a path; a full URL as the target would name a host of its own.
    if (!request.url?.startsWith('/') || !hostAllowed(request.headers.host, names)) {
      const { port } = server.address() as AddressInfo;
      response
        .writeHead(403, { 'content-type': 'text/plain; charset=utf-8' })
        .end(
          `This report is served to this machine only: open http://127.0.0.1:${port}/ (or localhost). Behind a forwarding proxy (a cloud IDE), allow its host name: npm run view -- --serve --allow-host NAME\n`,
        );
      return;
    }
    readRegularFile(options.file)
      .then((body) => (label ? labelPage(body.toString('utf8')) : body))
      .then(
        (body) => {
          response.writeHead(200, {
            'content-type': 'text/html; charset=utf-8',
            'cache-control': 'no-store',
          });
          response.end(request.method === 'HEAD' ? undefined : body);
        },
        (error: Error) => {
          response.writeHead(500, { 'content-type': 'text/plain' }).end(error.message);
        },
      );
  });
  await new Promise<void>((done, fail) => {
    server.once('error', fail);
    server.listen(options.port ?? 0, '127.0.0.1', done);
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () => new Promise((done) => server.close(() => done())),
  };
}
