import { z } from 'zod';
import {
  defineTool,
  NotRegularFileError,
  readRegularFile,
  type ToolDefinition,
  type ToolExecuteContext,
  writeRegularFile,
} from '../index.js';
import type { Sandbox } from './sandbox.js';
import { openInSandbox } from './sandbox-open.js';
import { type Confinement, resolveSandboxPath } from './sandbox-path.js';
import { recordWrite } from './store.js';
import { listFiles, readTextHead, searchFiles } from './text-files.js';

export interface FileToolOptions {
  sandbox: Sandbox;
  /**
   * `strict`: confined paths plus a read budget, binary and special-file refusal.
   * `lexical`: the seed's tools as written (whole-file read cut at 4000 characters,
   * grep-like search cut at 3000, plain write) behind its string-only path check.
   */
  confinement: Confinement;
  /** Bytes read_file reads at most (strict); 16 KiB by default. */
  readBudgetBytes?: number;
}

const path = z
  .string()
  .min(1)
  .max(1024)
  .describe('Path relative to the sandbox root, for example src/math.ts');

/**
 * Any text a tool returns or throws loses the sandbox's location: it differs per trial
 * (a recorded run would never replay) and says nothing the model needs.
 */
export function scrubbed<Args, Result>(
  sandbox: Sandbox,
  execute: (args: Args, context: ToolExecuteContext) => Promise<Result>,
): (args: Args, context: ToolExecuteContext) => Promise<Result | string> {
  return async (args, context) => {
    try {
      const result = await execute(args, context);
      return typeof result === 'string' ? sandbox.scrub(result) : result;
    } catch (error) {
      throw new Error(sandbox.scrub(error instanceof Error ? error.message : String(error)));
    }
  };
}

export function createReadFileTool(options: FileToolOptions): ToolDefinition {
  const { sandbox, confinement } = options;
  const budget = options.readBudgetBytes ?? 16 * 1024;
  return defineTool({
    name: 'read_file',
    description:
      'Read a text file of the project. Paths are relative to the project root (the sandbox), e.g. src/math.ts.',
    effect: 'read',
    parameters: z.object({ path }),
    execute: scrubbed(sandbox, async ({ path: input }: { path: string }) => {
      const target = resolveSandboxPath(sandbox, input, { confinement, mustExist: true });
      if (confinement === 'lexical') {
        // The weak baseline confinement still never reads a FIFO or device: it would hang.
        const bytes = await readRegularFile(target.absolute).catch((error: unknown) => {
          if (error instanceof NotRegularFileError) {
            throw new Error(`${target.relative} is not a regular file; it was not read`);
          }
          throw error;
        });
        return bytes.toString('utf8').slice(0, 4000);
      }
      const head = await readTextHead(sandbox, target, budget);
      const header = head.cut
        ? `${target.relative} (first ${budget} of ${head.size} bytes: the read budget; use search_code to find lines further down)`
        : `${target.relative} (${head.size} bytes)`;
      return `${header}\n${head.text}`;
    }),
  }) as never;
}

export function createSearchCodeTool(options: FileToolOptions): ToolDefinition {
  const { sandbox, confinement } = options;
  const strict = confinement === 'strict';
  return defineTool({
    name: 'search_code',
    description:
      'Find the lines that contain a text (plain, case-sensitive) in the project files; returns path:line: text.',
    effect: 'read',
    parameters: z.object({
      query: z.string().min(1).max(200).describe('The text to look for, e.g. function add'),
      path: path
        .optional()
        .describe('A file or directory to search in; the whole project by default'),
    }),
    execute: scrubbed(sandbox, async ({ query, path: input }: { query: string; path?: string }) => {
      if (strict && query.includes('\0'))
        throw new Error('the query contains a NUL byte; search for plain text');
      const target = resolveSandboxPath(sandbox, input ?? '.', { confinement, mustExist: true });
      const files = await listFiles(target.absolute);
      const found = await searchFiles(files, query, {
        sandbox,
        fileBudget: strict ? (options.readBudgetBytes ?? 16 * 1024) * 4 : Number.POSITIVE_INFINITY,
        maxMatches: strict ? 50 : Number.POSITIVE_INFINITY,
        maxLineChars: strict ? 200 : Number.POSITIVE_INFINITY,
      });
      const listing = found.matches.join('\n');
      if (!strict) return listing.slice(0, 3000);
      if (found.matches.length === 0) return `no line contains '${query}' in ${target.relative}`;
      const notes = [
        found.more ? '[more matches not shown: narrow the query or the path]' : '',
        found.skipped > 0 ? `[${found.skipped} binary or oversized files skipped]` : '',
      ].filter(Boolean);
      return [listing, ...notes].join('\n');
    }),
  }) as never;
}

export function createWriteFileTool(options: FileToolOptions): ToolDefinition {
  const { sandbox, confinement } = options;
  return defineTool({
    name: 'write_file',
    description:
      'Replace the whole content of a text file of the project (creates it in an existing directory). A dangerous tool: it changes the project.',
    effect: 'write',
    parameters: z.object({
      path,
      content: z.string().max(200_000).describe('The complete new content of the file'),
    }),
    execute: scrubbed(sandbox, async (args: { path: string; content: string }, { run }) => {
      const { path: input, content } = args;
      const target = resolveSandboxPath(sandbox, input, { confinement, mustExist: false });
      if (confinement === 'lexical') {
        await writeRegularFile(target.absolute, content).catch((error: unknown) => {
          if (error instanceof NotRegularFileError) {
            throw new Error(`${target.relative} is not a regular file; it was not written`);
          }
          throw error;
        });
      } else {
        if (content.includes('\0'))
          throw new Error('the content contains a NUL byte; write_file writes text files only');
        // No link swapped in after the check is followed; FIFOs and devices are refused.
        const handle = await openInSandbox(sandbox, target, 'write');
        try {
          await handle.writeFile(content, 'utf8');
        } finally {
          await handle.close();
        }
      }
      recordWrite(run, { path: target.relative, content });
      return `wrote ${target.relative} (${Buffer.byteLength(content)} bytes); run run_test to check the change`;
    }),
  }) as never;
}
