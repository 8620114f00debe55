import type { Score } from '../spec/score.js';
import type { ArgsMode } from './trajectory-args.js';

/** A tool call as an agent made it: this runtime's records (`tool`) or an adapter's (`name`). */
export type ActualCall = { input?: unknown; step?: number } & (
  | { tool: string; name?: undefined }
  | { name: string; tool?: undefined }
);

/** A call the trajectory should have; without `input`, any arguments do. */
export interface ExpectedCall {
  tool: string;
  input?: unknown;
}

/**
 * How the actual calls must relate to the expected ones:
 * - `strict`: the same calls in the same order, nothing else;
 * - `in_order`: the expected calls in their order, other calls in between allowed;
 * - `unordered`: the same calls in any order, nothing else;
 * - `superset`: every expected call, in any order, others allowed;
 * - `subset`: nothing but expected calls, in any order (some may be missing).
 */
export type OrderMode = 'strict' | 'in_order' | 'unordered' | 'subset' | 'superset';

export interface TrajectoryOptions {
  /** Default `strict`. */
  order?: OrderMode;
  /** Default `exact`; see ArgsMode. */
  args?: ArgsMode;
  /** Per tool name, an args mode that overrides `args`. */
  toolArgs?: Readonly<Record<string, ArgsMode>>;
  /** `fuzzy` numbers: the largest absolute difference that still matches (default 0.001). */
  tolerance?: number;
  /** Per tool name or glob (`get_*`): how many calls are allowed, e.g. `{ get_payment: { max: 2 } }`. */
  counts?: Readonly<Record<string, { min?: number; max?: number }>>;
  /** Only tools matching one of these globs may be called. */
  allow?: readonly string[];
  /** No tool matching one of these globs may be called. */
  deny?: readonly string[];
  /** F1 the trajectory must reach too (default 0: the order mode decides). */
  threshold?: number;
  /** The score's name in reports (default `trajectory`). */
  name?: string;
}

/** The match, as a score (F1 over calls, with the order mode's verdict) and the details. */
export interface TrajectoryMatch
  extends Required<Pick<Score, 'score' | 'threshold' | 'name' | 'pass'>> {
  /** The first problem, naming the step that diverged: what was expected, what came instead. */
  message: string | undefined;
  /** Every problem found, in order. */
  problems: string[];
  precision: number;
  recall: number;
  f1: number;
}
