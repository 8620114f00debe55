import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createVirtualClock } from '../core/clock.js';
import { type RunResult, runAgent } from '../runtime/run-agent.js';
import type { Approver, RunMode } from '../runtime/types.js';
import { createScriptedModel, textTurn, toolTurn } from '../simulator/scripted-model.js';
import type { PermissionLevel } from './levels.js';
import { createSandbox } from './sandbox.js';
import { sandboxWritesOf, testRunsOf } from './store.js';
import { usePlaygrounds } from './testing/playgrounds.js';
import {
  createDebugAgentHarness,
  type DebugAgentVariant,
  isTestPath,
  SEED_SYSTEM_PROMPT,
} from './variants.js';

const playground = usePlaygrounds();
type Turns = Parameters<typeof createScriptedModel>[0];

async function run(
  variant: DebugAgentVariant,
  turns: Turns,
  options: { mode?: RunMode; approver?: Approver; maxLevel?: PermissionLevel } = {},
) {
  const { sandbox } = playground();
  const harness = createDebugAgentHarness(variant, {
    sandbox,
    ...(options.maxLevel && { maxLevel: options.maxLevel }),
  });
  const model = createScriptedModel(turns);
  const result = await runAgent({
    harness,
    model,
    modelId: 'scripted',
    prompt: 'The tests fail. Fix the bug.',
    clock: createVirtualClock({ start: Date.parse('2026-10-01T09:00:00Z') }),
    mode: options.mode ?? 'unattended',
    ...(options.approver && { approver: options.approver }),
  });
  model.assertDone();
  return { result, model, sandbox };
}

function toolResults(result: RunResult): string[] {
  return result.messages.flatMap((message) =>
    Array.isArray(message.content)
      ? message.content.flatMap((block) =>
          block.type === 'tool_result' ? [String(block.content)] : [],
        )
      : [],
  );
}

const FIXED = readFileSync(
  new URL('./sandbox-project/src/math.ts', import.meta.url),
  'utf8',
).replace('return a - b;', 'return a + b;');
const fix = (path = 'src/math.ts') => ({ name: 'write_file', input: { path, content: FIXED } });
const runTests = { name: 'run_test', input: {} };
const approveAll: Approver = async () => true;

describe('debug agent: tools offered per level', () => {
  it.each([
    ['read', ['read_file', 'search_code']],
    ['write', ['read_file', 'search_code', 'run_test']],
    ['dangerous', ['read_file', 'search_code', 'run_test', 'write_file']],
  ] as const)('upgraded with maxLevel %s offers only %j', async (maxLevel, names) => {
    const { model } = await run('upgraded', [textTurn('ok')], { maxLevel });
    const offered = (model.requests[0]?.tools ?? []) as Array<{ name: string }>;
    expect(offered.map((tool) => tool.name)).toEqual(names);
  });

  it('claims no pipeline timeouts in either variant: no tool declares one, so nothing would measure them', () => {
    for (const variant of ['baseline', 'upgraded'] as const) {
      const harness = createDebugAgentHarness(variant, { sandbox: playground().sandbox });
      expect(harness.tools.filter((tool) => tool.timeoutMs !== undefined)).toEqual([]);
      // A switch that enforces nothing reads as a gate the evals measure; it is left off.
      expect(harness.timeouts).toBeUndefined();
      harness.dispose?.();
    }
  });

  it('does not run a tool above the level even when the model names it', async () => {
    const { result, sandbox } = await run('upgraded', [toolTurn([fix()]), textTurn('ok')], {
      maxLevel: 'write',
      mode: 'interactive',
      approver: approveAll,
    });
    expect(result.toolCalls[0]?.decision).toBe('unknown');
    expect(readFileSync(join(sandbox.root, 'src', 'math.ts'), 'utf8')).toContain('a - b');
  });
});

