import { errorMessage } from '../core/errors.js';
import type { ToolDefinition, ValidationIssue } from './types.js';

/**
 * `broken`: the schema itself threw (a transform or refinement with a bug), so the arguments
 * were never judged; the call fails as the tool's fault, not the model's.
 */
export type ValidationResult =
  | { ok: true; args: Record<string, unknown> }
  | { ok: false; message: string; broken?: true };

/** Validate a call's input against the tool's zod schema; the message tells the model what to fix. */
export function validateInput(tool: ToolDefinition, input: unknown): ValidationResult {
  if (input === null || typeof input !== 'object' || Array.isArray(input)) {
    const got = input === null ? 'null' : Array.isArray(input) ? 'an array' : typeof input;
    return {
      ok: false,
      message: `${tool.name} takes an object of named arguments, got ${got}. Call it again with {"argument": value}.`,
    };
  }
  try {
    const parsed = tool.parameters.safeParse(input);
    if (parsed.success) return { ok: true, args: parsed.data as Record<string, unknown> };
    const issues = parsed.error.issues as unknown as ValidationIssue[];
    const detail =
      specificDetail(tool, issues, input) ??
      issues.map((issue) => describeIssue(issue, input)).join('; ');
    return {
      ok: false,
      message: `Invalid arguments for ${tool.name}: ${detail}. Fix the arguments and call it again.`,
    };
  } catch (error) {
    // safeParse reports issues, but lets through what a transform or refinement throws.
    return {
      ok: false,
      broken: true,
      message: `${tool.name} was not executed: checking its arguments threw an error (${errorMessage(error)}). This is a fault in the tool's schema, not a problem you can fix by changing the call: do not retry it; tell the user what you could not do.`,
    };
  }
}

/** The tool's own guidance, when its describeInvalid works and returns text. */
function specificDetail(
  tool: ToolDefinition,
  issues: readonly ValidationIssue[],
  input: unknown,
): string | undefined {
  try {
    const specific = tool.describeInvalid?.(issues, input);
    return typeof specific === 'string' ? specific : undefined;
  } catch {
    // A broken describeInvalid costs only its extra hint: the generic description is sent.
    return undefined;
  }
}

function describeIssue(issue: ValidationIssue & { keys?: string[] }, input: object): string {
  const field = issue.path.map(String).join('.');
  if (issue.code === 'unrecognized_keys' && issue.keys) {
    return `unexpected argument${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((key) => `'${key}'`).join(', ')}`;
  }
  if (issue.code === 'invalid_type' && field && !(field in input)) {
    return `missing required argument '${field}'`;
  }
  return field ? `'${field}': ${issue.message}` : issue.message;
}
