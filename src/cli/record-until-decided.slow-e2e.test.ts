import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { linkedProject, runCliIn } from '../eval/testing/judged-project.js';

let project: string;

// Three variants of one task: `same` passes as often as the baseline (always), `worse` never:
// a prompt change that takes the pass rate from 1.00 to 0, the fall --trials 3 cannot see.
const AGENT = `import { defineAgent, defineModelScript } from 'harness-evals';
const RATE = { baseline: 1, same: 1, worse: 0 };
export const coin = defineAgent({
  suite: 'coin',
  variants: ['baseline', 'same', 'worse'],
  modelScript: defineModelScript({
    name: 'coin',
    respond: (request, random) => {
      const variant = request.seed.split('/')[1];
      return { text: random.chance('pass', RATE[variant]) ? 'PASS' : 'FAIL' };
    },
  }),
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
const TASK = `import { expect } from 'vitest';
import { defineTask } from 'harness-evals';
import { coin } from './coin.agent.js';
defineTask({ agent: coin, id: 'C1', title: 'coin', prompt: 'Flip', check: ({ answer }) => { expect(answer).toBe('PASS'); } });
`;

beforeAll(() => {
  project = linkedProject('record-until-decided-', {
    'evals/coin.agent.ts': AGENT,
    'evals/coin.eval.ts': TASK,
  });
});
afterAll(() => {
  rmSync(project, { recursive: true, force: true });
});

const cli = (which: 'record' | 'eval', args: string[]) => runCliIn(project, which, args);

const trialsOf = (variant: string) =>
  readdirSync(join(project, 'fixtures/C1', variant)).filter((name) =>
    /^trial-\d+\.json$/.test(name),
  ).length;

describe('npm run record -- --until-decided', () => {
  it('records until each row is decided, stops at the cap, and goes on from what it kept', {
    timeout: 240_000,
  }, async () => {
    // Capped at 3: nothing is decided yet (3 trials cannot show even 1.00 -> 0 at alpha 0.05).
    const capped = await cli('record', ['--simulated', '--until-decided', '--max-trials', '3']);
    expect(capped.code, capped.stdout + capped.stderr).toBe(0);
    expect(capped.stdout).toContain('C1 worse vs baseline: undecided at 3');
    expect(capped.stdout).toMatch(/2 undecided at 3 trials \(--max-trials\)/);
    expect(trialsOf('worse')).toBe(3);

    // Run again without the cap: the 3 trials are kept (replayed), and the rows go on.
    const run = await cli('record', ['--simulated', '--until-decided']);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toMatch(/C1 worse vs baseline: drop \(after \d+\)/);
    expect(run.stdout).toMatch(/C1 same vs baseline: no drop > 0\.10 \(after \d+\)/);
    expect(run.stdout).toContain('decided: 1 drop, 1 no drop > 0.10');
    // The clear fall is decided in a few trials; the no-change row takes longer, and no row
    // needs the 113 trials per side a fixed-n design with the same alpha and power takes.
    const worse = trialsOf('worse');
    const same = trialsOf('same');
    expect(worse).toBeLessThan(same);
    expect(same).toBeLessThan(60);
    expect(trialsOf('baseline')).toBe(same);

    // The eval recomputes the same decisions from the cassettes, and the drop fails the gate.
    const evaluated = await cli('eval', ['--trials', 'all']);
    expect(evaluated.code).toBe(1);
    expect(evaluated.stdout).toMatch(/C1 worse against baseline: a drop, decided after \d+ trials/);
    const again = await cli('record', ['--simulated', '--until-decided']);
    expect(again.stdout).toContain('decided: 1 drop, 1 no drop > 0.10');
    expect(again.stdout).not.toMatch(/✓ fixtures\//);
    expect([trialsOf('worse'), trialsOf('same')]).toEqual([worse, same]);
  });

  it('refuses flags that choose the trials itself, in one line', async () => {
    const { code, stderr } = await cli('record', ['--until-decided', '--trials', '5']);
    expect(code).toBe(2);
    expect(stderr).toBe(
      'record: --until-decided chooses the trials itself (what is recorded is kept, what is missing or stale is recorded): drop --trials\n',
    );
    const alone = await cli('record', ['--batch', '2']);
    expect(alone.stderr).toBe('record: --batch go with --until-decided (or --plan)\n');
  });
});
