import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { judgeCassettePath, readJudgeCassette } from '../src/eval/grade/judge-cassette.js';
import { readCassette } from '../src/replay/cassette-file.js';
import { removeScratchDir, scratchDir } from './scratch.js';
import { createBenchProject } from './workload.js';

// The bench's project failed its own eval on a clean clone: each copied cassette had its trial
// number rewritten, which broke its content hash, and judge cassettes and dataset case folders
// were not copied at all.

const root = fileURLToPath(new URL('..', import.meta.url));
const made: string[] = [];
afterAll(() => {
  for (const dir of made) removeScratchDir(dir);
});

describe('createBenchProject', () => {
  it("copies every task's cassettes with valid content hashes, judge cassettes and dataset cases included", async () => {
    const dir = createBenchProject({ projectDir: root, trials: 4, trialsFor: { T2: 6 } });
    made.push(dir);
    const fixtures = join(dir, 'fixtures');
    const source = join(root, 'fixtures');
    let judged = 0;
    let cases = 0;
    for (const task of readdirSync(source)) {
      const trials = task === 'T2' ? 6 : 4;
      for (const variant of readdirSync(join(source, task))) {
        const folders = readdirSync(join(source, task, variant), { withFileTypes: true });
        const caseIds = folders.filter((entry) => entry.isDirectory()).map((entry) => entry.name);
        for (const testCase of caseIds.length > 0 ? caseIds : [undefined]) {
          if (testCase) cases += 1;
          const recordedJudge = existsSync(judgeCassettePath(source, task, variant, 1, testCase));
          for (let trial = 1; trial <= trials; trial += 1) {
            const folder = [fixtures, task, variant, ...(testCase ? [testCase] : [])];
            const cassette = await readCassette(join(...folder, `trial-${trial}.json`));
            expect(cassette.meta.trial).toBe(trial);
            if (!recordedJudge) continue;
            const judge = readJudgeCassette(
              judgeCassettePath(fixtures, task, variant, trial, testCase),
            );
            expect(judge.cassette.meta.trial).toBe(trial);
            judged += 1;
          }
        }
      }
    }
    expect(cases).toBeGreaterThan(0);
    expect(judged).toBeGreaterThan(0);
  });

  // --baseline-ref 1264a15 failed: its reader refuses a contentHash key ("Unrecognized key"),
  // and every copy was sealed with one by this build's writer.
  it("copies a cassette recorded before content hashes (a baseline build's) without one", () => {
    const project = scratchDir('harness-bench-old-');
    made.push(project);
    const recorded = join(root, 'fixtures/T2/upgraded/trial-1.json');
    const { contentHash: _hash, ...unsealed } = JSON.parse(readFileSync(recorded, 'utf8'));
    mkdirSync(join(project, 'fixtures/T2/upgraded'), { recursive: true });
    writeFileSync(join(project, 'fixtures/T2/upgraded/trial-1.json'), JSON.stringify(unsealed));
    const dir = createBenchProject({ projectDir: project, trials: 2 });
    made.push(dir);
    const copy = JSON.parse(readFileSync(join(dir, 'fixtures/T2/upgraded/trial-2.json'), 'utf8'));
    expect(copy.meta.trial).toBe(2);
    expect(copy).not.toHaveProperty('contentHash');
  });
});
