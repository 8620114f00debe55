import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { runRecordCli } from './record.js';
import { captureCli } from './testing/cli.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
let project: string;

// A tool that never answers and ignores its AbortSignal; only the upgraded variant's harness
// has tool timeouts (its trial goes on after 200 ms). Baseline trials hang until vitest's test
// timeout: 20 s, so that the upgraded trial finishes well within it on a busy machine (it took
// up to 3.3 s at a load average of 13 on 2 cores). The two run side by side (--concurrency 2).
const AGENT = `import { defineAgent, defineModelScript, defineTool, z } from 'harness-evals';
const lookup = defineTool({
  name: 'lookup', description: 'Look something up.', effect: 'read', timeoutMs: 200,
  parameters: z.object({ q: z.string() }),
  execute: () => new Promise(() => {}),
});
export const hangAgent = defineAgent({
  suite: 'hang',
  variants: ['baseline', 'upgraded'],
  modelScript: defineModelScript({ turns: [
    { toolCalls: [{ name: 'lookup', input: { q: 'hang' } }] },
    { text: 'The lookup did not answer.' },
  ] }),
  createHarness: (variant) => ({
    name: variant, tools: [lookup], system: () => 'You look things up.', limits: { maxSteps: 4 },
    timeouts: variant === 'upgraded',
  }),
});
`;
const TASK = `import { defineTask } from 'harness-evals';
import { expect } from 'vitest';
import { hangAgent } from './hang.agent.js';
defineTask({ agent: hangAgent, id: 'G1', title: 'Hanging lookup', prompt: 'Look up hang.',
  check: ({ answer }) => { expect(answer).toMatch(/did not answer/); } });
`;

beforeAll(() => {
  project = mkdtempSync(join(tmpdir(), 'record-hang-'));
  for (const name of ['dist', 'node_modules']) symlinkSync(join(root, name), join(project, name));
  cpSync(join(root, 'package.json'), join(project, 'package.json'));
  const config = readFileSync(join(root, 'vitest.evals.config.ts'), 'utf8');
  expect(config).toContain('testTimeout: 120_000');
  writeFileSync(
    join(project, 'vitest.evals.config.ts'),
    config.replace('testTimeout: 120_000', 'testTimeout: 20_000'),
  );
  mkdirSync(join(project, 'evals'));
  writeFileSync(join(project, 'evals/hang.agent.ts'), AGENT);
  writeFileSync(join(project, 'evals/hang.eval.ts'), TASK);
});
afterAll(() => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
  rmSync(project, { recursive: true, force: true });
});

describe('npm run record: a trial that hangs', () => {
  it('is reported as failed, by name, and record exits 1', { timeout: 120_000 }, async () => {
    vi.spyOn(process, 'cwd').mockReturnValue(project);
    vi.stubEnv('CI', '');
    const result = await captureCli(() =>
      runRecordCli(['--simulated', '--trials', '1', '--concurrency', '2']),
    );
    expect(result.stdout).toContain(
      '  ✗ G1 baseline trial 1: timed out after 20000 ms; nothing written',
    );
    expect(result.stdout).toContain('  ✓ fixtures/G1/upgraded/trial-1.json');
    expect(result.stdout).toMatch(/\n1 trial recorded, 1 failed \(nothing written for those\)/);
    expect(result.stdout).not.toContain('nothing selected');
    expect(result.code).toBe(1);
    expect(existsSync(join(project, 'fixtures/G1/baseline/trial-1.json'))).toBe(false);
  });
});
