import { lstat, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Sandbox } from './sandbox.js';
import { openInSandbox } from './sandbox-open.js';
import type { SandboxPath } from './sandbox-path.js';

/** NUL in the first bytes is how git and grep tell binary files apart. */
const BINARY_SNIFF_BYTES = 8000;
const SKIPPED_DIRS = new Set(['node_modules', '.git']);

export function looksBinary(bytes: Uint8Array): boolean {
  return bytes.subarray(0, BINARY_SNIFF_BYTES).includes(0);
}

export interface TextHead {
  text: string;
  /** The file's full size in bytes. */
  size: number;
  /** True when only the first `budget` bytes were read. */
  cut: boolean;
}

/**
 * Read at most `budget` bytes of a regular file (never the rest of a huge one), refusing
 * directories, devices, FIFOs and binary files with a message the model can act on.
 * The file is opened by `openInSandbox`, so a swapped parent directory cannot lead outside.
 */
export async function readTextHead(
  sandbox: Sandbox,
  target: SandboxPath,
  budget: number,
): Promise<TextHead> {
  const shown = target.relative;
  const handle = await openInSandbox(sandbox, target, 'read');
  try {
    const info = await handle.stat();
    const length = Math.min(info.size, budget);
    const buffer = Buffer.alloc(length);
    let filled = 0;
    while (filled < length) {
      const { bytesRead } = await handle.read(buffer, filled, length - filled, filled);
      if (bytesRead === 0) break;
      filled += bytesRead;
    }
    const bytes = buffer.subarray(0, filled);
    if (looksBinary(bytes)) {
      throw new Error(
        `${shown} is a binary file (${info.size} bytes); read_file shows text files only`,
      );
    }
    return { text: bytes.toString('utf8'), size: info.size, cut: info.size > filled };
  } finally {
    await handle.close();
  }
}

/**
 * Every regular file under `dir`, sorted, as absolute paths. Symbolic links are never
 * followed (like `grep -r`), so a planted link cannot pull outside files into a search.
 */
export async function listFiles(dir: string): Promise<string[]> {
  const files: string[] = [];
  const walk = async (current: string): Promise<void> => {
    const entries = (await readdir(current)).sort();
    for (const name of entries) {
      const path = join(current, name);
      const info = await lstat(path);
      if (info.isDirectory() && !SKIPPED_DIRS.has(name)) await walk(path);
      else if (info.isFile()) files.push(path);
    }
  };
  const info = await lstat(dir);
  if (info.isFile()) return [dir];
  if (info.isDirectory()) await walk(dir);
  return files;
}

export interface SearchOptions {
  sandbox: Sandbox;
  /** Files over this many bytes are skipped (and counted). */
  fileBudget: number;
  maxMatches: number;
  maxLineChars: number;
}

export interface SearchResult {
  matches: string[];
  /** More matches existed than were kept. */
  more: boolean;
  skipped: number;
}

/** `path:line: text` for every line that contains `query` (plain text, case-sensitive). */
export async function searchFiles(
  files: readonly string[],
  query: string,
  options: SearchOptions,
): Promise<SearchResult> {
  const matches: string[] = [];
  let skipped = 0;
  for (const file of files) {
    const shown = options.sandbox.toRelative(file);
    let head: TextHead;
    try {
      head = await readTextHead(
        options.sandbox,
        { absolute: file, relative: shown },
        options.fileBudget,
      );
    } catch {
      skipped += 1;
      continue;
    }
    if (head.cut) {
      skipped += 1;
      continue;
    }
    const lines = head.text.split('\n');
    for (const [index, line] of lines.entries()) {
      if (!line.includes(query)) continue;
      if (matches.length === options.maxMatches) return { matches, more: true, skipped };
      matches.push(`${shown}:${index + 1}: ${line.trim().slice(0, options.maxLineChars)}`);
    }
  }
  return { matches, more: false, skipped };
}
