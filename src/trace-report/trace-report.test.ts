import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError } from '../core/errors.js';
import { controlCharacters } from '../core/testing/control-characters.js';
import { emptyStats } from '../runtime/stop-rules.js';
import type { TraceEvent } from '../runtime/trace.js';
import { formatTraceMarkdown, formatTraceTables } from './format.js';
import { parseTrace, readTraces, type TraceFile } from './read-traces.js';
import { summarizeTraces } from './summarize.js';

const stats = { ...emptyStats(), steps: 2, toolCalls: 2, toolErrors: 1 };
const start = (run: string, task = 'T1'): TraceEvent => ({
  type: 'run_start',
  run_id: run,
  task,
  variant: 'upgraded',
  model: 'm',
  mode: 'unattended',
  system_chars: 10,
  ts: '2026-10-01T09:00:00.000Z',
});
const model = (step: number, extra: Partial<TraceEvent> = {}): TraceEvent =>
  ({
    type: 'model_call',
    step,
    stop_reason: 'tool_use',
    input_tokens: 100,
    output_tokens: 10,
    cache_read_tokens: 50,
    cache_write_tokens: 0,
    ms: 20,
    ...extra,
  }) as TraceEvent;
const tool = (toolName: string, ms: number, decision: string, isError = false): TraceEvent => ({
  type: 'tool_call',
  step: 1,
  tool: toolName,
  input: {},
  decision,
  is_error: isError,
  ms,
  result_chars: 5,
});
const end = (status: string): TraceEvent => ({ type: 'run_end', status, stats, ts: 'x' });
const jsonl = (events: TraceEvent[]) => events.map((event) => JSON.stringify(event)).join('\n');

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'traces-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('summarizeTraces', () => {
  it('gives calls, mean and p95 time, error rate and decisions per tool', () => {
    const times = [10, 20, 30, 40, 50, 60, 70, 80, 90, 3000];
    const trace = parseTrace(
      jsonl([
        start('a'),
        model(1),
        ...times.map((ms, index) =>
          tool('get_payment', ms, index < 7 ? 'allow' : 'timeout', index >= 7),
        ),
        tool('resubmit_refund', 1, 'ask_denied', true),
        end('done'),
      ]),
      'a.jsonl',
    );
    const { tools } = summarizeTraces([trace]);
    expect(tools[0]).toEqual({
      tool: 'get_payment',
      calls: 10,
      meanMs: 345,
      p95Ms: 3000,
      errorRate: 0.3,
      decisions: [
        ['allow', 7],
        ['timeout', 3],
      ],
    });
    expect(tools[1]).toMatchObject({ tool: 'resubmit_refund', errorRate: 1 });
  });

  it('does work linear in the number of tool calls (one tool called many times)', () => {
    // Counted, not timed: every array iteration step while summarizing. Copying a tool's call
    // list per call (the old code) makes 4x the calls cost 16x the steps.
    const steps = (calls: number) => {
      const trace: TraceFile = {
        file: 'long.jsonl',
        problems: [],
        events: Array.from({ length: calls }, (_, step) => ({
          type: 'tool_call' as const,
          step,
          tool: 'get_order',
          decision: 'allow',
          is_error: false,
          ms: step % 7,
        })),
      };
      return countArrayIterationSteps(() => summarizeTraces([trace]));
    };
    const small = steps(2_000);
    const large = steps(8_000);
    expect(large / small).toBeLessThan(5);
    expect(large).toBeLessThan(8_000 * 10);
  });

  it('reports each run with its status, steps, tokens, retries and resumes', () => {
    const resumed = parseTrace(
      jsonl([
        start('b'),
        model(1),
        {
          type: 'model_retry',
          step: 2,
          model: 'm',
          attempt: 1,
          status: 429,
          error: 'x',
          wait_ms: 1000,
        },
        { type: 'model_fallback', step: 2, from: 'm', to: 'f', reason: 'overloaded' },
        model(2),
        { type: 'run_resume', run_id: 'b', step: 1, state: 'running', ts: 'x' },
        model(2),
        model(2, { role: 'summarize', model: 'cheap' }),
        model(3, { stop_reason: 'end_turn' }),
        end('done'),
        // Resuming a finished run only reads its result back.
        { type: 'run_resume', run_id: 'b', step: 3, state: 'finished', ts: 'x' },
      ]),
      'b.jsonl',
    );
    const crashed = parseTrace(`${jsonl([start('c'), model(1)])}\n{"type":"tool_ca`, 'c.jsonl');
    const { runs } = summarizeTraces([resumed, crashed]);
    expect(runs[0]).toMatchObject({
      runId: 'b',
      status: 'done',
      steps: 3,
      inputTokens: 5 * 150,
      outputTokens: 50,
      retries: 1,
      fallbacks: 1,
      resumes: 1,
    });
    expect(runs[1]).toMatchObject({
      status: 'unfinished',
      steps: 1,
      problems: ['line 3: not JSON (cut short by a crash?)'],
    });
  });
});

