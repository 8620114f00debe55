import picomatch from 'picomatch';
import { canonicalJson } from '../../core/canonical-json.js';
import { quotedValue } from '../spec/assertion-text.js';
import { longestCommonSubsequence, maximumMatching } from './matching.js';
import { argsMatch, DEFAULT_TOLERANCE } from './trajectory-args.js';
import { checkTrajectoryOptions } from './trajectory-options.js';
import type {
  ActualCall,
  ExpectedCall,
  OrderMode,
  TrajectoryMatch,
  TrajectoryOptions,
} from './trajectory-types.js';

export type {
  ActualCall,
  ExpectedCall,
  OrderMode,
  TrajectoryMatch,
  TrajectoryOptions,
} from './trajectory-types.js';

const toolOf = (call: ActualCall) => (call.tool ?? call.name) as string;

function describeInput(input: unknown): string {
  if (input === undefined) return '(any arguments)';
  try {
    const json = canonicalJson(input);
    return quotedValue(json);
  } catch {
    return '(arguments that are not JSON)';
  }
}

const describeExpected = (call: ExpectedCall) => `${call.tool}${describeInput(call.input)}`;
const describeActual = (call: ActualCall) => `${toolOf(call)}${describeInput(call.input ?? null)}`;

/** `step 3 (model turn 2)`: the call's place among all calls, and the turn it came in. */
function stepOf(calls: readonly ActualCall[], index: number): string {
  const turn = calls[index]?.step;
  return `step ${index + 1}${turn === undefined ? '' : ` (model turn ${turn})`}`;
}

function fitsMatrix(
  expected: readonly ExpectedCall[],
  actual: readonly ActualCall[],
  options: TrajectoryOptions,
): boolean[][] {
  return expected.map((want) =>
    actual.map((call) => {
      if (want.tool !== toolOf(call)) return false;
      if (want.input === undefined) return true;
      const mode = options.toolArgs?.[want.tool] ?? options.args ?? 'exact';
      return argsMatch(mode, want.input, call.input, options.tolerance ?? DEFAULT_TOLERANCE);
    }),
  );
}

/** The closest actual call to an expected one that no call matched: same tool, not taken. */
function missing(expected: ExpectedCall, actual: readonly ActualCall[], taken: Set<number>) {
  const near = actual.findIndex((call, j) => !taken.has(j) && toolOf(call) === expected.tool);
  const closest =
    near >= 0
      ? `; the closest, ${stepOf(actual, near)}, was ${describeActual(actual[near]!)} (its arguments differ)`
      : '';
  return `expected ${describeExpected(expected)}, which was not called${closest}`;
}

function strictProblems(
  expected: readonly ExpectedCall[],
  actual: readonly ActualCall[],
  fits: boolean[][],
): string[] {
  const length = Math.max(expected.length, actual.length);
  for (let index = 0; index < length; index += 1) {
    const want = expected[index];
    const got = actual[index];
    if (want && got && fits[index]![index]) continue;
    const wanted = want ? describeExpected(want) : 'no more calls';
    const came = got ? describeActual(got) : 'no call';
    return [`${stepOf(actual, index)}: expected ${wanted}, got ${came}`];
  }
  return [];
}

function inOrderProblems(
  expected: readonly ExpectedCall[],
  actual: readonly ActualCall[],
  fits: boolean[][],
): string[] {
  let position = 0;
  for (let i = 0; i < expected.length; i += 1) {
    let found = -1;
    for (let j = position; j < actual.length; j += 1) {
      if (fits[i]![j]) {
        found = j;
        break;
      }
    }
    if (found < 0) {
      const after = position === 0 ? 'from the start' : `after ${stepOf(actual, position - 1)}`;
      const next = actual[position];
      const instead = next
        ? `; ${stepOf(actual, position)} was ${describeActual(next)}`
        : '; no call came';
      return [`expected ${describeExpected(expected[i]!)} ${after}${instead}`];
    }
    position = found + 1;
  }
  return [];
}

function setProblems(
  order: OrderMode,
  expected: readonly ExpectedCall[],
  actual: readonly ActualCall[],
  pairs: ReadonlyArray<[number, number]>,
): string[] {
  const taken = new Set(pairs.map(([, j]) => j));
  const hit = new Set(pairs.map(([i]) => i));
  const extra = actual.flatMap((call, j) =>
    taken.has(j) ? [] : [`${stepOf(actual, j)}: ${describeActual(call)} was not expected`],
  );
  const absent = expected.flatMap((call, i) => (hit.has(i) ? [] : [missing(call, actual, taken)]));
  if (order === 'superset') return absent;
  if (order === 'subset') return extra;
  // unordered: the first problem in step order, then the calls never made.
  return [...extra, ...absent];
}

