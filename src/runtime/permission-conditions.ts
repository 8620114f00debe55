/** The `when` shorthand of permission rules: `field OP value && ...`, parsed once, checked per call. */
import picomatch from 'picomatch';
import { canonicalJson } from '../core/canonical-json.js';
import { errorMessage } from '../core/errors.js';

/** A problem in one rule; the caller adds which rule it is. */
export class RuleProblem extends Error {}

export type Operator = '>' | '>=' | '<' | '<=' | '=' | '!=' | '~';

export interface Condition {
  path: string[];
  operator: Operator;
  value: string;
  number: number | undefined;
  glob: ((text: string) => boolean) | undefined;
}

const WHEN_HELP =
  'write conditions as `field OP value` joined by && (OP is one of > >= < <= = != ~), e.g. amount>1000 && order_id=ORD5*';
// strictBrackets + debug make picomatch throw on a broken glob instead of silently matching nothing.
export const GLOB_OPTIONS = { strictBrackets: true, debug: true } as const;
// In argument values `*` should also cross `/` (URLs, paths): bash-style stars.
const VALUE_GLOB_OPTIONS = { ...GLOB_OPTIONS, bash: true, dot: true } as const;
const CONDITION_HEAD = /^\s*([\w-]+(?:\.[\w-]+)*)\s*(>=|<=|!=|>|<|=|~)\s*/;
const NUMBER = /^[-+]?(?:\d+\.?\d*|\.\d+)(?:e[-+]?\d+)?$/i;

/** `field OP value && ...`. A quoted value is kept exactly; see the checks below for the rest. */
export function parseWhen(text: string): Condition[] {
  const conditions: Condition[] = [];
  let rest = text;
  while (true) {
    const head = CONDITION_HEAD.exec(rest);
    if (!head)
      throw new RuleProblem(`cannot read condition '${rest.trim()}' in '${text}'; ${WHEN_HELP}`);
    const field = head[1]!;
    const operator = head[2] as Operator;
    rest = rest.slice(head[0].length);

    let value: string;
    let quoted = false;
    const quote = rest[0];
    if (quote === '"' || quote === "'") {
      const end = rest.indexOf(quote, 1);
      if (end < 0)
        throw new RuleProblem(`the value of '${field}' opens a ${quote} but never closes it`);
      value = rest.slice(1, end);
      quoted = true;
      rest = rest.slice(end + 1);
      if (!/^\s*(&&|$)/.test(rest)) {
        throw new RuleProblem(
          `unexpected '${rest.trim()}' after the quoted value of '${field}'; ${WHEN_HELP}`,
        );
      }
    } else {
      const and = rest.indexOf('&&');
      value = and < 0 ? rest : rest.slice(0, and);
      rest = and < 0 ? '' : rest.slice(and);
      // Whitespace before && belongs to the separator. A trailing space at the very end is kept
      // for `~` because it is meaningful there: `command~drop ` must not match `dropdown`.
      value = operator === '~' && rest === '' ? value : value.trimEnd();
    }
    conditions.push(compileCondition(field, operator, value, quoted));

    const next = /^\s*&&/.exec(rest);
    if (!next) return conditions;
    rest = rest.slice(next[0].length);
    if (rest.trim() === '')
      throw new RuleProblem(`'${text}' ends with &&; add a condition after it or remove it`);
  }
}

function compileCondition(
  field: string,
  operator: Operator,
  value: string,
  quoted: boolean,
): Condition {
  if (!quoted && value === '') {
    throw new RuleProblem(`'${field}${operator}' has no value; ${WHEN_HELP}`);
  }
  if (!quoted && value.includes('||')) {
    throw new RuleProblem(`only && is supported, not ||; write one rule per alternative`);
  }
  if (!quoted && (operator === '=' || operator === '!=') && value.startsWith('=')) {
    throw new RuleProblem(
      `'${field}${operator}=' is not an operator; use a single '=' for equality`,
    );
  }
  const parsed = NUMBER.test(value.trim()) ? Number(value) : undefined;
  const number = parsed !== undefined && Number.isFinite(parsed) ? parsed : undefined;
  if (['>', '>=', '<', '<='].includes(operator) && number === undefined) {
    throw new RuleProblem(
      `'${field}${operator}${value}' compares numbers but '${value}' is not a number`,
    );
  }
  let glob: ((text: string) => boolean) | undefined;
  if (operator === '=' || operator === '!=') {
    try {
      glob = picomatch(value, VALUE_GLOB_OPTIONS);
    } catch (error) {
      throw new RuleProblem(
        `the glob '${value}' for '${field}' does not parse (${errorMessage(error)}); fix or quote it`,
      );
    }
  }
  return { path: field.split('.'), operator, value, number, glob };
}

