import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { BaselineRef } from './baseline-ref.js';
import { runBenchScript } from './bench-args.js';
import { benchOptions } from './bench-options.js';
import { loadAverage } from './figures.js';
import { VIEWER_TITLE, viewerRows } from './html-report.js';
import { MICRO_ROUNDS } from './micro-measure.js';
import { microRows } from './micro-rows.js';
import { printRows } from './print-rows.js';
import { runTargets } from './run-targets.js';
import { runSequentialBench } from './sequential.js';
import { printSideBySide } from './side-by-side.js';
import { REPLAY_TRIALS, SCALE_TRIALS, useSmokeSizes } from './targets.js';

/**
 * `npm run bench`: the performance contract. Figures, never pass/fail: each target of
 * issues 14 and 25 with its measured figure (median and best of several rounds) and its ratio
 * to an empty vitest run measured in the same run. `--baseline-ref REF` builds REF's code
 * too and prints the figures issue 25 compares, both builds side by side. `--micro` adds the
 * in-process micro-benchmarks (pipeline overhead, one replayed trial). The HTML report's viewer
 * in headless Chromium follows (html-report.ts); `--viewer` measures only that.
 */
async function main(): Promise<undefined> {
  // --sequential: the decisions' error rates and trials against fixed n (issue 32), nothing else.
  if (process.argv[2] === '--sequential') return runSequentialBench(process.argv.slice(3));
  const options = benchOptions(
    process.argv.slice(2),
    fileURLToPath(new URL('..', import.meta.url)),
  );
  const { projectDir, rounds, baseline } = options;
  const log = (line: string) => console.error(line);
  if (options.smoke) {
    useSmokeSizes();
    log(
      `bench --smoke: ${REPLAY_TRIALS} T2 trials, ${SCALE_TRIALS} per task and variant, ${rounds} round; no npm test, no viewer: it checks that the bench runs, its figures mean little`,
    );
  }
  if (options.viewer) {
    printRows(VIEWER_TITLE, await viewerRows(projectDir, log), '');
    return undefined;
  }
  const loadAtStart = loadAverage();
  const result = await runTargets({ ...options, log });
  printRows(
    `harness-evals performance targets (issues 14 and 25; ${rounds} round${rounds === 1 ? '' : 's'}; node ${process.version}; ${projectDir}; load average ${loadAtStart} at the start, ${loadAverage()} at the end)`,
    result.contract,
  );
  if (baseline && result.comparison) {
    printSideBySide(
      `\nthis build (${describeHead(projectDir)}) side by side with the baseline ${describeRef(baseline)}, alternated round by round (${rounds} round${rounds === 1 ? '' : 's'}; figures, not pass/fail)`,
      result.comparison,
    );
  }
  for (const note of result.notes) console.log(`  note: ${note}`);
  if (options.micro) {
    printRows(`micro-benchmarks (${MICRO_ROUNDS} rounds each)`, await microRows());
  }
  if (options.smoke) console.log('  the viewer in headless Chromium: left out by --smoke');
  else printRows(VIEWER_TITLE, await viewerRows(projectDir, log), '');
  return undefined;
}

const describeRef = (baseline: BaselineRef) =>
  baseline.ref === baseline.short ? baseline.short : `${baseline.ref}, ${baseline.short}`;

/** HEAD's short sha, and whether tracked files differ from it (the build is of the working tree). */
function describeHead(projectDir: string): string {
  const git = (args: string[]) => spawnSync('git', args, { cwd: projectDir, encoding: 'utf8' });
  const head = git(['rev-parse', '--short=7', 'HEAD']);
  if (head.status !== 0) return 'not a git checkout';
  const dirty = git(['status', '--porcelain', '--untracked-files=no']).stdout.trim() !== '';
  return `${head.stdout.trim()}${dirty ? ' + uncommitted changes' : ''}`;
}

await runBenchScript('bench', main);
