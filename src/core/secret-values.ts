import { secretPartsOf } from './shown-url.js';

/** Shorter values would match ordinary text. */
export const MIN_SECRET_LENGTH = 8;

/** The environment variables whose values are credentials this process sends. */
const CONFIGURED_KEYS = ['ANTHROPIC_API_KEY', 'OPENAI_API_KEY', 'HARNESS_JUDGE_API_KEY'] as const;
const BASE_URLS = ['ANTHROPIC_BASE_URL', 'OPENAI_BASE_URL', 'HARNESS_JUDGE_BASE_URL'] as const;

interface SecretValue {
  /**
   * The value as it stands in a text, JSON-escaped when that differs, and both again without
   * edge whitespace (fetch trims header values: a key read with a CRLF env file's `\r` goes out
   * without it) when what is left is long enough to mask.
   */
  forms: string[];
  replacement: string;
}

/**
 * Exact values to mask, registered once when a key is taken into use (the CLI reading its
 * environment, a recording worker opening its upstream): redaction then costs one `includes`
 * per string and value, with no environment read per event.
 */
const secrets: SecretValue[] = [];

/**
 * Mask `value` wherever text is redacted from now on (traces, checkpoints, write logs, printed
 * lines), as `[redacted <name>]`. For credentials of no known shape, such as a gateway key
 * (`gw-live-...`) a server may echo back. Values shorter than 8 characters are ignored.
 *
 * @example maskSecretValue(env.ANTHROPIC_API_KEY, 'ANTHROPIC_API_KEY')
 */
export function maskSecretValue(value: string | undefined, name: string): void {
  if (value === undefined || value.length < MIN_SECRET_LENGTH) return;
  if (secrets.some((secret) => secret.forms[0] === value)) return;
  secrets.push(secretOf(value, name));
}

function secretOf(value: string, name: string): SecretValue {
  // HTTP whitespace, which is what fetch strips from a header value's edges.
  const trimmed = value.replace(/^[\t\n\r ]+|[\t\n\r ]+$/g, '');
  const values = trimmed.length >= MIN_SECRET_LENGTH ? [value, trimmed] : [value];
  const forms = values.flatMap((form) => [form, JSON.stringify(form).slice(1, -1)]);
  return { forms: [...new Set(forms)], replacement: `[redacted ${name}]` };
}

/**
 * `value` masked in `text` as `maskSecretValue` would mask it, without registering it: for a
 * key one call sends (a library caller's), which must not change what every later text masks.
 */
export function maskValue(text: string, value: string, name: string): string {
  if (value.length < MIN_SECRET_LENGTH) return text;
  return maskForms(text, secretOf(value, name));
}

/**
 * `maskSecretValue` for each API key the environment configures, and for the parts of a base
 * URL that may carry a credential (its password or user-token, query values, fragment; as
 * written and decoded): error messages quote the URL.
 */
export function maskConfiguredKeys(env: NodeJS.ProcessEnv): void {
  for (const name of CONFIGURED_KEYS) maskSecretValue(env[name], name);
  for (const name of BASE_URLS) {
    // The password, a user-token, query values and the fragment: each may be a credential.
    for (const part of secretPartsOf(env[name])) maskSecretValue(part, `${name} password`);
  }
}

/** Every registered value replaced in `text`. */
export function maskSecretValues(text: string): string {
  let masked = text;
  for (const secret of secrets) masked = maskForms(masked, secret);
  return masked;
}

function maskForms(text: string, { forms, replacement }: SecretValue): string {
  let masked = text;
  for (const form of forms) {
    // Every form has at least MIN_SECRET_LENGTH characters.
    if (masked.includes(form)) masked = masked.replaceAll(form, replacement);
  }
  return masked;
}

/** For tests: forget every registered value. */
export function forgetSecretValues(): void {
  secrets.length = 0;
}
