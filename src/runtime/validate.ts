import type { ToolDefinition, ValidationIssue } from './types.js';

export type ValidationResult =
  | { ok: true; args: Record<string, unknown> }
  | { ok: false; message: string };

/** Validate a call's input against the tool's zod schema; the message tells the model what to fix. */
export function validateInput(tool: ToolDefinition, input: unknown): ValidationResult {
  if (input === null || typeof input !== 'object' || Array.isArray(input)) {
    const got = input === null ? 'null' : Array.isArray(input) ? 'an array' : typeof input;
    return {
      ok: false,
      message: `${tool.name} takes an object of named arguments, got ${got}. Call it again with {"argument": value}.`,
    };
  }
  const parsed = tool.parameters.safeParse(input);
  if (parsed.success) return { ok: true, args: parsed.data as Record<string, unknown> };
  const issues = parsed.error.issues as unknown as ValidationIssue[];
  const specific = tool.describeInvalid?.(issues, input);
  const detail = specific ?? issues.map((issue) => describeIssue(issue, input)).join('; ');
  return {
    ok: false,
    message: `Invalid arguments for ${tool.name}: ${detail}. Fix the arguments and call it again.`,
  };
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
