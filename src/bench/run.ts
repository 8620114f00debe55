import { fileURLToPath } from 'node:url';
import { parseBenchArgs, projectOf, roundsOf, runBenchScript } from './bench-args.js';
import { VIEWER_TITLE, viewerRows } from './html-report.js';
import { MICRO_ROUNDS } from './micro-measure.js';
import { microRows } from './micro-rows.js';
import { printRows } from './print-rows.js';
import { runTargets } from './run-targets.js';

/**
 * `npm run bench`: the performance contract. Figures, never pass/fail: each target of
 * issues 14 and 25 with its measured figure (median and best of several rounds) and its ratio
 * to an empty vitest run measured in the same run. `--micro` adds the in-process
 * micro-benchmarks (pipeline overhead, one replayed trial). The HTML report's viewer in
 * headless Chromium follows (html-report.ts); `--viewer` measures only that.
 */
async function main(): Promise<undefined> {
  const { values } = parseBenchArgs(process.argv.slice(2), {
    rounds: { type: 'string' },
    project: { type: 'string' },
    'skip-npm-test': { type: 'boolean' },
    micro: { type: 'boolean' },
    viewer: { type: 'boolean' },
  });
  const rounds = roundsOf(values.rounds, 5);
  const projectDir = projectOf(values.project, fileURLToPath(new URL('../..', import.meta.url)));
  const log = (line: string) => console.error(line);
  if (values.viewer) {
    printRows(VIEWER_TITLE, await viewerRows(projectDir, log), '');
    return undefined;
  }
  const rows = await runTargets({
    projectDir,
    rounds,
    npmTest: !values['skip-npm-test'],
    log: (line) => console.error(line),
  });
  printRows(
    `harness-evals performance targets (issue 14; ${rounds} rounds; node ${process.version}; ${projectDir})`,
    rows,
  );
  if (values.micro) printRows(`micro-benchmarks (${MICRO_ROUNDS} rounds each)`, await microRows());
  printRows(VIEWER_TITLE, await viewerRows(projectDir, log), '');
  return undefined;
}

await runBenchScript('bench', main);
