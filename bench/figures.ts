import { loadavg } from 'node:os';
import type { ProcessRun } from './measure-process.js';

/** One N-trial run and its 1-trial twin, measured in the same round. */
export interface RunPair {
  one: ProcessRun;
  many: ProcessRun;
}

export const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

export const ms = (value: number): string =>
  value >= 10_000 ? `${(value / 1000).toFixed(1)} s` : `${value.toFixed(value < 10 ? 2 : 0)} ms`;

export const times = (value: number): string => `${value.toFixed(2)}x`;

/** The 1-minute load average now (0 where the OS has none): a shared machine's figures need it. */
export const loadAverage = (): string => (loadavg()[0] ?? 0).toFixed(1);

/** A row's two figures over the rounds: the median and the best (lowest) round. */
export const medianAndBest = (
  values: readonly number[],
  format: (value: number) => string = ms,
): { figure: string; best: string } => ({
  figure: format(median(values)),
  best: format(Math.min(...values)),
});

/** The CPU of the process and of the children it waited for (vitest's fork workers). */
export const allCpuMs = (run: ProcessRun): number => run.cpuMs + run.childCpuMs;

/**
 * The cost of one more trial, per round: (N-trial run − 1-trial run) / extra trials. Start-up
 * and the report's fixed costs cancel out; what is left is what each trial adds.
 */
export function perTrial(
  pairs: readonly RunPair[],
  extraTrials: number,
  field: 'wallMs' | 'cpuMs' | ((run: ProcessRun) => number),
): number[] {
  const value = typeof field === 'function' ? field : (run: ProcessRun) => run[field];
  return pairs.map(({ one, many }) => (value(many) - value(one)) / extraTrials);
}
