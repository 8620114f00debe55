import { lstatSync, realpathSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, resolve, sep } from 'node:path';
import type { Sandbox } from './sandbox.js';

/**
 * How paths are confined. `strict`: no NUL, no absolute path, no `..` segment, and the real
 * path (symlinks resolved) must stay inside the sandbox. `lexical`: the seed's `safe_path`,
 * a string check on the joined path that symlinks walk straight through.
 */
export type Confinement = 'strict' | 'lexical';

/** A path inside the sandbox: `absolute` to open, `relative` to show the model. */
export interface SandboxPath {
  absolute: string;
  relative: string;
}

export interface ResolveOptions {
  confinement: Confinement;
  /** Reads need an existing target; a write may create one in an existing directory. */
  mustExist: boolean;
}

const EXAMPLE = 'give a path relative to the sandbox root, such as src/math.ts';

/**
 * Resolve a path the model gave against the sandbox, or throw an Error whose message tells
 * the model what to do instead. Nothing outside the sandbox is opened or named.
 *
 * @example
 * resolveSandboxPath(sandbox, 'src/math.ts', { confinement: 'strict', mustExist: true });
 * resolveSandboxPath(sandbox, '../../etc/passwd', ...); // throws: contains '..'
 */
export function resolveSandboxPath(
  sandbox: Sandbox,
  input: string,
  options: ResolveOptions,
): SandboxPath {
  if (options.confinement === 'lexical') return resolveLexical(sandbox, input);
  const shown = quote(input);
  if (input.includes('\0')) {
    throw new Error(`the path contains a NUL byte, which no file name can hold; ${EXAMPLE}`);
  }
  if (input.trim() === '') throw new Error(`the path is empty; ${EXAMPLE}`);
  if (isAbsolute(input) || /^[A-Za-z]:|^[\\/~]/.test(input)) {
    throw new Error(
      `${shown} is an absolute path; only paths inside the sandbox are allowed: ${EXAMPLE}`,
    );
  }
  if (input.split(/[\\/]+/).includes('..')) {
    throw new Error(`${shown} contains '..'; paths may not leave the sandbox: ${EXAMPLE}`);
  }
  const lexical = resolve(sandbox.realRoot, input);
  const relative = sandbox.toRelative(lexical);
  let real: string;
  try {
    real = realpathSync(lexical);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw describeFsError(error, relative);
    if (isSymlink(lexical)) {
      throw new Error(
        `${quote(relative)} is a symbolic link to nothing inside the sandbox; it cannot be used`,
      );
    }
    if (options.mustExist) {
      throw new Error(
        `no such file or directory: ${relative}; use search_code to find the right path`,
      );
    }
    real = join(realParent(lexical, sandbox), basename(lexical));
  }
  if (!isInside(sandbox.realRoot, real)) {
    throw new Error(
      `${quote(relative)} leads outside the sandbox through a symbolic link; only files inside the sandbox can be used`,
    );
  }
  return { absolute: real, relative };
}

/** The seed's `safe_path`: join, then compare strings. Kept as the baseline's behaviour. */
function resolveLexical(sandbox: Sandbox, input: string): SandboxPath {
  const full = resolve(sandbox.realRoot, input);
  if (!isInside(sandbox.realRoot, full)) throw new Error('path is outside the working directory');
  return { absolute: full, relative: sandbox.toRelative(full) };
}

export function isInside(root: string, path: string): boolean {
  return path === root || path.startsWith(root.endsWith(sep) ? root : `${root}${sep}`);
}

function realParent(lexical: string, sandbox: Sandbox): string {
  const parent = dirname(lexical);
  try {
    return realpathSync(parent);
  } catch {
    throw new Error(
      `directory ${sandbox.toRelative(parent)} does not exist; write into an existing directory such as src/`,
    );
  }
}

function isSymlink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}

function describeFsError(error: unknown, relative: string): Error {
  const code = (error as NodeJS.ErrnoException).code ?? 'error';
  return new Error(`${relative} cannot be used (${code})`);
}

/** Quoted and capped, so a huge or odd path cannot flood the tool result. */
function quote(path: string): string {
  return `'${path.length > 120 ? `${path.slice(0, 120)}...` : path}'`;
}
