import { posix } from 'node:path';
import {
  buildSystemPrompt,
  createPermissionPolicy,
  type Harness,
  loadInstructionFiles,
  type PermissionRule,
} from '../index.js';
import { blockRepeatUnlessChanged } from './block-repeat-unless-changed.js';
import { createReadFileTool, createSearchCodeTool, createWriteFileTool } from './file-tools.js';
import { type LeveledTool, type PermissionLevel, toolsUpTo } from './levels.js';
import { createRunTestTool, TEST_FILE, type TestCommand } from './run-test.js';
import type { Sandbox } from './sandbox.js';
import type { Confinement } from './sandbox-path.js';

/** The seed's SYSTEM_PROMPT (in English): the baseline's whole prompt. */
export const SEED_SYSTEM_PROMPT = `You are a code-debugging agent.
Rules:
1. Gather evidence before you draw a conclusion.
2. Call one tool at a time.
3. Explain your reason before you change anything.
4. After two tool failures in a row, stop and report.`;

const SANDBOX_LINE =
  'You work inside a sandbox: a copy of the project. Give every path relative to its root (for example src/math.ts); paths that leave it are refused.';
const BOTTOM_LINE =
  'Bottom line: never claim a test passes without running it; when a tool refuses, say so plainly and what a human has to do.';

export const DEBUG_AGENT_VARIANTS = ['baseline', 'upgraded'] as const;
export type DebugAgentVariant = (typeof DEBUG_AGENT_VARIANTS)[number];

export interface DebugAgentOptions {
  /** The harness owns it: `dispose()` removes it. */
  sandbox: Sandbox;
  /** The highest tool level the upgraded variant offers; `dangerous` (every tool) by default. */
  maxLevel?: PermissionLevel;
  /** Real milliseconds run_test may take. */
  testTimeoutMs?: number;
  testCommand?: TestCommand;
  /** Reuse a finished test run of the same code instead of running it again (see run-test.ts). */
  reuseTestResults?: boolean;
  readBudgetBytes?: number;
}

/** The whitelist, in the order the model sees it. */
export function createDebugAgentTools(
  options: DebugAgentOptions & { confinement: Confinement },
): LeveledTool[] {
  const files = {
    sandbox: options.sandbox,
    confinement: options.confinement,
    ...(options.readBudgetBytes !== undefined && { readBudgetBytes: options.readBudgetBytes }),
  };
  return [
    { tool: createReadFileTool(files), level: 'read' },
    { tool: createSearchCodeTool(files), level: 'read' },
    {
      tool: createRunTestTool({
        sandbox: options.sandbox,
        confinement: options.confinement,
        ...(options.testTimeoutMs !== undefined && { timeoutMs: options.testTimeoutMs }),
        ...(options.testCommand && { command: options.testCommand }),
        ...(options.reuseTestResults && { reuseResults: true }),
      }),
      level: 'write',
    },
    { tool: createWriteFileTool(files), level: 'dangerous' },
  ];
}

/** A path under test/ or a test file, however the model spelled it. */
export function isTestPath(path: unknown): boolean {
  if (typeof path !== 'string') return false;
  const normal = posix.normalize(path.replaceAll('\\', '/'));
  return normal === 'test' || normal.startsWith('test/') || TEST_FILE.test(normal);
}

/**
 * deny > ask > allow. Dangerous tools always ask (a human approves each call), nothing
 * may rewrite the tests, the rest of the whitelist is allowed.
 */
export function debugAgentRules(tools: readonly LeveledTool[]): PermissionRule[] {
  return [
    {
      effect: 'deny',
      tool: 'write_file',
      when: (input) => isTestPath(input.path),
      reason: 'the tests are the specification; fix the code under src/ instead',
    },
    ...tools
      .filter((entry) => entry.level === 'dangerous')
      .map(
        (entry): PermissionRule => ({
          effect: 'ask',
          tool: entry.tool.name,
          reason: `${entry.tool.name} is dangerous: it changes the project`,
        }),
      ),
    ...tools
      .filter((entry) => entry.level !== 'dangerous')
      .map((entry): PermissionRule => ({ effect: 'allow', tool: entry.tool.name })),
  ];
}

/**
 * The seed's bare agent: its prompt, its string-only path check, every tool offered and
 * executed as asked (write_file included, no approval), its loop limits (8 steps, stop
 * after 2 failures in a row).
 */
export function createBaselineDebugHarness(options: DebugAgentOptions): Harness {
  const tools = createDebugAgentTools({ ...options, confinement: 'lexical' });
  return {
    name: 'baseline',
    tools: tools.map((entry) => entry.tool),
    system: () => SEED_SYSTEM_PROMPT,
    limits: { maxSteps: 8, failureStreak: 2 },
    dispose: () => options.sandbox.dispose(),
  };
}

/**
 * Every gate on: tools above `maxLevel` not offered, strict confinement, validation, the
 * project's AGENTS.md in the prompt, approval for dangerous tools, no rewriting of tests,
 * repeated calls blocked until something changes, truncation, history trimming, and the
 * seed's stop after two failures in a row.
 */
export function createUpgradedDebugHarness(options: DebugAgentOptions): Harness {
  const leveled = createDebugAgentTools({ ...options, confinement: 'strict' });
  const tools = toolsUpTo(leveled, options.maxLevel ?? 'dangerous');
  const offered = leveled.filter((entry) => tools.includes(entry.tool));
  const files = loadInstructionFiles(options.sandbox.realRoot, ['AGENTS.md']);
  return {
    name: 'upgraded',
    tools,
    system: ({ clock, mode }) =>
      buildSystemPrompt({
        role: `${SEED_SYSTEM_PROMPT}\n${SANDBOX_LINE}\n${BOTTOM_LINE}`,
        instructionFiles: files,
        clock,
        mode,
      }).text,
    cacheSystemPrompt: true,
    validate: true,
    hooks: { preToolUse: [blockRepeatUnlessChanged({ writeTools: ['write_file'] })] },
    permissions: createPermissionPolicy(debugAgentRules(offered)),
    // No `timeouts`: no tool here declares a pipeline timeout, so the switch would enforce nothing
    // and no task could measure it (issue 32's negative control: removing it failed nothing).
    // run_test enforces its own, in real time, in both variants (run-test.test.ts).
    truncateAt: 6000,
    historyBudgetChars: 40_000,
    limits: { maxSteps: 10, tokenBudget: 80_000, noProgressWindow: 3, failureStreak: 2 },
    dispose: () => options.sandbox.dispose(),
  };
}

export function createDebugAgentHarness(
  variant: DebugAgentVariant,
  options: DebugAgentOptions,
): Harness {
  return variant === 'baseline'
    ? createBaselineDebugHarness(options)
    : createUpgradedDebugHarness(options);
}
