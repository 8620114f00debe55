import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { captureCli } from '../../cli/testing/cli.js';
import { forgetSecretValues } from '../../core/secret-values.js';
import { assistantMessage } from '../../runtime/testing/hostile-api.js';
import { runAgentCli } from './agent.js';

// A hostile Messages API on 127.0.0.1: errors and answers that echo the key it was sent, plus
// a credential of the known shape and terminal control sequences.
const GATEWAY_KEY = 'gw-live-0123456789abcdefXYZ';
const ECHOED = 'sk-ant-api03-ECHOECHOECHOECHOECHO';
const CONTROL = '\u001b]0;pwned\u0007\u001b[2J\u009b2J';
let server: Server;
let url: string;
let cwd: string;
const seen: Record<string, number> = {};

beforeAll(async () => {
  cwd = mkdtempSync(join(tmpdir(), 'agent-secrets-'));
  server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => {
      body += chunk;
    });
    request.on('end', () => {
      const sent = request.headers['x-api-key'] ?? request.headers.authorization;
      const key = String(sent).replace(/^Bearer /, '');
      const parsed = JSON.parse(body);
      const scenario = String(parsed.messages[0].content);
      seen[scenario] = (seen[scenario] ?? 0) + 1;
      const send = (status: number, reply: unknown, headers: Record<string, string> = {}) => {
        response.writeHead(status, { 'content-type': 'application/json', ...headers });
        response.end(JSON.stringify(reply));
      };
      const error = (status: number, type: string) =>
        send(
          status,
          { type: 'error', error: { type, message: `key ${key} refused ${ECHOED} ${CONTROL}` } },
          { 'retry-after-ms': '1' },
        );
      if (scenario === 'retry then 400') {
        return seen[scenario] === 1 ? error(429, 'rate_limit_error') : error(400, 'invalid');
      }
      if (scenario === '401') return error(401, 'authentication_error');
      if (scenario === 'answer') {
        const text = `your key is ${key}, also ${ECHOED}${CONTROL}\nsecond line`;
        return send(200, assistantMessage([{ type: 'text', text }], 'end_turn'));
      }
      // 'tool input': the model puts the key into a tool call, then answers.
      if (parsed.messages.length === 1) {
        const call = { type: 'tool_use', id: 'toolu_1', name: 'get_order' };
        const input = { order_id: `ORD1001 ${key} ${ECHOED}${CONTROL}` };
        return send(200, assistantMessage([{ ...call, input }], 'tool_use'));
      }
      return send(200, assistantMessage([{ type: 'text', text: 'ok' }], 'end_turn'));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterEach(forgetSecretValues);
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  rmSync(cwd, { recursive: true, force: true });
});

/** Everything the run left on disk: traces, checkpoints, write logs. */
function filesOnDisk(dir = join(cwd, 'runs')): string {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => readFileSync(join(entry.parentPath, entry.name), 'utf8'))
    .join('\n');
}

function expectNoSecrets(text: string) {
  expect(text).not.toContain(GATEWAY_KEY);
  expect(text).not.toContain(ECHOED);
  // biome-ignore lint/suspicious/noControlCharactersInRegex: no control sequence may get through.
  expect(text).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
}

describe('npm run agent with a key a server echoes', { timeout: 60_000 }, () => {
  it.each([
    ['retry then 400', 1, /\[redacted ANTHROPIC_API_KEY\]/],
    ['401', 2, /^agent: model_api: authentication failed \(401\)/m],
    ['answer', 0, /^your key is \[redacted ANTHROPIC_API_KEY\], also sk-ant-\[redacted\]/m],
    ['tool input', 0, /^step 1 get_order\(.*\[redacted ANTHROPIC_API_KEY\]/m],
  ])('%s: masks it on the terminal and on disk (exit %i)', async (scenario, exit, shown) => {
    const env = { ANTHROPIC_BASE_URL: url, ANTHROPIC_API_KEY: GATEWAY_KEY };
    const { code, stdout, stderr } = await captureCli(() =>
      runAgentCli([scenario, '--unattended', '--verbose', '--max-retries', '2'], { cwd, env }),
    );
    expect(code).toBe(exit);
    expect(`${stdout}${stderr}`).toMatch(shown);
    expectNoSecrets(stdout);
    expectNoSecrets(stderr);
    expect(filesOnDisk()).not.toContain(GATEWAY_KEY);
    expect(filesOnDisk()).not.toContain(ECHOED);
  });

  it('prints the retry line masked too', async () => {
    const env = { ANTHROPIC_BASE_URL: url, ANTHROPIC_API_KEY: GATEWAY_KEY };
    seen['retry then 400'] = 0;
    const { stdout } = await captureCli(() =>
      runAgentCli(['retry then 400', '--unattended', '--verbose'], { cwd, env }),
    );
    expect(stdout).toMatch(/^step 1 model \S+: .*\[redacted ANTHROPIC_API_KEY\].*; retry 1 in/m);
    expect(stdout).toMatch(/^\[error\] .*\[redacted ANTHROPIC_API_KEY\].*sk-ant-\[redacted\]/m);
  });

  it('masks the password of a base URL in the unreachable-host line and the retry line', async () => {
    const password = 'gwpass0123456789';
    const env = {
      ANTHROPIC_BASE_URL: `http://user:${password}@127.0.0.1:1`,
      ANTHROPIC_API_KEY: GATEWAY_KEY,
    };
    const { code, stdout, stderr } = await captureCli(() =>
      runAgentCli(['hi', '--unattended', '--verbose', '--max-retries', '1'], { cwd, env }),
    );
    expect(code).toBe(2);
    expect(stderr).toMatch(
      /^agent: model_api: cannot reach .* at http:\/\/\[redacted\]@127\.0\.0\.1:1/,
    );
    expect(stdout).toMatch(/retry 1 in/);
    expect(`${stdout}${stderr}`).not.toContain(password);
    expect(filesOnDisk()).not.toContain(password);
  });

  it.each([
    ['a user token', (token: string) => `http://${token}@127.0.0.1:1`],
    ['a query key', (token: string) => `http://127.0.0.1:1/?api_key=${token}`],
    ['a percent-encoded query key', (token: string) => `http://127.0.0.1:1/?api%5Fkey=${token}%2F`],
    ['a fragment', (token: string) => `http://127.0.0.1:1/#${token}`],
  ])('keeps %s of the base URL out of every line and file', async (_, baseUrl) => {
    const token = 'tok_live_0123456789abcdef';
    const env = { ANTHROPIC_BASE_URL: baseUrl(token), ANTHROPIC_API_KEY: GATEWAY_KEY };
    const { code, stdout, stderr } = await captureCli(() =>
      runAgentCli(['hi', '--unattended', '--verbose', '--max-retries', '1'], { cwd, env }),
    );
    expect(code).toBe(2);
    expect(stderr).toMatch(/^agent: model_api: cannot reach /);
    expect(`${stdout}${stderr}`).not.toContain(token);
    expect(filesOnDisk()).not.toContain(token);
  });
});
