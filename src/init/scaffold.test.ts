import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { scaffold } from './scaffold.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'harness-evals-init-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const packageJson = (scripts: Record<string, string>) =>
  writeFile(join(dir, 'package.json'), JSON.stringify({ name: 'p', scripts }, null, 2));

describe('scaffold', () => {
  it('creates the evals, configs, workflow and scripts, replacing only npm placeholder test', async () => {
    await packageJson({ test: 'echo "Error: no test specified" && exit 1' });
    const result = await scaffold(dir);
    for (const file of [
      'evals/helpdesk.agent.ts',
      'evals/helpdesk.model.ts',
      'evals/h1-ticket-status.eval.ts',
      'vitest.evals.config.mts',
      'AGENTS.md',
      '.gitignore',
      '.github/workflows/harness-evals.yml',
    ]) {
      expect(result.created).toContain(file);
      expect(existsSync(join(dir, file))).toBe(true);
    }
    expect(existsSync(join(dir, 'reports'))).toBe(true);
    const { scripts } = JSON.parse(await readFile(join(dir, 'package.json'), 'utf8'));
    expect(scripts).toEqual({
      test: 'harness-evals eval',
      eval: 'harness-evals eval',
      record: 'harness-evals record',
    });
    expect(result.leftAlone).toEqual([]);
  });

  it('never overwrites: an existing file or script is kept and listed', async () => {
    await packageJson({ test: 'vitest run' });
    await writeFile(join(dir, 'AGENTS.md'), '# ours\n');
    const result = await scaffold(dir);
    expect(await readFile(join(dir, 'AGENTS.md'), 'utf8')).toBe('# ours\n');
    expect(result.leftAlone).toContain('AGENTS.md');
    expect(result.leftAlone).toContain('package.json script "test" (vitest run)');
    const { scripts } = JSON.parse(await readFile(join(dir, 'package.json'), 'utf8'));
    expect(scripts.test).toBe('vitest run');

    const again = await scaffold(dir);
    expect(again.created).toEqual([]);
    expect(again.leftAlone).toContain('evals/helpdesk.agent.ts');
  });

  it('asks for a package.json first, and writes nothing until there is one', async () => {
    await expect(scaffold(dir)).rejects.toThrow(/no package.json .*npm init -y/);
    expect(readdirSync(dir)).toEqual([]);
  });

  it.each([
    ['null', /must be an object/],
    ['[]', /must be an object/],
    ['{"scripts": "x"}', /"scripts" \(if any\) maps names to command strings/],
    ['{"scripts": {"test": 1}}', /maps names to command strings/],
    ['{"name": ', /not valid JSON/],
  ])(
    'refuses package.json %s with one clear error and writes nothing else',
    async (text, message) => {
      writeFileSync(join(dir, 'package.json'), text);
      await expect(scaffold(dir)).rejects.toThrow(message);
      expect(readdirSync(dir)).toEqual(['package.json']);
      expect(readFileSync(join(dir, 'package.json'), 'utf8')).toBe(text);
    },
  );
});
