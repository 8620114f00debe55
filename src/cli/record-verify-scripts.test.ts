import {
  cpSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { writeJudgeCassette } from '../eval/grade/judge-cassette.js';
import { runEvals } from '../eval/run/run-evals.js';
import { scaffold } from '../init/scaffold.js';
import { resealed } from '../replay/testing/cassettes.js';
import { runEvalCli } from './eval.js';
import { runRecordCli } from './record.js';
import { captureCli } from './testing/cli.js';

// `record --verify` re-derived the cassettes of init's untouched example (made by its model
// script and its judge script) with the built-in simulator: "6 do not match", exit 1, and the
// re-record command it printed changed nothing. Each cassette is now re-derived with the thing
// that made it, and every command verify prints makes it pass when run.

const root = fileURLToPath(new URL('../..', import.meta.url));
let project: string;

beforeAll(async () => {
  project = mkdtempSync(join(tmpdir(), 'record-verify-scripts-'));
  writeFileSync(
    join(project, 'package.json'),
    '{ "name": "adopter", "private": true, "type": "module" }\n',
  );
  await scaffold(project);
  for (const name of ['dist', 'node_modules']) symlinkSync(join(root, name), join(project, name));
  // This repository's eval config: `harness-evals` is dist/, as the installed package would be.
  unlinkSync(join(project, 'vitest.evals.config.mts'));
  cpSync(join(root, 'vitest.evals.config.ts'), join(project, 'vitest.evals.config.ts'));
  vi.spyOn(process, 'cwd').mockReturnValue(project);
  vi.stubEnv('CI', '');
  // What init records: the example's trials with its model script and its judge script.
  const recorded = await runEvals({
    projectDir: project,
    mode: 'record',
    source: 'simulator',
    trials: 3,
    tasks: ['H1'],
    writeReports: false,
  });
  expect(recorded.records.map((record) => record.outcome)).not.toContain('errored');
}, 120_000);
afterAll(() => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
  rmSync(project, { recursive: true, force: true });
});

const verify = () => captureCli(() => runRecordCli(['--verify']));

// biome-ignore lint/suspicious/noExplicitAny: a cassette's JSON, edited by hand
type Json = any;

/** Edit a cassette under fixtures/H1 and recompute its hash, as a hand edit that hides would. */
async function editSealed(name: string, edit: (data: Json) => void): Promise<void> {
  const file = join(project, 'fixtures/H1', name);
  const data = JSON.parse(readFileSync(file, 'utf8'));
  edit(data);
  if (data.kind !== 'judge') writeFileSync(file, resealed(data));
  else {
    const { contentHash: _old, ...content } = data;
    await writeJudgeCassette(file, content, []);
  }
}

/** Run each `npm run record -- ...` line verify printed, as the user would. */
async function runPrintedCommands(output: string): Promise<string[]> {
  const commands = [...output.matchAll(/^ {2}npm run record -- (.+)$/gm)].map((match) => match[1]!);
  for (const command of commands) {
    const result = await captureCli(() => runRecordCli(command.split(' ')));
    expect(result.code, `${command}:\n${result.stdout}${result.stderr}`).toBe(0);
  }
  return commands;
}

describe('npm run record -- --verify on scripted cassettes', () => {
  it("passes on init's untouched example, re-deriving its cassettes with its model and judge scripts", async () => {
    const result = await verify();
    expect(result.stdout).not.toContain('✗');
    expect(result.stdout).toMatch(
      /^12 cassettes checked \(0 simulator re-derived, 12 re-derived with the task's own scripts, .*\): all match\n$/m,
    );
    expect(result.code).toBe(0);
  });

  it('catches an edited judge verdict with its hash recomputed, and the command it prints makes it pass', async () => {
    await editSealed('upgraded/trial-2.judge.json', (data) => {
      const sample = data.judgments[0].samples[0];
      const verdict = sample.response.body.content.find(
        (block: { type: string }) => block.type === 'tool_use',
      );
      verdict.input = { ...verdict.input, label: 'fail', score: 0 };
    });
    const edited = await verify();
    expect(edited.code).toBe(1);
    expect(edited.stdout).toContain('✗ fixtures/H1/upgraded/trial-2.judge.json (simulator)');
    expect(edited.stdout).toContain("judge script 'helpdesk-judge'");
    const commands = await runPrintedCommands(edited.stdout);
    expect(commands).toEqual(['--judge-only --task H1 --variant upgraded --trial 2 --simulated']);
    const after = await verify();
    expect(after.stdout).toContain('all match');
    expect(after.code).toBe(0);
  }, 120_000);

  it('catches an edited answer of a model-script cassette, and the command it prints makes it pass', async () => {
    await editSealed('baseline/trial-3.json', (data) => {
      const answer = data.exchanges
        .at(-1)
        .response.body.content.find((block: { type: string }) => block.type === 'text');
      answer.text = `${answer.text} (edited by hand)`;
    });
    const edited = await verify();
    expect(edited.code).toBe(1);
    expect(edited.stdout).toContain('✗ fixtures/H1/baseline/trial-3.json (simulator)');
    expect(edited.stdout).toContain("model script 'helpdesk'");
    await runPrintedCommands(edited.stdout);
    const after = await verify();
    expect(after.stdout).toContain('all match');
    expect(after.code).toBe(0);
  }, 120_000);

  it('fails a trial re-recorded without updating the reference, and the command it prints makes it pass', async () => {
    expect(await captureCli(() => runEvalCli(['--update-reference']))).toMatchObject({ code: 0 });
    const recorded = await captureCli(() =>
      runRecordCli(['--simulated', '--task', 'H1', '--variant', 'upgraded', '--trial', '1']),
    );
    expect(recorded.code).toBe(0);
    const renewed = await verify();
    expect(renewed.code).toBe(1);
    expect(renewed.stdout).toContain('✗ fixtures/H1/upgraded/trial-1.json (simulator)');
    expect(renewed.stdout).toContain(
      'its content hash is not the one reports/reference.json replayed',
    );
    expect(renewed.stdout).not.toContain('Re-record with');
    const [command] = [...renewed.stdout.matchAll(/^ {2}npm run eval -- (.+)$/gm)].map(
      (match) => match[1]!,
    );
    expect(command).toBe('--trials 3 --update-reference');
    expect(await captureCli(() => runEvalCli(command!.split(' ')))).toMatchObject({ code: 0 });
    const after = await verify();
    expect(after.stdout).toContain('all match');
    expect(after.code).toBe(0);
  }, 120_000);
});
