import picomatch from 'picomatch';
import { canonicalJson } from '../core/canonical-json.js';
import { ConfigError, errorMessage } from '../core/errors.js';
import type { PermissionDecision, PermissionEffect, PermissionRule, RunState } from './types.js';

/** Decides allow / ask / deny for one tool call; built once from validated rules. */
export interface PermissionPolicy {
  readonly rules: readonly PermissionRule[];
  decide(toolName: string, input: Record<string, unknown>, run: RunState): PermissionDecision;
}

type Operator = '>' | '>=' | '<' | '<=' | '=' | '!=' | '~';

interface Condition {
  path: string[];
  operator: Operator;
  value: string;
  number: number | undefined;
  glob: ((text: string) => boolean) | undefined;
}

interface CompiledRule {
  rule: PermissionRule;
  matchesTool: (name: string) => boolean;
  conditions: Condition[];
}

/** A problem in one rule; the caller adds which rule it is. */
class RuleProblem extends Error {}

const EFFECTS: readonly PermissionEffect[] = ['deny', 'ask', 'allow'];
const WHEN_HELP =
  'write conditions as `field OP value` joined by && (OP is one of > >= < <= = != ~), e.g. amount>1000 && order_id=ORD5*';
// strictBrackets + debug make picomatch throw on a broken glob instead of silently matching nothing.
const GLOB_OPTIONS = { strictBrackets: true, debug: true } as const;
// In argument values `*` should also cross `/` (URLs, paths): bash-style stars.
const VALUE_GLOB_OPTIONS = { ...GLOB_OPTIONS, bash: true, dot: true } as const;
const CONDITION_HEAD = /^\s*([\w-]+(?:\.[\w-]+)*)\s*(>=|<=|!=|>|<|=|~)\s*/;
const NUMBER = /^[-+]?(?:\d+\.?\d*|\.\d+)(?:e[-+]?\d+)?$/i;

/**
 * Build a permission policy. Rules are checked now, so a typo fails at load time, not mid-run.
 * Order: every deny rule, then ask, then allow; the first match in a group wins and
 * specificity never reorders. No match means ask.
 *
 * @example
 * const policy = createPermissionPolicy([
 *   parseRule('resubmit_refund(amount>1000)', 'deny'),
 *   { effect: 'ask', tool: 'resubmit_refund' },
 *   { effect: 'allow', tool: 'get_*' },
 * ]);
 * policy.decide('resubmit_refund', { order_id: 'ORD1001', amount: 5000 }, run).effect; // 'deny'
 */
export function createPermissionPolicy(rules: readonly PermissionRule[]): PermissionPolicy {
  const compiled = rules.map((rule, index) => {
    try {
      return compileRule(rule);
    } catch (error) {
      throw new ConfigError(
        `permissions[${index}] "${describeRule(rule)}" is invalid: ${errorMessage(error)}`,
        {
          cause: error,
        },
      );
    }
  });
  const groups = EFFECTS.map((effect) => compiled.filter((entry) => entry.rule.effect === effect));

  return {
    rules: [...rules],
    decide(toolName, input, run) {
      for (const group of groups) {
        for (const entry of group) {
          const verdict = evaluate(entry, toolName, input, run);
          if (verdict === false) continue;
          const { rule } = entry;
          const reason =
            verdict === true
              ? (rule.reason ?? defaultReason(rule))
              : `${defaultReason(rule)}: its condition threw (${errorMessage(verdict)}), so the rule applies to be safe`;
          return { effect: rule.effect, rule, reason };
        }
      }
      return {
        effect: 'ask',
        rule: undefined,
        reason: `no permission rule matches ${toolName}; it needs a human's approval`,
      };
    },
  };
}

/**
 * A rule from its string form: `tool` or `tool(condition && condition)`.
 *
 * @example
 * parseRule('resubmit_refund(amount>1000)', 'deny'); // { effect: 'deny', tool: 'resubmit_refund', when: 'amount>1000' }
 */
export function parseRule(text: string, effect: PermissionEffect, reason?: string): PermissionRule {
  const match = /^([^\s()]+)(?:\((.*)\))?$/s.exec(text.trim());
  const fail = (problem: string) =>
    new ConfigError(`permission rule "${text}" is invalid: ${problem}`);
  if (!match) {
    throw fail('write it as `tool` or `tool(condition)`, e.g. resubmit_refund(amount>1000)');
  }
  const [, tool = '', when] = match;
  if (when !== undefined && when.trim() === '') {
    throw fail('the parentheses are empty; drop them or put a condition inside, e.g. amount>1000');
  }
  const rule: PermissionRule = {
    effect,
    tool,
    ...(when !== undefined && { when }),
    ...(reason !== undefined && { reason }),
  };
  try {
    compileRule(rule);
  } catch (error) {
    throw new ConfigError(`permission rule "${text}" is invalid: ${errorMessage(error)}`, {
      cause: error,
    });
  }
  return rule;
}

