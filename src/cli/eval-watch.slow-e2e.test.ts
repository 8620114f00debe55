import { type ChildProcess, spawn } from 'node:child_process';
import {
  appendFileSync,
  cpSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFailed, onTestFinished } from 'vitest';
import { WATCHING } from '../eval/run/watch-evals.js';
import { REPOSITORY_ROOT } from '../eval/testing/hostile-eval-project.js';
import { linkedProject } from '../eval/testing/judged-project.js';
import { PROCESS_TEST_TIMEOUT_MS } from './testing/cli.js';

// `npm run eval -- --watch` as a user runs it: a process that replays T1, then replays it again
// when its prompt changes, reports the trials whose cassettes no longer match, and ends on Ctrl-C.

const TASK_FILE = 'evals/t1-business-rules.eval.ts';
let project: string;

beforeAll(() => {
  project = linkedProject('eval-watch-', {}, [
    'AGENTS.md',
    'evals/refund-desk.agent.ts',
    TASK_FILE,
  ]);
  cpSync(join(REPOSITORY_ROOT, 'fixtures/T1'), join(project, 'fixtures/T1'), { recursive: true });
});
afterAll(() => {
  if (project) rmSync(project, { recursive: true, force: true });
});

/** The child's stdout so far, and a wait for the next whole report that matches. */
function reports(child: ChildProcess) {
  let text = '';
  let errors = '';
  let seen = 0;
  /** The wait under way, told of each new chunk and of the exit. */
  let waiting: { check: () => void; exited: (code: number | null) => void } | undefined;
  // One listener for the whole run: no chunk is lost between two waits.
  child.stdout?.on('data', (chunk: Buffer) => {
    text += chunk.toString();
    waiting?.check();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    errors += chunk.toString();
  });
  child.once('exit', (code) => waiting?.exited(code));
  const until = (pattern: RegExp) =>
    new Promise<string>((resolve, reject) => {
      const check = () => {
        // A report ends with the WATCHING line: look at whole reports only, each once.
        for (
          let end = text.indexOf(WATCHING, seen);
          end !== -1;
          end = text.indexOf(WATCHING, seen)
        ) {
          const report = text.slice(seen, end + WATCHING.length);
          seen = end + WATCHING.length;
          if (pattern.test(report)) {
            waiting = undefined;
            resolve(report);
            return;
          }
        }
      };
      const exited = (code: number | null) =>
        reject(new Error(`eval --watch exited (${code}) before ${pattern}:\n${text}\n${errors}`));
      waiting = { check, exited };
      if (child.exitCode !== null) exited(child.exitCode);
      else check();
    });
  return { until, errors: () => errors, text: () => text };
}

/** The processes whose working folder is `dir` (Linux's /proc; none elsewhere). */
function processesIn(dir: string): string[] {
  if (process.platform !== 'linux') return [];
  const real = realpathSync(dir);
  return readdirSync('/proc')
    .filter((pid) => /^\d+$/.test(pid))
    .filter((pid) => {
      try {
        return readlinkSync(`/proc/${pid}/cwd`) === real;
      } catch {
        return false; // ended meanwhile, or not ours to read
      }
    });
}

describe('eval --watch', () => {
  it(
    'replays again when the prompt or the config changes, reports the stale trials with their re-record command, and ends on Ctrl-C',
    async () => {
      const child = spawn(
        process.execPath,
        [join(REPOSITORY_ROOT, 'dist/cli/main.js'), 'eval', '--watch'],
        {
          cwd: project,
          env: { ...process.env, CI: '', GITHUB_STEP_SUMMARY: '' },
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
      const output = reports(child);
      // A wait that never matched ends in the test's timeout, which skips the test's own code:
      // show what the watch printed, and end it whatever happened.
      onTestFailed(() =>
        console.error(`eval --watch printed:\n${output.text()}\n${output.errors()}`),
      );
      onTestFinished(() => {
        child.kill('SIGKILL');
      });
      const first = await output.until(/gate: passed/);
      expect(first).not.toContain('stale');

      // The project instructions are read while the trials run: the upgraded variant loads
      // AGENTS.md, so its cassettes no longer match the request; the baseline's still do.
      appendFileSync(join(project, 'AGENTS.md'), '- Sign every answer with "The refund desk".\n');
      const instructions = await output.until(/AGENTS\.md changed/);
      expect(instructions).toContain(`re-ran ${TASK_FILE}`);
      expect(instructions).toContain('T1 upgraded trial 1: stale');
      expect(instructions).toContain(
        'npm run record -- --task T1 --variant upgraded --trial 1,2,3',
      );
      expect(instructions).not.toContain('T1 baseline trial 1: stale');
      expect(instructions).toContain('gate: FAILED');

      // The task's own prompt is in the eval file (vitest's module graph): both variants.
      const source = readFileSync(join(project, TASK_FILE), 'utf8');
      writeFileSync(
        join(project, TASK_FILE),
        source.replace("Why hasn't the refund", 'Why has the refund still not'),
      );
      const prompt = await output.until(/t1-business-rules\.eval\.ts changed/);
      expect(prompt).toContain('T1 baseline trial 1: stale');
      expect(prompt).toContain(
        'npm run record -- --task T1 --variant baseline,upgraded --trial 1,2,3',
      );

      // The eval config: vitest sets its server up again, and the watch replays every file.
      appendFileSync(join(project, 'vitest.evals.config.ts'), '// edited\n');
      const config = await output.until(/vitest\.evals\.config\.ts changed/);
      expect(config).toContain('T1 baseline trial 1: stale');

      expect(processesIn(project)).toContain(String(child.pid));
      child.kill('SIGINT');
      expect(await exited, output.errors()).toBe(0);
      // Vitest's workers are threads of the watch process: nothing started in the project outlives it.
      expect(processesIn(project)).toEqual([]);
    },
    PROCESS_TEST_TIMEOUT_MS,
  );
});