const globs = (patterns: readonly string[]) => patterns.map((pattern) => picomatch(pattern));

function listProblems(actual: readonly ActualCall[], options: TrajectoryOptions): string[] {
  const problems: string[] = [];
  const deny = globs(options.deny ?? []);
  const allow = options.allow && globs(options.allow);
  actual.forEach((call, index) => {
    const tool = toolOf(call);
    if (deny.some((matches) => matches(tool))) {
      problems.push(
        `${stepOf(actual, index)}: ${tool} is denied (deny: ${options.deny!.join(', ')})`,
      );
    } else if (allow && !allow.some((matches) => matches(tool))) {
      problems.push(
        `${stepOf(actual, index)}: ${tool} is not allowed (allow: ${options.allow!.join(', ')})`,
      );
    }
  });
  for (const [pattern, { min, max }] of Object.entries(options.counts ?? {})) {
    const matches = picomatch(pattern);
    const steps = actual.flatMap((call, index) => (matches(toolOf(call)) ? [index + 1] : []));
    const where = steps.length > 0 ? ` (steps ${steps.join(', ')})` : '';
    const times = `${steps.length} time${steps.length === 1 ? '' : 's'}`;
    if (min !== undefined && steps.length < min)
      problems.push(`${pattern} was called ${times}${where}; at least ${min} expected`);
    if (max !== undefined && steps.length > max)
      problems.push(`${pattern} was called ${times}${where}; at most ${max} allowed`);
  }
  return problems;
}

function f1Of(matched: number, expected: number, actual: number) {
  const precision = actual === 0 ? 1 : matched / actual;
  const recall = expected === 0 ? 1 : matched / expected;
  const f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
  return { precision, recall, f1 };
}

/**
 * Match a trial's tool calls against the expected ones: order (strict, in order, unordered,
 * subset, superset), arguments (exact, ignore, subset, superset, fuzzy or a function, per tool
 * if need be), call counts and allow/deny lists, with partial credit (precision, recall and F1
 * over calls). Return it from a check, or record it with `run.score(...)`: the trial fails
 * when it does not pass, with the message naming the first step that diverged.
 *
 * @example
 * run.score(matchTrajectory(run.toolCalls, [{ tool: 'get_order', input: { order_id: 'ORD1001' } }],
 *   { order: 'superset', deny: ['resubmit_*'] }));
 */
export function matchTrajectory(
  actual: readonly ActualCall[],
  expected: readonly ExpectedCall[],
  options: TrajectoryOptions = {},
): TrajectoryMatch {
  checkTrajectoryOptions(actual, expected, options);
  const order = options.order ?? 'strict';
  const matrix = fitsMatrix(expected, actual, options);
  const fits = (i: number, j: number) => matrix[i]![j]!;
  const ordered = order === 'strict' || order === 'in_order';
  const pairs = ordered
    ? longestCommonSubsequence(expected.length, actual.length, fits)
    : maximumMatching(expected.length, actual.length, fits);
  const orderProblems =
    order === 'strict'
      ? strictProblems(expected, actual, matrix)
      : order === 'in_order'
        ? inOrderProblems(expected, actual, matrix)
        : setProblems(order, expected, actual, pairs);
  const { precision, recall, f1 } = f1Of(pairs.length, expected.length, actual.length);
  const threshold = options.threshold ?? 0;
  const problems = [...orderProblems, ...listProblems(actual, options)];
  if (f1 < threshold)
    problems.push(`F1 ${f1.toFixed(2)} is below the threshold ${threshold.toFixed(2)}`);
  return {
    name: options.name ?? 'trajectory',
    score: f1,
    threshold,
    pass: problems.length === 0,
    message: problems[0],
    problems,
    precision,
    recall,
    f1,
  };
}

/**
 * matchTrajectory as an assertion: throws an AssertionError (the trial fails, like a failed
 * `expect`) with the message naming the first step that diverged; returns the match otherwise.
 */
export function expectTrajectory(
  actual: readonly ActualCall[],
  expected: readonly ExpectedCall[],
  options: TrajectoryOptions = {},
): TrajectoryMatch {
  const match = matchTrajectory(actual, expected, options);
  if (!match.pass) {
    const error = new Error(`${match.name}: ${match.message}`);
    error.name = 'AssertionError';
    throw error;
  }
  return match;
}