/** A rule as one line of text for messages and traces: `deny resubmit_refund(amount>1000)`. */
export function describeRule(rule: PermissionRule): string {
  const head = `${String(rule?.effect)} ${String(rule?.tool)}`;
  const when = rule?.when;
  if (typeof when === 'string') return `${head}(${when})`;
  if (typeof when === 'function') return `${head}(<${when.name || 'predicate'}>)`;
  return head;
}

function defaultReason(rule: PermissionRule): string {
  const text = describeRule(rule);
  if (rule.effect === 'deny') return `denied by rule ${text}`;
  if (rule.effect === 'ask') return `approval required by rule ${text}`;
  return `allowed by rule ${text}`;
}

/** true / false, or the error a predicate threw (a broken deny or ask rule still applies: fail closed). */
function evaluate(
  entry: CompiledRule,
  toolName: string,
  input: Record<string, unknown>,
  run: RunState,
): boolean | Error {
  if (!entry.matchesTool(toolName)) return false;
  const { when } = entry.rule;
  if (typeof when === 'function') {
    try {
      return when(input, run) === true;
    } catch (error) {
      return entry.rule.effect === 'allow' ? false : new Error(errorMessage(error));
    }
  }
  return entry.conditions.every((condition) => holds(condition, input));
}

function compileRule(rule: PermissionRule): CompiledRule {
  if (rule === null || typeof rule !== 'object') {
    throw new RuleProblem('it is not a rule object; write { effect, tool, when?, reason? }');
  }
  if (!EFFECTS.includes(rule.effect)) {
    throw new RuleProblem(`unknown effect '${String(rule.effect)}'; use allow, ask or deny`);
  }
  if (typeof rule.tool !== 'string' || rule.tool.trim() === '') {
    throw new RuleProblem(
      "the tool glob is empty; name a tool or a glob such as 'get_*' ('*' for every tool)",
    );
  }
  if (rule.reason !== undefined && typeof rule.reason !== 'string') {
    throw new RuleProblem('reason must be text; it is shown to the model when the rule decides');
  }
  let matchesTool: (name: string) => boolean;
  try {
    matchesTool = picomatch(rule.tool, GLOB_OPTIONS);
  } catch (error) {
    throw new RuleProblem(
      `the tool glob '${rule.tool}' does not parse (${errorMessage(error)}); fix the glob`,
    );
  }
  const { when } = rule;
  if (when === undefined || typeof when === 'function')
    return { rule, matchesTool, conditions: [] };
  if (typeof when !== 'string') {
    throw new RuleProblem('when must be a condition string or a function (input, run) => boolean');
  }
  return { rule, matchesTool, conditions: parseWhen(when) };
}

/** `field OP value && ...`. A quoted value is kept exactly; see the checks below for the rest. */
function parseWhen(text: string): Condition[] {
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
  const number = NUMBER.test(value.trim()) ? Number(value) : undefined;
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

function holds(condition: Condition, input: Record<string, unknown>): boolean {
  const actual = lookup(input, condition.path);
  // A missing field never matches, not even `!=`: the rule cannot know what was meant.
  if (actual === undefined || actual === null) return false;
  const { operator, number } = condition;
  const actualNumber = toNumber(actual);
  switch (operator) {
    case '>':
      return actualNumber !== undefined && actualNumber > number!;
    case '>=':
      return actualNumber !== undefined && actualNumber >= number!;
    case '<':
      return actualNumber !== undefined && actualNumber < number!;
    case '<=':
      return actualNumber !== undefined && actualNumber <= number!;
    case '=':
    case '!=': {
      if (typeof actual === 'object') return false;
      const equal =
        number !== undefined && actualNumber !== undefined
          ? actualNumber === number
          : condition.glob!(String(actual));
      return operator === '=' ? equal : !equal;
    }
    case '~': {
      const haystack = typeof actual === 'object' ? canonicalJson(actual) : String(actual);
      return haystack.toLowerCase().includes(condition.value.toLowerCase());
    }
  }
}

function lookup(input: unknown, path: readonly string[]): unknown {
  let current = input;
  for (const key of path) {
    if (current === null || typeof current !== 'object') return undefined;
    if (!Object.hasOwn(current, key)) return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

function toNumber(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value === 'string' && NUMBER.test(value.trim())) return Number(value);
  return undefined;
}
