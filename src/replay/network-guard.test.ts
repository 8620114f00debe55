import { once } from 'node:events';
import { rm } from 'node:fs/promises';
import { createServer, get, type Server } from 'node:http';
import { connect, createServer as createNetServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { refuseNetwork } from './network-guard.js';

let server: Server;
let port: number;
let requests = 0;
const releases: Array<() => void> = [];

beforeAll(async () => {
  // No keep-alive: a pooled connection from one test would let the next test's request past
  // the guard, which refuses new connections only (tests in any order, vitest --sequence.shuffle).
  server = createServer((_request, response) => {
    requests += 1;
    response.setHeader('connection', 'close');
    response.end('reached');
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  port = (server.address() as { port: number }).port;
});
afterAll(() => server.close());
afterEach(() => {
  for (const release of releases.splice(0)) release();
});

const refuse = () => {
  const release = refuseNetwork();
  releases.push(release);
  return release;
};

/** What `http.get` ends with: the body, or the error it emitted. */
function httpGet(): Promise<string | Error> {
  return new Promise((resolve) => {
    get(`http://127.0.0.1:${port}/`, (response) => {
      let body = '';
      response.on('data', (chunk) => {
        body += chunk;
      });
      response.on('end', () => resolve(body));
    }).on('error', resolve);
  });
}

describe('refuseNetwork', () => {
  it('refuses http requests and fetch to any host, naming it, and the host gets nothing', async () => {
    refuse();
    const before = requests;
    const refused = await httpGet();
    expect(refused).toBeInstanceOf(Error);
    expect((refused as Error & { code: string }).code).toBe('network_refused');
    expect((refused as Error).message).toContain(`127.0.0.1:${port}`);
    expect((refused as Error).message).toMatch(/may not use the network/);
    await expect(fetch(`http://127.0.0.1:${port}/v1/messages`)).rejects.toThrow(
      `tried to reach http://127.0.0.1:${port}/v1/messages`,
    );
    await expect(fetch(new Request('https://api.anthropic.com/v1/messages'))).rejects.toThrow(
      'tried to reach https://api.anthropic.com/v1/messages',
    );
    expect(requests).toBe(before);
  });

  it('refuses a fetch captured before the guard too (at the socket), and the host gets nothing', async () => {
    const captured = globalThis.fetch;
    refuse();
    const before = requests;
    const error = await captured(`http://127.0.0.1:${port}/`).then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(TypeError); // undici's "fetch failed" ...
    expect((error as { cause?: { code?: string } }).cause?.code).toBe('network_refused'); // ... caused by the guard
    expect(requests).toBe(before);
  });

  it('refuses a raw TCP connect (a database driver, say)', async () => {
    refuse();
    const socket = connect({ host: '127.0.0.1', port });
    const [error] = (await once(socket, 'error')) as [Error & { code: string }];
    expect(error.code).toBe('network_refused');
    expect(socket.destroyed).toBe(true);
  });

  it('still allows a Unix socket', async () => {
    const path = join(tmpdir(), `harness-guard-${process.pid}.sock`);
    const local = createNetServer((socket) => socket.end('local'));
    local.listen(path);
    await once(local, 'listening');
    try {
      refuse();
      const socket = connect(path);
      const [data] = await once(socket, 'data');
      expect(String(data)).toBe('local');
    } finally {
      local.close();
      await rm(path, { force: true });
    }
  });

  it('gives the network back when the last holder releases it, once per holder', async () => {
    const first = refuse();
    const second = refuse();
    first();
    first(); // a second release of the same holder does not release the other one
    expect(await httpGet()).toBeInstanceOf(Error);
    second();
    expect(await httpGet()).toBe('reached');
    expect(await (await fetch(`http://127.0.0.1:${port}/`)).text()).toBe('reached');
  });
});
