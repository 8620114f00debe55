import path from 'node:path';
import type { z } from 'zod';
import { writeFileAtomic } from '../core/atomic-write.js';
import { canonicalize } from '../core/canonical-json.js';
import { errorMessage, FixtureError, SecretLeakError } from '../core/errors.js';
import { pathDeeperThan } from '../core/json-depth.js';
import { jsonTextProblem } from '../core/json-text.js';
import { describeZodIssues } from '../core/parse.js';
import { NotRegularFileError, readRegularFileSync } from '../core/regular-file.js';
import { escapeForTerminal } from '../core/terminal-text.js';
import {
  type Cassette,
  CassetteSchema,
  type Exchange,
  RECORDED_REQUEST_HEADERS,
  RECORDED_RESPONSE_HEADERS,
} from './cassette.js';
import { CONTENT_HASH, contentHashOf, rememberReadHash } from './cassette-hash.js';
import { findCassetteSecret } from './secret-scan.js';

/**
 * A cassette file's text and its JSON, before any schema: the part every cassette kind shares
 * (a trial's, a judge's). Missing is `fixture_missing`; not a regular file, unreadable, bad JSON
 * or nested deeper than MAX_CASSETTE_DEPTH is `fixture_corrupt`, naming the file.
 */
export function readCassetteJson(file: string): { text: string; data: unknown } {
  const shown = displayPath(file);
  let text: string;
  try {
    // One sync read: a cassette is small, and the promise API costs four round trips per file.
    // Only a regular file: a FIFO or a link to a device would block the eval worker for good.
    text = readRegularFileSync(file).toString('utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      throw new FixtureError('fixture_missing', `${shown} is missing`, { cause: error });
    }
    if (error instanceof NotRegularFileError) {
      throw new FixtureError(
        'fixture_corrupt',
        `${shown} is ${error.kind}, not a regular file, so it is not read: restore the recorded cassette (git checkout) or re-record the trial`,
        { cause: error },
      );
    }
    throw new FixtureError('fixture_corrupt', `${shown}: ${errorMessage(error)}`, { cause: error });
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    const message = `${shown}: invalid JSON: ${errorMessage(error)}`;
    throw new FixtureError('fixture_corrupt', message, { cause: error });
  }
  // Text JSON.parse reads as something else (1e400 as null, a key twice as its last value): the
  // hash is taken of what was read, so what a reviewer reads in the diff must be that.
  const misread = jsonTextProblem(text);
  if (misread) {
    throw new FixtureError(
      'fixture_corrupt',
      `${shown}: ${misread}: restore the recorded cassette (git checkout) or re-record the trial`,
    );
  }
  const tooDeep = pathDeeperThan(data, MAX_CASSETTE_DEPTH);
  if (tooDeep) {
    throw new FixtureError(
      'fixture_corrupt',
      `${shown}: ${describeDeepPath(tooDeep)} nests deeper than ${MAX_CASSETTE_DEPTH} levels (a recorded cassette has a few dozen): restore the recorded cassette (git checkout) or re-record the trial`,
    );
  }
  return { text, data };
}

/**
 * A kind of cassette file, sealed by a content hash over everything it holds but the hash:
 * a trial's (`trial-<n>.json`), a judge's (`trial-<n>.judge.json`). One reader, one writer.
 */
export interface CassetteKind<T extends Record<string, unknown>> {
  schema: z.ZodType<T>;
  /** Its fields in file order; `contentHash` is written after the first `head` of them. */
  fields: ReadonlyArray<keyof T & string>;
  head: number;
  /** The exchanges inside, which the secret scan assembles (streamed text). */
  exchanges(content: T): readonly Exchange[];
  /** What the fix re-records: `the trial`, `the judge`. */
  rerecords: string;
}

const TRIAL_CASSETTE: CassetteKind<Cassette> = {
  schema: CassetteSchema,
  fields: ['version', 'meta', 'exchanges'],
  head: 1,
  exchanges: (cassette) => cassette.exchanges,
  rerecords: 'the trial',
};

