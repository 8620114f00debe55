import { type ParseArgsConfig, parseArgs } from 'node:util';
import { ConfigError, errorMessage } from '../core/errors.js';
import { isVariantName } from '../eval/spec/agent-spec.js';
import { isCaseId } from '../eval/spec/cases.js';
import { TASK_ID } from '../eval/spec/task-id.js';

/** A positive whole number flag, or a ConfigError naming the flag. */
export function positiveInteger(
  flag: string,
  value: string | undefined,
  fallback: number,
  max = 1000,
): number {
  if (value === undefined) return fallback;
  const number = Number(value);
  if (!/^\d+$/.test(value.trim()) || !Number.isInteger(number) || number < 1 || number > max) {
    throw new ConfigError(`${flag} takes a whole number from 1 to ${max}, got '${value}'`);
  }
  return number;
}

/** A comma-separated list flag (`--task T1,T4`). */
export function listFlag(value: string | undefined): string[] | undefined {
  const items = value
    ?.split(',')
    .map((item) => item.trim())
    .filter(Boolean);
  return items && items.length > 0 ? items : undefined;
}

export function oneOf<T extends string>(
  flag: string,
  value: string | undefined,
  allowed: readonly T[],
  fallback: T,
): T {
  if (value === undefined) return fallback;
  if ((allowed as readonly string[]).includes(value)) return value as T;
  throw new ConfigError(`${flag} takes one of ${allowed.join(' | ')}, got '${value}'`);
}

/** A number strictly between 0 and 1 (`--alpha 0.05`), or a ConfigError naming the flag. */
export function fraction(flag: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const number = Number(value);
  if (value.trim() === '' || !Number.isFinite(number) || number <= 0 || number >= 1) {
    throw new ConfigError(
      `${flag} takes a number between 0 and 1 (e.g. ${flag} 0.05), got '${value}'`,
    );
  }
  return number;
}

/** What a selection flag lists: for its messages and, with `valid`, the check of each name. */
const SELECTIONS: Record<
  '--task' | '--variant' | '--suite' | '--case',
  { names: string; example: string; rule?: string; valid?: (name: string) => boolean }
> = {
  '--task': {
    names: 'task ids',
    example: 'T1,T4',
    rule: "letters, digits, '_' or '-'; several as T1,T4",
    valid: (name) => TASK_ID.test(name),
  },
  '--variant': {
    names: 'variant names',
    example: 'upgraded',
    rule: "letters, digits, '_', '-' or '.'; several as baseline,upgraded",
    valid: isVariantName,
  },
  '--suite': { names: 'suite names', example: 'refund-desk' },
  '--case': {
    names: 'case ids of dataset tasks',
    example: 'q1,q7',
    rule: "letters, digits, '_', '-' or '.'; several as q1,q7",
    valid: isCaseId,
  },
};

/**
 * A selection flag (`--task T1,T4`, `--variant`, `--suite`): undefined when absent. A flag that
 * lists nothing (`--task ""`, from an unset variable) is refused, not read as "select
 * everything", and so is a name no task or variant can have (`../x`): it could only be unknown.
 */
export function selectionFlag(
  flag: keyof typeof SELECTIONS,
  value: string | undefined,
): string[] | undefined {
  if (value === undefined) return undefined;
  const { names, example, rule, valid } = SELECTIONS[flag];
  const items = listFlag(value);
  if (!items) {
    throw new ConfigError(
      `${flag} names nothing (got '${value}'): give ${names}, e.g. ${flag} ${example}, or leave ${flag} out to select every one`,
    );
  }
  const invalid = valid && items.find((item) => !valid(item));
  if (invalid !== undefined)
    throw new ConfigError(`${flag} takes ${names} (${rule}), got '${invalid}'`);
  return items;
}

/**
 * parseArgs with its errors on one line (a flag missing its value took three), an unknown flag
 * naming the nearest known one and --help: `unknown flag --trails: did you mean --trials? (--help
 * lists the flags)`. Every CLI parses with it.
 */