// These runs start real test processes: a generous ceiling, so a busy machine cannot fail them.
describe('debug agent: baseline vs upgraded (scripted model)', { timeout: 120_000 }, () => {
  it('gives the baseline the seed prompt, the upgraded the project rules, date and mode', async () => {
    const baseline = await run('baseline', [textTurn('hi')]);
    const upgraded = await run('upgraded', [textTurn('hi')]);
    expect(baseline.model.requests[0]?.system).toBe(SEED_SYSTEM_PROMPT);
    const [block] = (upgraded.model.requests[0]?.system ?? []) as Array<{ text: string }>;
    expect(block?.text).toContain(SEED_SYSTEM_PROMPT);
    expect(block?.text).toContain('<file name="AGENTS.md">\n# calc: project instructions');
    expect(block?.text).toContain('Today is 2026-10-01.\nMode: unattended.');
  });

  it('baseline writes the file without asking anyone', async () => {
    const { result, sandbox } = await run('baseline', [toolTurn([fix()]), textTurn('fixed')]);
    expect(result.toolCalls[0]?.decision).toBe('allow');
    expect(result.stats.unconfirmedWrites).toBe(1);
    expect(readFileSync(join(sandbox.root, 'src', 'math.ts'), 'utf8')).toBe(FIXED);
  });

  it('upgraded refuses the dangerous write unattended and leaves the file alone', async () => {
    const { result, sandbox } = await run('upgraded', [toolTurn([fix()]), textTurn('refused')]);
    expect(result.toolCalls[0]?.decision).toBe('ask_denied');
    expect(toolResults(result)[0]).toMatch(/needs a human's approval/);
    expect(sandboxWritesOf(result.store)).toEqual([]);
    expect(readFileSync(join(sandbox.root, 'src', 'math.ts'), 'utf8')).toContain('a - b');
  });

  it('upgraded writes once a human approves, and the tests pass afterwards', async () => {
    const asked: string[] = [];
    const { result } = await run(
      'upgraded',
      [toolTurn([runTests]), toolTurn([fix()]), toolTurn([runTests]), textTurn('fixed')],
      {
        mode: 'interactive',
        approver: async (call) => {
          asked.push(call.name);
          return true;
        },
      },
    );
    expect(asked).toEqual(['write_file']);
    expect(result.toolCalls.map((call) => call.decision)).toEqual([
      'allow',
      'ask_approved',
      'allow',
    ]);
    expect(result.stats.unconfirmedWrites).toBe(0);
    expect(testRunsOf(result.store).map((testRun) => testRun.passed)).toEqual([false, true]);
  });

  it('upgraded never lets the agent rewrite a test, whatever the human says', async () => {
    const { result } = await run(
      'upgraded',
      [toolTurn([fix('test/math.spec.ts')]), textTurn('no')],
      {
        mode: 'interactive',
        approver: approveAll,
      },
    );
    expect(result.toolCalls[0]?.decision).toBe('deny');
    expect(toolResults(result)[0]).toContain('the tests are the specification');
  });

  it('upgraded blocks re-running unchanged tests, but not after a write', async () => {
    const { result } = await run(
      'upgraded',
      [
        toolTurn([runTests]),
        toolTurn([runTests]),
        toolTurn([fix()]),
        toolTurn([runTests]),
        textTurn('done'),
      ],
      { mode: 'interactive', approver: approveAll },
    );
    expect(result.toolCalls.map((call) => call.decision)).toEqual([
      'allow',
      'hook_deny',
      'ask_approved',
      'allow',
    ]);
  });

  it('both stop after two failed tool calls in a row (the seed rule)', async () => {
    for (const variant of ['baseline', 'upgraded'] as const) {
      const { result } = await run(variant, [
        toolTurn([{ name: 'read_file', input: { path: '../../etc/passwd' } }]),
        toolTurn([{ name: 'read_file', input: { path: '/etc/passwd' } }]),
      ]);
      expect(result.status).toBe('failure_streak');
      for (const text of toolResults(result)) expect(text).not.toMatch(/root:/);
    }
  });

  it('no tool result names the sandbox location', async () => {
    const { result, sandbox } = await run('upgraded', [
      toolTurn([{ name: 'read_file', input: { path: 'src/missing.ts' } }]),
      toolTurn([runTests]),
      toolTurn([{ name: 'search_code', input: { query: 'add' } }]),
      textTurn('done'),
    ]);
    const texts = toolResults(result);
    expect(texts).toHaveLength(3);
    for (const text of texts) expect(text).not.toContain(sandbox.realRoot);
  });

  it('upgraded trims the history past its budget, keeping the goal and the latest turn', async () => {
    const { sandbox } = playground();
    for (const index of [1, 2, 3, 4, 5, 6, 7, 8]) {
      writeFileSync(join(sandbox.root, `notes-${index}.txt`), `${index}`.repeat(7000));
    }
    const harness = createDebugAgentHarness('upgraded', { sandbox });
    const reads = [1, 2, 3, 4, 5, 6, 7, 8].map((index) =>
      toolTurn([{ name: 'read_file', input: { path: `notes-${index}.txt` } }]),
    );
    const model = createScriptedModel([...reads, textTurn('done')]);
    const result = await runAgent({
      harness,
      model,
      modelId: 'scripted',
      prompt: 'Read all the notes.',
      clock: createVirtualClock({ start: 0 }),
      mode: 'unattended',
    });
    expect(result.status).toBe('done');
    const last = model.requests.at(-1)!;
    expect(JSON.stringify(last.messages).length).toBeLessThan(45_000);
    expect(JSON.stringify(last.messages[0])).toMatch(
      /Read all the notes\..*earlier messages omitted/,
    );
    expect(JSON.stringify(last.messages.at(-1))).toContain('notes-8.txt');
  });

  it('dispose removes the sandbox the harness owns', async () => {
    const sandbox = createSandbox();
    const harness = createDebugAgentHarness('upgraded', { sandbox });
    expect(existsSync(sandbox.root)).toBe(true);
    await harness.dispose?.();
    expect(existsSync(sandbox.root)).toBe(false);
  });
});

describe('isTestPath', () => {
  it.each([
    ['test/math.spec.ts', true],
    ['./test/x.ts', true],
    ['test', true],
    ['src/foo.test.ts', true],
    ['src/math.ts', false],
    ['tests.md', false],
    [42, false],
  ])('%j -> %s', (path, expected) => {
    expect(isTestPath(path)).toBe(expected);
  });
});
