import { ARGS_MODES } from './trajectory-args.js';
import type { ActualCall, ExpectedCall, TrajectoryOptions } from './trajectory-types.js';

const ORDERS = ['strict', 'in_order', 'unordered', 'subset', 'superset'];

function argsModeProblem(mode: unknown, where: string): string | undefined {
  if (typeof mode === 'function' || (ARGS_MODES as readonly unknown[]).includes(mode))
    return undefined;
  return `${where} is ${JSON.stringify(mode)}: use ${ARGS_MODES.join(', ')} or a function (expected, actual) => boolean`;
}

function countProblem(tool: string, limits: unknown): string | undefined {
  if (typeof limits !== 'object' || limits === null) return `counts.${tool} must be { min?, max? }`;
  const { min, max } = limits as { min?: unknown; max?: unknown };
  for (const [field, value] of [
    ['min', min],
    ['max', max],
  ] as const) {
    if (value !== undefined && !(Number.isInteger(value) && (value as number) >= 0)) {
      return `counts.${tool}.${field} ${String(value)} is not a whole number >= 0`;
    }
  }
  if (typeof min === 'number' && typeof max === 'number' && min > max) {
    return `counts.${tool}: min ${min} is above max ${max}`;
  }
  return undefined;
}

function globsProblem(list: unknown, field: string): string | undefined {
  if (list === undefined) return undefined;
  if (!Array.isArray(list) || list.some((item) => typeof item !== 'string' || item === '')) {
    return `${field} must be a list of tool names or globs, e.g. ['get_*']`;
  }
  return undefined;
}

function callsProblem(actual: unknown, expected: unknown): string | undefined {
  if (!Array.isArray(actual)) return 'the actual calls must be a list (run.toolCalls)';
  if (actual.some((call) => typeof (call?.tool ?? call?.name) !== 'string')) {
    return 'each actual call needs its tool name (tool or name)';
  }
  if (!Array.isArray(expected)) return 'the expected calls must be a list of { tool, input? }';
  const bad = expected.findIndex((call) => typeof call?.tool !== 'string' || call.tool === '');
  return bad >= 0
    ? `expected[${bad}] needs a tool name: { tool: 'get_order', input?: {...} }`
    : undefined;
}

/**
 * Refuses options that would match wrongly rather than fail: a misspelt mode, a negative
 * count, a threshold of 80 instead of 0.8. A TypeError: the check is broken, the trial errors.
 */
export function checkTrajectoryOptions(
  actual: readonly ActualCall[],
  expected: readonly ExpectedCall[],
  options: TrajectoryOptions,
): void {
  const problems = [
    callsProblem(actual, expected),
    options.order !== undefined && !ORDERS.includes(options.order)
      ? `order is ${JSON.stringify(options.order)}: use ${ORDERS.join(', ')}`
      : undefined,
    options.args === undefined ? undefined : argsModeProblem(options.args, 'args'),
    ...Object.entries(options.toolArgs ?? {}).map(([tool, mode]) =>
      argsModeProblem(mode, `toolArgs.${tool}`),
    ),
    options.tolerance !== undefined &&
    !(Number.isFinite(options.tolerance) && options.tolerance >= 0)
      ? `tolerance ${String(options.tolerance)} is not a number >= 0`
      : undefined,
    ...Object.entries(options.counts ?? {}).map(([tool, limits]) => countProblem(tool, limits)),
    globsProblem(options.allow, 'allow'),
    globsProblem(options.deny, 'deny'),
    options.threshold !== undefined && !(options.threshold >= 0 && options.threshold <= 1)
      ? `threshold ${String(options.threshold)} is not a number from 0 to 1`
      : undefined,
  ];
  const first = problems.find((problem) => problem !== undefined);
  if (first !== undefined) throw new TypeError(`matchTrajectory: ${first}`);
}
