import { findCredential } from '../core/credentials.js';
import type { Cassette } from './cassette.js';

/** Values shorter than this are not treated as secrets: they would match ordinary text. */
const MIN_SECRET_LENGTH = 8;

/** A credential header name used as a JSON key anywhere in the file. */
const HEADER_PATTERN = /"(x-api-key|authorization)"\s*:/i;

export interface SecretFinding {
  /** What matched, safe to print: never the secret itself. */
  rule: string;
  /** Where, safe to print: `line 12`, or the streamed block whose assembled text holds it. */
  where: string;
}

export interface SecretScanOptions {
  secrets?: readonly string[];
  env?: NodeJS.ProcessEnv;
}

/**
 * The credentials a cassette must not hold: the given values, the current
 * ANTHROPIC_API_KEY, anything credential-shaped (`sk-ant-...`, see core/credentials.ts), and
 * credential header names.
 */
export function findSecret(
  text: string,
  options: SecretScanOptions = {},
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
      if (index >= 0) return { rule, where: `line ${lineAt(text, index)}` };
    }
  }
  const credential = findCredential(text);
  if (credential) return { rule: credential.rule, where: `line ${lineAt(text, credential.index)}` };
  const header = HEADER_PATTERN.exec(text);
  if (header) {
    return {
      rule: `the ${header[1]?.toLowerCase()} header name`,
      where: `line ${lineAt(text, header.index)}`,
    };
  }
  return undefined;
}

/**
 * Scan a cassette two ways: its bytes (`text`), and the text each streamed content block
 * assembles to, so a key split across `text_delta` events (`sk-ant-ap` + `i03-...`) is found
 * although no single event holds it.
 */
export function findCassetteSecret(
  cassette: Cassette,
  text: string,
  options: SecretScanOptions = {},
): SecretFinding | undefined {
  const inBytes = findSecret(text, options);
  if (inBytes) return inBytes;
  // A string the file spells with \u escapes (`\u0073k-ant-...`): scan it as the reader decodes it.
  if (text.includes('\\u')) {
    const decoded = findSecret(JSON.stringify(cassette), options);
    if (decoded) return { rule: decoded.rule, where: 'a string the file spells with \\u escapes' };
  }
  for (const [exchange, { response }] of cassette.exchanges.entries()) {
    if (!('events' in response)) continue;
    for (const [block, assembled] of assembleStreamText(response.events)) {
      // Tool input and arguments stream as JSON text: a key may hide behind its escapes.
      const finding =
        findSecret(assembled, options) ??
        (assembled.includes('\\') ? findSecret(decodeJsonEscapes(assembled), options) : undefined);
      if (finding) {
        return {
          rule: finding.rule,
          where: `the text streamed in exchanges[${exchange}] ${block >= CHAT_CHOICE_OFFSET ? `choice ${block - CHAT_CHOICE_OFFSET}` : `content block ${block}`}`,
        };
      }
    }
  }
  return undefined;
}

/** Chat Completions choices are keyed apart from Messages API content blocks. */
const CHAT_CHOICE_OFFSET = 1000;

/**
 * The text of each streamed block, its deltas' string fields joined: Messages API content
 * blocks (text, tool JSON, thinking) by block index, and Chat Completions choices (content,
 * tool-call arguments) by choice index, offset by 1000 so the two never share a key.
 */
export function assembleStreamText(events: ReadonlyArray<{ data: unknown }>): Map<number, string> {
  const blocks = new Map<number, string>();
  const append = (index: number, text: string) =>
    blocks.set(index, (blocks.get(index) ?? '') + text);
  for (const { data } of events) {
    const event = data as {
      type?: unknown;
      index?: unknown;
      delta?: unknown;
      choices?: unknown;
    } | null;
    if (event?.type === 'content_block_delta' && typeof event.delta === 'object') {
      const index = typeof event.index === 'number' ? event.index : -1;
      for (const [key, value] of Object.entries(event.delta ?? {})) {
        if (key !== 'type' && typeof value === 'string') append(index, value);
      }
      continue;
    }
    if (!Array.isArray(event?.choices)) continue;
    for (const choice of event.choices as Array<{ index?: unknown; delta?: unknown } | null>) {
      const delta = choice?.delta as {
        content?: unknown;
        reasoning_content?: unknown;
        tool_calls?: Array<{ function?: { arguments?: unknown } } | null>;
      } | null;
      const index = CHAT_CHOICE_OFFSET + (typeof choice?.index === 'number' ? choice.index : 0);
      for (const text of [delta?.content, delta?.reasoning_content]) {
        if (typeof text === 'string') append(index, text);
      }
      for (const call of delta?.tool_calls ?? []) {
        if (typeof call?.function?.arguments === 'string') append(index, call.function.arguments);
      }
    }
  }
  return blocks;
}

const JSON_ESCAPE = /\\(?:u([0-9a-fA-F]{4})|(["\\/bfnrt]))/g;
const SIMPLE_ESCAPES: Record<string, string> = {
  '"': '"',
  '\\': '\\',
  '/': '/',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
};

/** The text with its JSON string escapes decoded once, as a client parsing the JSON sees it. */
export function decodeJsonEscapes(text: string): string {
  return text.replace(
    JSON_ESCAPE,
    (_escape, hex: string | undefined, simple: string | undefined) =>
      hex !== undefined ? String.fromCharCode(Number.parseInt(hex, 16)) : SIMPLE_ESCAPES[simple!]!,
  );
}

function lineAt(text: string, index: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i >= 0 && i < index; i = text.indexOf('\n', i + 1)) line++;
  return line;
}
