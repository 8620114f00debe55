import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captureCli } from './testing/cli.js';
import { runTraceCli } from './trace.js';

let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'trace-cli-'));
  const events = [
    {
      type: 'run_start',
      run_id: 'r1',
      task: 'T1',
      variant: 'upgraded',
      model: 'm',
      mode: 'unattended',
      system_chars: 1,
      ts: 'x',
    },
    {
      type: 'model_call',
      step: 1,
      stop_reason: 'tool_use',
      input_tokens: 10,
      output_tokens: 2,
      cache_read_tokens: 0,
      cache_write_tokens: 0,
      ms: 5,
    },
    {
      type: 'tool_call',
      step: 1,
      tool: 'get_order',
      input: {},
      decision: 'allow',
      is_error: false,
      ms: 3,
      result_chars: 9,
    },
    { type: 'run_end', status: 'done', stats: { steps: 1 }, ts: 'x' },
  ];
  writeFileSync(join(dir, 'r1.jsonl'), events.map((event) => JSON.stringify(event)).join('\n'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// In-process: no process start-up inside a test budget.
const traceCli = (args: string[]) => captureCli(() => runTraceCli(args));

describe('npm run trace', () => {
  it('prints per-tool and per-run tables, or markdown with --markdown', async () => {
    const table = await traceCli([dir]);
    expect(table.code).toBe(0);
    expect(table.stdout).toContain('Tools (1 calls)');
    expect(table.stdout).toMatch(/│ r1\.jsonl\s+│ T1\s+│ upgraded │ done/);
    const markdown = await traceCli([dir, '--markdown']);
    expect(markdown.stdout).toContain('| get\\_order | 1 | 3 | 3 | 0% | allow 1 |');
  });

  it('exits 2 with one line for a path that does not exist', async () => {
    const { code, stderr } = await traceCli([join(dir, 'nope')]);
    expect(code).toBe(2);
    expect(stderr).toMatch(/^trace: config: .*nope does not exist/);
  });
});
