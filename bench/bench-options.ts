import { resolveBaselineRef } from './baseline-ref.js';
import { parseBenchArgs, projectOf, roundsOf } from './bench-args.js';

export const BENCH_FLAGS = {
  rounds: { type: 'string' },
  project: { type: 'string' },
  'baseline-ref': { type: 'string' },
  'skip-npm-test': { type: 'boolean' },
  micro: { type: 'boolean' },
  viewer: { type: 'boolean' },
  smoke: { type: 'boolean' },
} as const;

/**
 * `npm run bench`'s flags: every one checked, the baseline ref resolved,
 * before anything is built or measured. A bad one is a BenchUsageError (one line, exit 2).
 */
export function benchOptions(argv: string[], defaultProject: string) {
  const { values } = parseBenchArgs(argv, BENCH_FLAGS);
  const projectDir = projectOf(values.project, defaultProject);
  const baselineRef = values['baseline-ref'];
  const smoke = values.smoke === true;
  return {
    rounds: roundsOf(values.rounds, smoke ? 1 : 5),
    projectDir,
    smoke,
    // The smoke leaves npm test out: CI runs it on its own.
    npmTest: !values['skip-npm-test'] && !smoke,
    micro: values.micro === true,
    viewer: values.viewer === true,
    ...(baselineRef !== undefined && { baseline: resolveBaselineRef(baselineRef, projectDir) }),
  };
}