/**
 * Read and validate a cassette file of any kind. A missing file is `fixture_missing`; bad JSON,
 * a value nested deeper than MAX_CASSETTE_DEPTH, a wrong version or a bad field is
 * `fixture_corrupt`, naming the file and the field; a credential inside (in its bytes or in a
 * streamed text) is `fixture_secret`; content that no longer matches its `contentHash` (or no
 * hash) is `fixture_edited`. Returns the content and its hash.
 */
export function readCassetteFile<T extends Record<string, unknown>>(
  file: string,
  kind: CassetteKind<T>,
): { content: T; hash: string } {
  const shown = displayPath(file);
  const { text, data } = readCassetteJson(file);
  const object = data !== null && typeof data === 'object' && !Array.isArray(data);
  const { contentHash, ...rest } = (object ? data : {}) as Record<string, unknown>;
  const result = kind.schema.safeParse(object ? rest : data);
  if (!result.success) {
    const issues = describeZodIssues(flattenIssues(result.error.issues));
    throw new FixtureError('fixture_corrupt', `${shown}: ${issues}`);
  }
  // Scanned on read too: a cassette edited or committed by hand is never replayed as a pass.
  const finding = findCassetteSecret({ exchanges: [...kind.exchanges(result.data)] }, text);
  if (finding) {
    throw new FixtureError(
      'fixture_secret',
      `${shown}: ${finding.where} contains ${finding.rule}, so it is not replayed. Delete the file (revoke the key if it is real) and re-record ${kind.rerecords}`,
    );
  }
  const hash = hashOf(result.data, kind);
  if (contentHash !== hash)
    throw new FixtureError('fixture_edited', editedMessage(shown, contentHash, hash));
  return { content: result.data, hash };
}

/** Read a trial's cassette (readCassetteFile), its hash remembered for the reports. */
export async function readCassette(file: string): Promise<Cassette> {
  const { content, hash } = readCassetteFile(file, TRIAL_CASSETTE);
  rememberReadHash(content, hash);
  return content;
}

/**
 * Why a cassette's content hash does not hold. It catches an edit made without recomputing the
 * hash (by hand, or by a tool); one who recomputes it gets past this check, and only review of
 * the fixture diff, which the report lists, catches them.
 */
export function editedMessage(shown: string, recorded: unknown, hash: string): string {
  const fix =
    'restore the recorded file (git checkout) or re-record the trial; a cassette is never edited by hand';
  if (recorded === undefined) {
    return `${shown}: it holds no contentHash (every recording writes one, over its content), so what it holds cannot be trusted: ${fix}`;
  }
  if (typeof recorded !== 'string' || !CONTENT_HASH.test(recorded)) {
    return `${shown}: its contentHash is not a sha256:<64 hex digits> hash: ${fix}`;
  }
  return `${shown}: its content no longer matches the contentHash it was recorded with (${recorded.slice(0, 19)}…, now ${hash.slice(0, 19)}…): it was changed after recording; ${fix}`;
}

/**
 * Far deeper than a recorded cassette, far shallower than the stack: what replaying, hashing and
 * verifying do recursively (JSON.stringify, canonicalize) cannot overflow on a value read here.
 */
export const MAX_CASSETTE_DEPTH = 1000;

/** The first steps of a path hundreds of levels long: enough to find the field. */
function describeDeepPath(path: ReadonlyArray<string | number>): string {
  const shown = path.slice(0, 13).map((key) => escapeForTerminal(String(key)));
  return `${shown.join('.')}${path.length > shown.length ? '…' : ''}`;
}

/**
 * Write a cassette file of any kind atomically (temp file in the same folder, then rename), with
 * stable key order and 2-space indent; returns its content hash. The final bytes and each
 * streamed block's assembled text are scanned first: any credential (`secrets` among them)
 * throws SecretLeakError and nothing is written.
 */
export async function writeCassetteFile<T extends Record<string, unknown>>(
  file: string,
  content: T,
  kind: CassetteKind<T>,
  options: { secrets?: readonly string[] } = {},
): Promise<string> {
  const shown = displayPath(file);
  const checked = kind.schema.safeParse(content);
  if (!checked.success) {
    const issues = describeZodIssues(flattenIssues(checked.error.issues));
    throw new FixtureError('fixture_corrupt', `refusing to write ${shown}: ${issues}`);
  }
  const text = cassetteText(checked.data, kind);
  const exchanges = [...kind.exchanges(checked.data)];
  const finding = findCassetteSecret({ exchanges }, text, options);
  if (finding) {
    throw new SecretLeakError(
      `refusing to write ${shown}: ${finding.where} contains ${finding.rule}; nothing was written`,
    );
  }
  await writeFileAtomic(file, Buffer.from(text, 'utf8'));
  return hashOf(checked.data, kind);
}

