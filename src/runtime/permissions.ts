import picomatch from 'picomatch';
import { ConfigError, errorMessage } from '../core/errors.js';
import { valueKind } from '../core/value-kind.js';
import {
  type Condition,
  GLOB_OPTIONS,
  holds,
  parseWhen,
  RuleProblem,
} from './permission-conditions.js';
import type { PermissionDecision, PermissionEffect, PermissionRule, RunState } from './types.js';

/** Decides allow / ask / deny for one tool call; built once from validated rules. */
export interface PermissionPolicy {
  readonly rules: readonly PermissionRule[];
  decide(toolName: string, input: Record<string, unknown>, run: RunState): PermissionDecision;
}

interface CompiledRule {
  rule: PermissionRule;
  matchesTool: (name: string) => boolean;
  conditions: Condition[];
}

const EFFECTS: readonly PermissionEffect[] = ['deny', 'ask', 'allow'];
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
              : `${defaultReason(rule)}: its condition failed (${errorMessage(verdict)}), so the rule applies to be safe`;
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
    let result: unknown;
    try {
      result = when(input, run);
    } catch (error) {
      return entry.rule.effect === 'allow' ? false : new Error(errorMessage(error));
    }
    if (typeof result === 'boolean') return result;
    // Evals run untyped: an async predicate or `a || b.length` must not make a deny rule fail open.
    return entry.rule.effect === 'allow' ? false : new Error(notBoolean(result));
  }
  // Deny and ask rules fail closed on a number they cannot read; allow rules never allow on one.
  const failClosed = entry.rule.effect !== 'allow';
  return entry.conditions.every((condition) => holds(condition, input, failClosed));
}

function notBoolean(result: unknown): string {
  let what = valueKind(result);
  if (result instanceof Promise) {
    what = 'a promise (it is async; decide synchronously)';
    // Its outcome is ignored: a rejection is not an unhandled error of the run.
    result.catch(() => {});
  }
  return `the predicate returned ${what}; it must return true or false`;
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
    matchesTool = toolGlob(rule.tool);
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

/** Compiled tool globs by pattern: a harness per trial would otherwise recompile the same few. */
const toolGlobs = new Map<string, (name: string) => boolean>();

function toolGlob(pattern: string): (name: string) => boolean {
  let matcher = toolGlobs.get(pattern);
  if (!matcher) {
    matcher = picomatch(pattern, GLOB_OPTIONS);
    toolGlobs.set(pattern, matcher);
  }
  return matcher;
}
