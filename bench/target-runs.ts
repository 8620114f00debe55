import type { RunPair } from './figures.js';
import type { ProcessRun } from './measure-process.js';

/** The runs of one build that `--baseline-ref` compares: measured for both builds, alternated. */
export interface BuildRuns {
  /** `eval --task T2 --trials 1`, one per round. */
  startup: ProcessRun[];
  /** `eval --task T2 --variant upgraded --trials N` and `--trials 1`. */
  replay: RunPair[];
  /** The same trials without vitest (trial-loop.mjs), N and 1. */
  loops: RunPair[];
}

/** Every measured run of `npm run bench`, by figure; index i of each list is round i + 1. */
export interface TargetRuns {
  /** The reference: an empty vitest run (one passing test), once per round. */
  empty: ProcessRun[];
  current: BuildRuns;
  baseline?: BuildRuns;
  /** vitest's own cost per test: N empty tests against 1. */
  vitestTests: RunPair[];
  /** Loading the SDK and zod in a fresh node against an empty one. */
  dependencies: RunPair[];
  debug: RunPair[];
  /** Every task and variant at SCALE_TRIALS trials: rounds 1 to 3 only. */
  scale: ProcessRun[];
  tests?: ProcessRun;
  /** Processes any measured run left behind (`pid (name) state`). */
  leftovers: Set<string>;
}

export const emptyBuildRuns = (): BuildRuns => ({ startup: [], replay: [], loops: [] });
