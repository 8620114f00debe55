import { createRequire } from 'node:module';
import { relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ConfigError, errorMessage } from '../../core/errors.js';
import { FileTooLargeError, readRegularFileSync } from '../../core/regular-file.js';
import { parseCsv } from './csv.js';

/** One case of a dataset task: the input the agent gets, what the checks expect, and anything else. */
export interface EvalCase {
  /** Names the case's fixtures folder (fixtures/<task>/<variant>/<id>/) and `--case`. */
  id: string;
  /** The agent's prompt (text), or what the task's `prompt(case)` makes one of. */
  input: unknown;
  expected?: unknown;
  metadata?: Record<string, unknown>;
}

/** A dataset: cases inline, or a committed `.jsonl`, `.csv`, `.yaml` / `.yml` or `.json` file (a path from the project root, or a file URL). */
export type CaseSource = readonly EvalCase[] | readonly Omit<EvalCase, 'id'>[] | string | URL;

/**
 * The largest cases file read: 64 MB of JSONL is about 580,000 short cases, read and checked
 * in about 12 s at a peak of about 470 MB. Past it the file is refused from its size, unread.
 */
export const MAX_CASES_FILE_BYTES = 64 * 1024 ** 2;

const MB = 1024 ** 2;

/** A case id names a folder: letters, digits, '_', '-' or '.', not only dots. */
export const isCaseId = (id: string): boolean =>
  /^[A-Za-z0-9_.-]{1,100}$/.test(id) && !/^\.+$/.test(id);

/**
 * The cases of a dataset, checked: each an object with an `input`, an `id` of its own (absent:
 * its position, from 1: give ids to keep fixtures when you reorder), `expected` anything,
 * `metadata` an object. A problem names the file and line (or the case's index) and the fix.
 *
 * @example loadCases('evals/data/refund-questions.jsonl', process.cwd())
 */
export function loadCases(source: CaseSource, projectDir: string): EvalCase[] {
  if (typeof source !== 'string' && !(source instanceof URL)) {
    if (!Array.isArray(source)) {
      throw new ConfigError(
        'cases must be a list of { id, input, expected?, metadata? } or a file path',
      );
    }
    return checkCases(source as unknown[], (index) => `cases[${index}]`);
  }
  const file = source instanceof URL ? fileURLToPath(source) : resolve(projectDir, source);
  const shown = relative(projectDir, file) || file;
  let text: string;
  try {
    text = readRegularFileSync(file, { maxBytes: MAX_CASES_FILE_BYTES }).toString('utf8');
  } catch (error) {
    if (error instanceof FileTooLargeError) {
      throw new ConfigError(
        `cases file ${shown} is ${Math.ceil(error.size / MB)} MB, past the ${MAX_CASES_FILE_BYTES / MB} MB a cases file may hold: split it into several files (one task each), or keep a sample of it in the project`,
      );
    }
    throw new ConfigError(`cases file ${shown} cannot be read: ${errorMessage(error)}`);
  }
  const { rows, where } = parseCaseFile(text, shown);
  return checkCases(rows, where);
}

/** The rows of a case file, and how to name row i in an error. */
function parseCaseFile(
  text: string,
  shown: string,
): { rows: unknown[]; where: (index: number) => string } {
  const extension = /\.([a-z]+)$/i.exec(shown)?.[1]?.toLowerCase();
  const fail = (why: string) => new ConfigError(`cases file ${shown}: ${why}`);
  if (extension === 'jsonl' || extension === 'ndjson') {
    const lines = text.split(/\r?\n/).map((line, index) => ({ line, number: index + 1 }));
    const filled = lines.filter(({ line }) => line.trim() !== '');
    const rows = filled.map(({ line, number }) => {
      try {
        return JSON.parse(line) as unknown;
      } catch (error) {
        throw fail(`line ${number} is not JSON (${errorMessage(error)})`);
      }
    });
    return { rows, where: (index) => `${shown} line ${filled[index]?.number}` };
  }
  if (extension === 'csv') {
    const { rows, lines } = parseCsv(text, fail);
    return { rows, where: (index) => `${shown} line ${lines[index]}` };
  }
  if (extension === 'json' || extension === 'yaml' || extension === 'yml') {
    let data: unknown;
    try {
      data = extension === 'json' ? JSON.parse(text) : parseYaml(text);
    } catch (error) {
      throw fail(`not valid ${extension.toUpperCase()} (${errorMessage(error).split('\n')[0]})`);
    }
    const list = Array.isArray(data) ? data : (data as { cases?: unknown } | null)?.cases;
    if (!Array.isArray(list)) throw fail('holds no list of cases (a list, or { cases: [...] })');
    return { rows: list, where: (index) => `${shown} case ${index + 1}` };
  }
  throw fail('is not a .jsonl, .csv, .yaml, .yml or .json file');
}

/** The YAML parser, loaded only for a YAML dataset: every eval worker imports this module. */
function parseYaml(text: string): unknown {
  const yaml = createRequire(import.meta.url)('yaml') as { parse(text: string): unknown };
  return yaml.parse(text);
}

function checkCases(rows: readonly unknown[], where: (index: number) => string): EvalCase[] {
  if (rows.length === 0)
    throw new ConfigError(`${where(0).replace(/ (line|case) .*$/, '')}: the dataset has no cases`);
  const seen = new Map<string, number>();
  return rows.map((row, index) => {
    const at = where(index);
    if (typeof row !== 'object' || row === null || Array.isArray(row)) {
      throw new ConfigError(
        `${at} is not an object: write { "id": "q1", "input": "...", "expected": ... }`,
      );
    }
    const {
      id = String(index + 1),
      input,
      expected,
      metadata,
      ...rest
    } = row as Record<string, unknown>;
    if (typeof id !== 'string' && typeof id !== 'number') {
      throw new ConfigError(`${at}: id must be text, e.g. "q1"`);
    }
    const name = String(id);
    if (!isCaseId(name)) {
      throw new ConfigError(
        `${at}: id '${name.slice(0, 100)}' is invalid: use letters, digits, '_', '-' or '.' (it names a fixtures folder)`,
      );
    }
    const first = seen.get(name.toLowerCase());
    if (first !== undefined)
      throw new ConfigError(
        `${at}: id '${name}' is the id of ${where(first)} too: give each case its own`,
      );
    seen.set(name.toLowerCase(), index);
    if (input === undefined)
      throw new ConfigError(`${at} (id '${name}') has no input: what the agent is asked`);
    if (
      metadata !== undefined &&
      (typeof metadata !== 'object' || metadata === null || Array.isArray(metadata))
    ) {
      throw new ConfigError(`${at} (id '${name}'): metadata must be an object`);
    }
    // Any other field is metadata too: a dataset written for another tool keeps its columns.
    const extra = { ...(metadata as Record<string, unknown> | undefined), ...rest };
    return {
      id: name,
      input,
      ...(expected !== undefined && { expected }),
      ...(Object.keys(extra).length > 0 && { metadata: extra }),
    };
  });
}
