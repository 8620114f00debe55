import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
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

// A model script that busy-looped was not bounded by --model-timeout, and one returning 42 or {}
// was recorded as an empty answer. Each trial now fails with one line, and nothing is written.

const root = fileURLToPath(new URL('../..', import.meta.url));
let project: string;

const AGENT = `import { defineAgent, defineModelScript } from 'harness-evals';
const answers = {
  S1: () => 42,
  S2: () => ({}),
  S3: () => { const until = Date.now() + 60_000; while (Date.now() < until) {} return { text: 'late' }; },
  S4: () => ({ text: 'a real answer' }),
};
export const scripted = defineAgent({
  suite: 'scripted',
  variants: ['v1'],
  modelScript: defineModelScript({ name: 'odd', respond: (request) => answers[request.prompt]() }),
  run: async (context) => {
    const response = await context.fetch(\`\${context.baseURL}/v1/messages\`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': context.apiKey, 'anthropic-version': '2023-06-01' },
      body: JSON.stringify({ model: context.model, max_tokens: 100, messages: [{ role: 'user', content: context.prompt }] }),
    });
    const body = await response.json();
    if (!response.ok) return { answer: '', status: 'error', detail: JSON.stringify(body) };
    return { answer: body.content.map((block) => block.text ?? '').join('') };
  },
});
`;
const TASKS = ['S1', 'S2', 'S3', 'S4']
  .map(
    (id) =>
      `defineTask({ agent: scripted, id: '${id}', title: '${id}', prompt: '${id}', check: () => {} });`,
  )
  .join('\n');

beforeAll(() => {
  project = mkdtempSync(join(tmpdir(), 'record-model-script-'));
  for (const name of ['dist', 'node_modules']) symlinkSync(join(root, name), join(project, name));
  for (const name of ['package.json', 'vitest.evals.config.ts']) {
    cpSync(join(root, name), join(project, name));
  }
  mkdirSync(join(project, 'evals'));
  writeFileSync(join(project, 'evals/scripted.agent.ts'), AGENT);
  writeFileSync(
    join(project, 'evals/scripted.eval.ts'),
    `import { defineTask } from 'harness-evals';\nimport { scripted } from './scripted.agent.js';\n${TASKS}\n`,
  );
});
afterAll(() => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
  rmSync(project, { recursive: true, force: true });
});

describe('npm run record --simulated: a model script with no answer it may give', () => {
  it('fails the trial with one line naming why, and writes nothing', {
    timeout: 120_000,
  }, async () => {
    vi.spyOn(process, 'cwd').mockReturnValue(project);
    vi.stubEnv('CI', '');
    const { code, stdout, stderr } = await captureCli(() =>
      runRecordCli(['--simulated', '--trials', '1', '--model-timeout', '0.2']),
    );
    expect(code, stdout + stderr).toBe(1);
    expect(stdout).toMatch(
      /✗ S1 v1 trial 1: recording failed, nothing written: S1: model script 'odd' returned 42, not an answer: .* \(request 1\); nothing was recorded/,
    );
    expect(stdout).toMatch(/✗ S2 v1 trial 1: .*model script 'odd' returned an empty answer/);
    expect(stdout).toMatch(
      /✗ S3 v1 trial 1: .*model script 'odd' ran past the model call deadline \(0\.2 s, --model-timeout\) and was stopped/,
    );
    expect(stdout).toContain('✓ fixtures/S4/v1/trial-1.json');
    // What the recording spent: the one trial written, at no known price for its default model.
    expect(stdout).toContain('This run cost unknown for the 1 trial it recorded.');
    expect(stdout).toContain(
      'unknown: no price for claude-opus-5; add it to harness-evals.prices.json',
    );
    for (const task of ['S1', 'S2', 'S3']) {
      expect(existsSync(join(project, `fixtures/${task}/v1/trial-1.json`))).toBe(false);
    }
  });
});
