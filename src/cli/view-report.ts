import { existsSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ConfigError } from '../core/errors.js';
import { readRegularFile } from '../core/regular-file.js';

/** Where `npm run eval` writes the HTML report. */
export const LATEST_HTML = 'reports/latest.html';

/** The report to show: the one given, else reports/latest.html; a clear error when it is not there. */
export function resolveReport(projectDir: string, given?: string): string {
  const file = resolve(projectDir, given ?? LATEST_HTML);
  if (!existsSync(file) || !statSync(file).isFile()) {
    throw new ConfigError(
      given === undefined
        ? `${LATEST_HTML} does not exist yet: run npm run eval first (it writes the HTML report)`
        : `${relative(projectDir, file) || file}: no such file; give an HTML report written by npm run eval`,
    );
  }
  return file;
}

export function reportUrl(file: string): string {
  return pathToFileURL(file).href;
}

/** The names this machine answers to: any other Host is a page whose name was rebound to it. */
const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** A request's Host header without its port, lower-cased ('' when there is none). */
function hostName(host: string | undefined): string {
  const name = (host ?? '').trim().toLowerCase();
  return name.startsWith('[') ? name.slice(0, name.indexOf(']') + 1) : name.split(':')[0]!;
}

/**
 * Serve one report file on 127.0.0.1 (for a machine whose browser cannot open file:// paths,
 * e.g. a container with a forwarded port). Every path answers with the report; it is re-read
 * on each request, so a new eval run shows on reload. Only requests for a loopback name are
 * answered (any port, for forwarded ones): a web page whose own name was rebound to 127.0.0.1
 * (DNS rebinding) would otherwise read the report, prompts and tool results included.
 */
export async function serveReport(options: {
  file: string;
  port?: number;
}): Promise<{ url: string; close: () => Promise<void> }> {
  const server = createServer((request, response) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      response.writeHead(405, { allow: 'GET, HEAD' }).end();
      return;
    }
    if (!LOOPBACK_HOSTS.has(hostName(request.headers.host))) {
      const { port } = server.address() as AddressInfo;
      response
        .writeHead(403, { 'content-type': 'text/plain; charset=utf-8' })
        .end(
          `This report is served to this machine only: open http://127.0.0.1:${port}/ (or localhost).\n`,
        );
      return;
    }
    readRegularFile(options.file).then(
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