describe('summarizeTraces of an adapter agent', () => {
  it("reads its tokens from run_end's stats: its trace has no model_call events", () => {
    const adapter = parseTrace(
      jsonl([
        { ...start('w'), mode: 'adapter' } as TraceEvent,
        {
          type: 'run_end',
          status: 'done',
          stats: {
            ...stats,
            steps: 2,
            inputTokens: 300,
            cacheReadTokens: 20,
            cacheWriteTokens: 0,
            outputTokens: 40,
          },
          ts: 'x',
        },
      ]),
      'w.jsonl',
    );
    expect(summarizeTraces([adapter]).runs[0]).toMatchObject({
      steps: 2,
      inputTokens: 320,
      outputTokens: 40,
    });
  });
});

describe('readTraces', () => {
  it('finds traces in nested folders and skips JSONL files that are not run traces', async () => {
    mkdirSync(join(dir, 'eval/T1'), { recursive: true });
    writeFileSync(join(dir, 'eval/T1/trial-1.jsonl'), jsonl([start('x'), end('done')]));
    writeFileSync(join(dir, 'top.jsonl'), jsonl([start('y'), end('max_steps')]));
    writeFileSync(join(dir, 'run.writes.jsonl'), '{"key":"k","tool":"t"}\n');
    writeFileSync(join(dir, 'notes.txt'), 'hello');
    const traces = await readTraces([dir]);
    expect(traces.map((trace) => trace.file)).toEqual(['eval/T1/trial-1.jsonl', 'top.jsonl']);
  });

  it('names a path that does not exist', async () => {
    await expect(readTraces([join(dir, 'missing')])).rejects.toThrow(ConfigError);
  });
});

describe('formatting', () => {
  const report = summarizeTraces([
    parseTrace(
      jsonl([start('a'), model(1), tool('get_order', 4, 'allow'), end('done')]),
      'a|b.jsonl',
    ),
  ]);

  it('prints terminal tables for tools and runs', () => {
    const text = formatTraceTables(report);
    expect(text).toContain('Tools (1 calls)');
    expect(text).toMatch(/│ get_order\s+│\s+1 │\s+4 │\s+4 │\s+0% │ allow 1\s+│/);
    expect(text).toMatch(/│ a\|b\.jsonl\s+│ T1\s+│ upgraded │ done\s+│/);
  });

  it('shows control characters from trace files as visible escapes, in both formats', () => {
    const esc = '\u001b';
    const evilTool = `${esc}]52;c;Y3VybA==\u0007${esc}[2J${esc}[31mget_order\nforged row`;
    const [trace] = [
      parseTrace(
        jsonl([start('a'), tool(evilTool, 1, `allow${esc}[8m`), end(`done${esc}[8m`)]),
        `run${esc}]0;title\u0007.jsonl`,
      ),
    ];
    trace!.problems.push('line 9: not JSON');
    const evil = summarizeTraces([trace!]);
    // Markdown shows its punctuation backslash-escaped (it renders as the terminal's text).
    const markdown = (shown: string) => shown.replace(/[\\`*_~[\]|]/g, '\\$&');
    for (const [text, shown] of [
      [formatTraceTables(evil), (plain: string) => plain],
      [formatTraceMarkdown(evil), markdown],
    ] as const) {
      // Line breaks are the tables' own; nothing else below U+0020 (nor DEL or C1) is printed.
      expect(controlCharacters(text)).toEqual([]);
      expect(text).toContain(
        shown('\\u001b]52;c;Y3VybA==\\u0007\\u001b[2J\\u001b[31mget_order\\nforged row'),
      );
      expect(text).toContain(shown('done\\u001b[8m'));
      expect(text).toContain(shown('allow\\u001b[8m 1'));
      expect(text).toContain(shown('run\\u001b]0;title\\u0007.jsonl line 9: not JSON'));
    }
  });

  it('keeps HTML and line breaks from trace files out of the markdown', () => {
    const trace = parseTrace(
      jsonl([start('a', '<img src=x>\nT1'), tool('a&b<c', 1, 'allow'), end('done')]),
      'a.jsonl',
    );
    const text = formatTraceMarkdown(summarizeTraces([trace]));
    expect(text).toContain('| a&amp;b&lt;c | 1 |');
    expect(text).toContain('| a.jsonl | &lt;img src=x>\\\\nT1 | upgraded |');
  });

  it('prints markdown tables with numbers right-aligned and pipes escaped', () => {
    const text = formatTraceMarkdown(report);
    expect(text).toContain('| Tool | Calls | Mean ms | p95 ms | Error rate | Decisions |');
    expect(text).toContain('|---|---:|---:|---:|---:|---|');
    expect(text).toContain('| get\\_order | 1 | 4 | 4 | 0% | allow 1 |');
    expect(text).toContain('| a\\|b.jsonl | T1 | upgraded | done | 2 | 1 | 150 | 10 | 0 |');
  });
});

/** How many values array iterators yield while `run` runs (spread, for...of, Array.from). */
function countArrayIterationSteps(run: () => void): number {
  const original = Array.prototype[Symbol.iterator];
  let count = 0;
  Array.prototype[Symbol.iterator] = function* counted(this: unknown[]) {
    for (const value of original.call(this)) {
      count += 1;
      yield value;
    }
  } as typeof original;
  try {
    run();
  } finally {
    Array.prototype[Symbol.iterator] = original;
  }
  return count;
}
