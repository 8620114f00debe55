/** A credential shape: what it is called in messages, how it is found, what replaces it. */
export interface CredentialRule {
  rule: string;
  pattern: RegExp;
  /** Kept in front of `[redacted]`, so a reader still sees what kind of value stood there. */
  label: string;
}

/**
 * Credential-shaped strings. Patterns are global: reset `lastIndex` or use `String#replace` /
 * `RegExp#exec` from a fresh `lastIndex = 0`.
 */
export const CREDENTIAL_RULES: readonly CredentialRule[] = [
  { rule: 'an sk-ant- API key', pattern: /sk-ant-[A-Za-z0-9_-]{8,}/g, label: 'sk-ant-' },
  { rule: 'an sk- secret key', pattern: /\bsk-[A-Za-z0-9_-]{20,}/g, label: 'sk-' },
  { rule: 'a bearer token', pattern: /\bBearer\s+[A-Za-z0-9._~+/=-]{16,}/g, label: 'Bearer ' },
  { rule: 'a GitHub token', pattern: /\bgh[pousr]_[A-Za-z0-9]{30,}/g, label: 'gh_' },
  {
    rule: 'a GitHub fine-grained token',
    pattern: /\bgithub_pat_[A-Za-z0-9_]{30,}/g,
    label: 'github_pat_',
  },
  { rule: 'an AWS access key id', pattern: /\bAKIA[0-9A-Z]{16}\b/g, label: 'AKIA' },
  {
    rule: 'an AWS temporary or role key id',
    pattern: /\b(?:ASIA|ABIA|ACCA|AGPA|AIDA|AIPA|ANPA|ANVA|APKA|AROA|ASCA)[0-9A-Z]{16}\b/g,
    label: 'AWS ',
  },
  {
    rule: 'an AWS secret access key',
    pattern: /\baws_?secret_?access_?key\W{0,4}[A-Za-z0-9/+]{40}(?![A-Za-z0-9/+])/gi,
    label: 'aws_secret_access_key=',
  },
  { rule: 'a Slack token', pattern: /\bxox[abposr]-[A-Za-z0-9-]{10,}/g, label: 'xox-' },
  { rule: 'a Slack app token', pattern: /\bxapp-\d-[A-Za-z0-9-]{10,}/g, label: 'xapp-' },
  {
    rule: 'a Slack webhook URL',
    pattern: /hooks\.slack\.com\/services\/[A-Za-z0-9_/-]{20,}/g,
    label: 'hooks.slack.com/services/',
  },
  { rule: 'a Google API key', pattern: /\bAIza[0-9A-Za-z_-]{35}/g, label: 'AIza' },
  { rule: 'a Stripe live key', pattern: /\b[rs]k_live_[0-9A-Za-z]{20,}/g, label: 'sk_live_' },
  {
    rule: 'a PEM private key',
    // The whole block when it ends, else the header: a body without it is just base64.
    pattern:
      /-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----(?:[^-]{0,20000}?-----END [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----)?/g,
    label: 'PEM private key ',
  },
];

/** Header (and JSON key) names whose values are credentials, lowercase. */
export const SECRET_HEADER_NAMES: ReadonlySet<string> = new Set([
  'authorization',
  'proxy-authorization',
  'x-api-key',
  'api-key',
  'x-auth-token',
  'cookie',
  'set-cookie',
]);

/** `x-api-key: value`, `"authorization":"value"` and the like inside a text. */
const SECRET_HEADER_IN_TEXT =
  /\b(authorization|proxy-authorization|x-api-key|api-key|x-auth-token|cookie|set-cookie)("?\s*[:=]\s*"?)(?!\[redacted\])(?:Bearer\s+|Basic\s+)?[^\s",;}]+/gi;

export const REDACTED = '[redacted]';

/** The first credential-shaped string in a text: its rule and index, never the value. */
export function findCredential(text: string): { rule: string; index: number } | undefined {
  let first: { rule: string; index: number } | undefined;
  for (const { rule, pattern } of CREDENTIAL_RULES) {
    pattern.lastIndex = 0;
    const match = pattern.exec(text);
    if (match && (first === undefined || match.index < first.index)) {
      first = { rule, index: match.index };
    }
  }
  return first;
}

/** Replace credential-shaped strings in a text: `sk-ant-api03-...` -> `sk-ant-[redacted]`. */
export function maskCredentials(text: string): string {
  let masked = text;
  for (const { pattern, label } of CREDENTIAL_RULES) {
    masked = masked.replace(pattern, `${label}${REDACTED}`);
  }
  return masked;
}

/**
 * Replace the value after a secret header name in printed text (`x-api-key: abc` ->
 * `x-api-key: [redacted]`). For what people read (diffs, reports), not for a run's state:
 * source code such as `headers.authorization = token` would be rewritten too.
 */
export function maskSecretHeaderValues(text: string): string {
  return text.replace(SECRET_HEADER_IN_TEXT, `$1$2${REDACTED}`);
}