export function parseCliArgs<T extends ParseArgsConfig>(
  config: T,
): ReturnType<typeof parseArgs<T>> {
  try {
    return parseArgs(config);
  } catch (error) {
    const unknown = /^Unknown option '(-{1,2}[^']*)'/.exec(errorMessage(error));
    if ((error as { code?: unknown }).code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && unknown) {
      const nearest = nearestFlag(unknown[1]!, Object.keys(config.options ?? {}));
      const hint = nearest ? `: did you mean --${nearest}?` : '';
      throw new ConfigError(`unknown flag ${unknown[1]}${hint} (--help lists the flags)`, {
        cause: error,
      });
    }
    throw new ConfigError(errorMessage(error).replace(/\s*\n\s*/g, ' '), { cause: error });
  }
}

/** The known flag a typo most likely meant: the fewest edits (a swap of neighbours is one), at most a third of its length. */
export function nearestFlag(typed: string, known: readonly string[]): string | undefined {
  const name = typed.replace(/^-+/, '').split('=')[0]!.toLowerCase();
  let best: { flag: string; distance: number } | undefined;
  for (const flag of known) {
    const distance = editDistance(name, flag.toLowerCase());
    if (distance <= Math.max(1, Math.floor(flag.length / 3)) && (!best || distance < best.distance))
      best = { flag, distance };
  }
  return best?.flag;
}

/** Optimal string alignment distance: insertions, deletions, substitutions and adjacent swaps. */
function editDistance(a: string, b: string): number {
  const rows = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        best = Math.min(best, rows[i - 2]![j - 2]! + 1);
      rows[i]![j] = best;
    }
  }
  return rows[a.length]![b.length]!;
}

/**
 * parseArgs, with its errors on one line (a flag missing its value took three), and a flag that
 * takes a value refused when given twice: parseArgs keeps the last one, silently
 * (`--task T1 --task T2` ran T2 alone). `lists` are the flags a hint shows as one list.
 */
export function parseFlags<T extends ParseArgsConfig>(
  config: T,
  lists: readonly string[] = [],
): ReturnType<typeof parseArgs<T & { tokens: true }>> {
  const parsed = parseCliArgs({ ...config, tokens: true });
  const given = new Map<string, string>();
  const options = (config.options ?? {}) as Record<string, { multiple?: boolean }>;
  for (const token of parsed.tokens ?? []) {
    if (token.kind !== 'option' || token.value === undefined) continue;
    // A flag that may be given again (`--model a=x --model b=y`) collects its values.
    if (options[token.name]?.multiple) continue;
    const first = given.get(token.name);
    if (first === undefined) {
      given.set(token.name, token.value);
      continue;
    }
    const flag = `--${token.name}`;
    const joined = lists.includes(flag) ? `, e.g. ${flag} ${first},${token.value}` : '';
    throw new ConfigError(
      `${flag} is given twice ('${first}', then '${token.value}'): give it once${joined}`,
    );
  }
  return parsed;
}

/** A flag whose value must not be empty (`--compare ""` fell back to the default report). */
export function nonEmpty(
  flag: string,
  value: string | undefined,
  what: string,
): string | undefined {
  if (value === undefined || value.trim() !== '') return value;
  throw new ConfigError(`${flag} takes ${what}, got '${value}'`);
}

/** `--case q1,q7` or `--cases N` (not both): which cases of dataset tasks a run takes. */
export function caseFlags(values: { case?: string | undefined; cases?: string | undefined }): {
  cases?: string[];
  caseSample?: number;
} {
  if (values.case !== undefined && values.cases !== undefined) {
    throw new ConfigError('give --case ID[,ID...] or --cases N, not both');
  }
  const cases = selectionFlag('--case', values.case);
  if (cases) return { cases };
  if (values.cases === undefined) return {};
  return { caseSample: positiveInteger('--cases', values.cases, 1, 100_000) };
}
