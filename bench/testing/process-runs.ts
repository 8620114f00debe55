import type { ProcessRun } from '../measure-process.js';

/** Test double: a finished, clean process run with the given wall and CPU times. */
export const processRun = (wallMs: number, cpuMs = wallMs, childCpuMs = 0): ProcessRun => ({
  wallMs,
  cpuMs,
  childCpuMs,
  maxRssKb: 0,
  leftovers: [],
  exitCode: 0,
  output: '',
});
