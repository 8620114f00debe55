import { findCredential } from '../core/credentials.js';
import { foldChatStream } from '../model-api/chat-stream.js';
import { foldMessagesStream } from '../model-api/messages-stream.js';
import { foldResponsesStream } from '../model-api/responses-stream.js';
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
  const plain = findPlainSecret(text, options);
  if (plain) return plain;
  // Encoded once more, or twice (base64 of a URL-encoded key): the same scan on the decoding.
  for (const form of decodedForms(text)) {
    let finding = findPlainSecret(form.text, options);
    for (const inner of finding ? [] : decodedForms(form.text)) {
      finding ??= findPlainSecret(inner.text, options);
    }
    if (finding) {
      return { rule: `${finding.rule} (${form.how})`, where: `line ${lineAt(text, form.index)}` };
    }
  }
  return undefined;
}

/** The scan of one text as it stands: the values, the credential shapes, the header names. */
function findPlainSecret(text: string, options: SecretScanOptions): SecretFinding | undefined {
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
 * Scan a cassette two ways: its bytes (`text`), and the text each streamed content block (Chat
 * Completions choice, Responses output item) adds up to in the stream folds (model-api), so a key split across
 * `text_delta` events (`sk-ant-ap` + `i03-...`) is found although no single event holds it.
 */
export function findCassetteSecret(
  cassette: Pick<Cassette, 'exchanges'>,
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
  for (const [exchange, { request, response }] of cassette.exchanges.entries()) {
    if (!('events' in response)) continue;
    // Every API's fold, whatever the path: a cassette edited by hand may put anything anywhere.
    // The request's own API first, so a finding is named as its reader would name the place.
    const folds = [foldMessagesStream, foldChatStream, foldResponsesStream];
    const own = request.path.endsWith('/responses')
      ? 2
      : request.path.endsWith('/chat/completions')
        ? 1
        : 0;
    const streamed = [folds[own]!, ...folds.filter((_, index) => index !== own)].flatMap((fold) => [
      ...fold(response.events).streamedText,
    ]);
    for (const [where, assembled] of streamed) {
      // Tool input and arguments stream as JSON text: a key may hide behind its escapes.
      const finding =
        findSecret(assembled, options) ??
        (assembled.includes('\\') ? findSecret(decodeJsonEscapes(assembled), options) : undefined);
      if (finding) {
        return {
          rule: finding.rule,
          where: `the text streamed in exchanges[${exchange}] ${where}`,
        };
      }
    }
  }
  return undefined;
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

/** A base64 run long enough to hold a key (`sk-ant-api03-` and 8 more is 28 characters encoded). */
const BASE64_RUN = /[A-Za-z0-9+/_-]{24,}={0,2}/g;
const PERCENT_RUN = /(?:%[0-9A-Fa-f]{2})+/g;

/**
 * The text as a reader might decode it once: percent-decoded (a URL-encoded key), and each run of
 * base64 (standard or URL-safe, at each of its four alignments, so a key after one to three
 * other characters is found) decoded where it reads as text.
 */
function decodedForms(text: string): Array<{ text: string; how: string; index: number }> {
  const forms: Array<{ text: string; how: string; index: number }> = [];
  const percent = text.search(PERCENT_RUN);
  if (percent >= 0) {
    const decoded = text.replace(PERCENT_RUN, (run) => {
      try {
        return decodeURIComponent(run);
      } catch {
        return Buffer.from(run.replaceAll('%', ''), 'hex').toString('latin1');
      }
    });
    forms.push({ text: decoded, how: 'URL-encoded', index: percent });
  }
  for (const run of text.matchAll(BASE64_RUN)) {
    for (let offset = 0; offset < 4; offset++) {
      const decoded = Buffer.from(run[0].slice(offset), 'base64').toString('latin1');
      if (readsAsText(decoded)) forms.push({ text: decoded, how: 'base64', index: run.index });
    }
  }
  return forms;
}

/** Mostly printable ASCII: base64 of a text, not of an image or random bytes. */
function readsAsText(decoded: string): boolean {
  if (decoded.length < 12) return false;
  let printable = 0;
  for (let index = 0; index < decoded.length; index++) {
    const code = decoded.charCodeAt(index);
    if ((code >= 32 && code < 127) || code === 9 || code === 10 || code === 13) printable++;
  }
  return printable >= decoded.length * 0.9;
}

function lineAt(text: string, index: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i >= 0 && i < index; i = text.indexOf('\n', i + 1)) line++;
  return line;
}