/** The content hash of a cassette file: over its kind's fields, as contentHashOf seals them. */
function hashOf<T extends Record<string, unknown>>(content: T, kind: CassetteKind<T>) {
  return contentHashOf(Object.fromEntries(kind.fields.map((field) => [field, content[field]])));
}

/**
 * A trial's cassette, written by writeCassetteFile: headers outside the allow-lists are dropped
 * first.
 */
export async function writeCassette(
  file: string,
  cassette: Cassette,
  options: { secrets?: readonly string[] } = {},
): Promise<void> {
  await writeCassetteFile(file, redactHeaders(cassette), TRIAL_CASSETTE, options);
}

/**
 * A cassette file's text: its fields in the kind's order, `contentHash` after the head ones
 * (`version`, `contentHash`, `meta`, `exchanges` for a trial); keys sorted below; 2-space
 * indent; final newline. The content hash covers the rest, so the file can be re-indented or its
 * keys reordered without changing it.
 */
export function cassetteText<T extends Record<string, unknown>>(
  content: T,
  kind: CassetteKind<T>,
): string {
  const ordered: Record<string, unknown> = {};
  for (const [index, field] of kind.fields.entries()) {
    if (index === kind.head) ordered.contentHash = hashOf(content, kind);
    ordered[field] = canonicalize(content[field]);
  }
  return `${JSON.stringify(ordered, null, 2)}\n`;
}

/** A trial's cassette text (cassetteText). */
export function serializeCassette(cassette: Cassette): string {
  return cassetteText(cassette, TRIAL_CASSETTE);
}

/** A path relative to the working directory when it lies inside it: what people type. */
export function displayPath(file: string): string {
  const relative = path.relative(process.cwd(), file);
  return relative && !relative.startsWith('..') && !path.isAbsolute(relative) ? relative : file;
}

function redactHeaders(cassette: Cassette): Cassette {
  return {
    ...cassette,
    exchanges: cassette.exchanges.map(
      (exchange): Exchange => ({
        ...exchange,
        request: {
          ...exchange.request,
          headers: pickHeaders(exchange.request.headers, RECORDED_REQUEST_HEADERS),
        },
        response: {
          ...exchange.response,
          headers: pickHeaders(exchange.response.headers, RECORDED_RESPONSE_HEADERS),
        },
      }),
    ),
  };
}

/** Keep only allow-listed names, compared lowercase. */
export function pickHeaders<Name extends string>(
  headers: Readonly<Record<string, string | undefined>> | Headers,
  allowed: readonly Name[],
): Partial<Record<Name, string>> {
  const entries = headers instanceof Headers ? [...headers.entries()] : Object.entries(headers);
  const picked: Partial<Record<Name, string>> = {};
  for (const [name, value] of entries) {
    const lower = name.toLowerCase();
    if (value !== undefined && (allowed as readonly string[]).includes(lower)) {
      picked[lower as Name] = value;
    }
  }
  return picked;
}

type Issue = z.core.$ZodIssue;

/** Replace each union failure by the issues of the branch that came closest, so the field is named. */
function flattenIssues(
  issues: readonly Issue[],
  prefix: readonly PropertyKey[] = [],
): Array<{ path: PropertyKey[]; message: string }> {
  return issues.flatMap((issue) => {
    const at = [...prefix, ...issue.path];
    if (issue.code === 'invalid_union' && issue.errors.length > 0) {
      const score = (branch: Issue[]) =>
        branch.length +
        (branch.some((i) => i.code === 'unrecognized_keys' && i.path.length === 0) ? 100 : 0);
      const best = issue.errors.reduce((a, b) => (score(b) < score(a) ? b : a));
      return flattenIssues(best, at);
    }
    return [{ path: at, message: issue.message.replace(/^Invalid input: /, '') }];
  });
}
