import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CliOutcome, captureCli } from '../../cli/testing/cli.js';
import { assistantMessage } from '../../runtime/testing/hostile-api.js';
import { runAgentCli } from './agent.js';

// A model that asks for two refund writes in one turn, then ends its turn once it sees results.
let server: Server;
let url: string;
let cwd: string;

beforeAll(async () => {
  cwd = mkdtempSync(join(tmpdir(), 'agent-approvals-'));
  server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => {
      body += chunk;
    });
    request.on('end', () => {
      const last = JSON.parse(body).messages.at(-1);
      const sawResults =
        Array.isArray(last.content) &&
        last.content.some((block: { type: string }) => block.type === 'tool_result');
      const reply = sawResults
        ? assistantMessage([{ type: 'text', text: 'Both are handled.' }], 'end_turn')
        : assistantMessage(
            ['ORD1001', 'ORD2002'].map((order, index) => ({
              type: 'tool_use',
              id: `toolu_0${index + 1}`,
              name: 'resubmit_refund',
              input: { order_id: order, reason: 'payee fixed' },
            })),
            'tool_use',
          );
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify(reply));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  rmSync(cwd, { recursive: true, force: true });
});

/** A terminal in memory: what was shown so far, and a wait for text to appear in it. */
function fakeTerminal() {
  const stdin = Object.assign(new PassThrough(), { isTTY: true });
  const stdout = new PassThrough();
  let shown = '';
  const waiters: Array<() => void> = [];
  stdout.on('data', (chunk) => {
    shown += String(chunk);
    for (const wake of waiters.splice(0)) wake();
  });
  const prompts = () => shown.match(/approve .*?\[y\/N\/later\] /g) ?? [];
  /** Resolves once `count` prompts are shown; fails if the run ends first. */
  const untilPrompts = (count: number, run: Promise<CliOutcome>) =>
    Promise.race([
      new Promise<void>((resolve) => {
        const check = () => (prompts().length >= count ? resolve() : waiters.push(check));
        check();
      }),
      run.then((outcome) => {
        throw new Error(`the run ended before prompt ${count}: ${JSON.stringify(outcome)}`);
      }),
    ]);
  return { terminal: { stdin, stdout }, prompts, untilPrompts };
}

function traceEvents(stdout: string): Array<Record<string, unknown>> {
  const file = /trace: (runs\/\S+\.jsonl)$/m.exec(stdout)?.[1];
  if (!file) throw new Error(`no trace named in:\n${stdout}`);
  return readFileSync(join(cwd, file), 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line));
}

const executedWrites = (events: Array<Record<string, unknown>>) =>
  events
    .filter((event) => event.type === 'tool_call' && event.decision === 'ask_approved')
    .map((event) => (event.input as { order_id: string }).order_id);

describe('npm run agent: approvals on the terminal', { timeout: 30_000 }, () => {
  it('asks one write at a time, and one "y" approves only the write it answers', async () => {
    const { terminal, prompts, untilPrompts } = fakeTerminal();
    const env = { ANTHROPIC_BASE_URL: url, ANTHROPIC_API_KEY: 'test-key' };
    const run = captureCli(() => runAgentCli(['resubmit both refunds'], { cwd, env, terminal }));

    await untilPrompts(1, run);
    // A turn of the event loop: a second question asked alongside the first shows by now.
    await new Promise(setImmediate);
    expect(prompts()).toHaveLength(1);
    expect(prompts()[0]).toContain('"order_id":"ORD1001"');
    terminal.stdin.write('y\n');

    await untilPrompts(2, run);
    expect(prompts()[1]).toContain('"order_id":"ORD2002"');
    // The terminal closes without a second answer: that is never a yes.
    terminal.stdin.end();

    const { code, stdout } = await run;
    expect(code).toBe(3);
    // The run pauses on the unanswered write only; the answered one keeps its yes.
    expect(stdout).toMatch(/^step 1 resubmit_refund\(\{"order_id":"ORD2002".*waits for approval/m);
    expect(stdout).not.toMatch(/ORD1001.*waits for approval/);
    const runId = /--resume (\S+)/.exec(stdout)?.[1] ?? '';
    const resumed = await captureCli(() =>
      runAgentCli(['--resume', runId, '--reject'], { cwd, env }),
    );
    expect(resumed.code).toBe(0);
    expect(executedWrites(traceEvents(resumed.stdout))).toEqual(['ORD1001']);
  });

  it('answers "later" for every write once the terminal is closed, and runs none', async () => {
    const { terminal, prompts, untilPrompts } = fakeTerminal();
    const env = { ANTHROPIC_BASE_URL: url, ANTHROPIC_API_KEY: 'test-key' };
    const run = captureCli(() => runAgentCli(['resubmit both refunds'], { cwd, env, terminal }));

    await untilPrompts(1, run);
    terminal.stdin.end();

    const { code, stdout } = await run;
    expect(code).toBe(3);
    // The closed terminal answers the second write "later" without asking.
    expect(prompts()).toHaveLength(1);
    expect(executedWrites(traceEvents(stdout))).toEqual([]);
  });
});