/**
 * Whether the condition holds for the input. `failClosed` (deny and ask rules): a value that a
 * number comparison cannot read as a finite number (`1e400`, `[5000]`, `"5,000"`, `"0x1388"`,
 * full-width digits) makes the comparison hold, so the rule applies; for allow rules it does not.
 */
export function holds(
  condition: Condition,
  input: Record<string, unknown>,
  failClosed = false,
): boolean {
  const [first = '', ...rest] = condition.path;
  // A missing first field never matches, not even `!=`: the rule (maybe for every tool) cannot
  // know what was meant. Past it, what the path cannot follow makes a deny or ask rule apply.
  if (!Object.hasOwn(input, first)) return false;
  const top = input[first];
  if (top === undefined || top === null) return false;
  const actual = follow(top, rest);
  if (unreadable(actual)) return failClosed;
  const { operator, number } = condition;
  const actualNumber = toNumber(actual);
  switch (operator) {
    case '>':
      return actualNumber === undefined ? failClosed : actualNumber > number!;
    case '>=':
      return actualNumber === undefined ? failClosed : actualNumber >= number!;
    case '<':
      return actualNumber === undefined ? failClosed : actualNumber < number!;
    case '<=':
      return actualNumber === undefined ? failClosed : actualNumber <= number!;
    case '=':
    case '!=':
      return equalityHolds(condition, actual, failClosed);
    case '~': {
      const haystack = typeof actual === 'object' ? canonicalJson(actual) : String(actual);
      return haystack.toLowerCase().includes(condition.value.toLowerCase());
    }
  }
}

/**
 * `=` / `!=` on a value. A list is judged item by item, the way its rule's effect needs: a deny
 * or ask rule (`failClosed`) applies when any item makes it hold (`to!=*@corp.test` stops
 * `["a@corp.test", "m@evil.test"]`), an allow rule only when every item does. What cannot be
 * compared as text (an object, an empty list, a null item) makes a deny or ask rule apply and an
 * allow rule not.
 */
function equalityHolds(condition: Condition, actual: unknown, failClosed: boolean): boolean {
  if (Array.isArray(actual)) {
    if (actual.length === 0) return failClosed;
    const item = (value: unknown) =>
      value === null || value === undefined
        ? failClosed
        : equalityHolds(condition, value, failClosed);
    return failClosed ? actual.some(item) : actual.every(item);
  }
  if (typeof actual === 'object') return failClosed;
  const actualNumber = toNumber(actual);
  const equal =
    condition.number !== undefined && actualNumber !== undefined
      ? actualNumber === condition.number
      : condition.glob!(String(actual));
  return condition.operator === '=' ? equal : !equal;
}

/** A value the path could not reach: a missing field, null, or a field of a non-object. */
const UNREADABLE: unique symbol = Symbol('unreadable');

/**
 * The value at `path` below `value`. Through a list, the list of what each item holds (nested
 * lists stay nested), so `payees.account` reads every payee's account; UNREADABLE where the
 * path stops.
 */
function follow(value: unknown, path: readonly string[]): unknown {
  if (path.length === 0) return value === null || value === undefined ? UNREADABLE : value;
  if (Array.isArray(value)) return value.map((item) => follow(item, path));
  const [key = '', ...rest] = path;
  if (value === null || typeof value !== 'object' || !Object.hasOwn(value, key)) return UNREADABLE;
  return follow((value as Record<string, unknown>)[key], rest);
}

/** The value, or an item of it at any depth, could not be reached. */
const unreadable = (value: unknown): boolean =>
  value === UNREADABLE || (Array.isArray(value) && value.some(unreadable));

/** A finite JSON number, or a string of ASCII decimal digits (`-12.5`, `1e3`); nothing else. */
function toNumber(value: unknown): number | undefined {
  const number =
    typeof value === 'number'
      ? value
      : typeof value === 'string' && NUMBER.test(value.trim())
        ? Number(value)
        : undefined;
  return number !== undefined && Number.isFinite(number) ? number : undefined;
}
