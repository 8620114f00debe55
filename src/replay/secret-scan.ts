/** Values shorter than this are not treated as secrets: they would match ordinary text. */
const MIN_SECRET_LENGTH = 8;

const KEY_PATTERN = /sk-ant-[A-Za-z0-9_-]{8,}/;
/** A credential header name used as a JSON key anywhere in the file. */
const HEADER_PATTERN = /"(x-api-key|authorization)"\s*:/i;

export interface SecretFinding {
  /** What matched, safe to print: never the secret itself. */
  rule: string;
  /** 1-based line in the scanned text. */
  line: number;
}

/**
 * The credentials a cassette write must refuse: the given values, the current
 * ANTHROPIC_API_KEY, anything shaped like an Anthropic key, and credential header names.
 */
export function findSecret(
  text: string,
  options: { secrets?: readonly string[]; env?: NodeJS.ProcessEnv } = {},
): SecretFinding | undefined {
  const env = options.env ?? process.env;
  const values: Array<{ rule: string; value: string }> = (options.secrets ?? []).map(
    (value, index) => ({ rule: `secret #${index + 1} passed to the writer`, value }),
  );
  const apiKey = env.ANTHROPIC_API_KEY;
  if (apiKey) values.push({ rule: 'the ANTHROPIC_API_KEY value', value: apiKey });

  for (const { rule, value } of values) {
    if (value.length < MIN_SECRET_LENGTH) continue;
    // The value may sit in the file raw or JSON-escaped.
    for (const form of new Set([value, JSON.stringify(value).slice(1, -1)])) {
      const index = text.indexOf(form);
      if (index >= 0) return { rule, line: lineAt(text, index) };
    }
  }
  const key = KEY_PATTERN.exec(text);
  if (key) return { rule: 'an sk-ant- API key', line: lineAt(text, key.index) };
  const header = HEADER_PATTERN.exec(text);
  if (header) {
    return {
      rule: `the ${header[1]?.toLowerCase()} header name`,
      line: lineAt(text, header.index),
    };
  }
  return undefined;
}

function lineAt(text: string, index: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i >= 0 && i < index; i = text.indexOf('\n', i + 1)) line++;
  return line;
}
