import { join } from 'node:path';
import type { Clock } from '../core/clock.js';
import { ConfigError, errorMessage } from '../core/errors.js';
import { readRegularFileSync } from '../core/regular-file.js';
import { keepHead } from './truncate.js';
import type { RunMode } from './types.js';

export interface InstructionFile {
  name: string;
  text: string;
}

export interface SystemPromptOptions {
  /** Role and bottom line: constant across runs, so it goes first for prompt caching. */
  role: string;
  /** Project instructions in order: team (AGENTS.md) before personal (AGENTS.local.md). */
  instructionFiles?: readonly InstructionFile[];
  /** Characters of instruction text kept across all files; 4000 by default. */
  instructionBudget?: number;
  clock: Clock;
  mode: RunMode;
}

export interface SystemPrompt {
  text: string;
  /** Each section as it appears in `text` (heading included), for the trace. */
  sections: Array<{ title: string; chars: number }>;
  instructionsTruncated: boolean;
}

const MODE_LINES: Record<RunMode, string> = {
  interactive: 'Mode: interactive. Write operations ask the user for approval first.',
  unattended: "Mode: unattended. Anything that needs a human's approval is refused.",
};

/**
 * Assemble the system prompt in fixed sections, most stable first (role, project
 * instructions, run environment) so the cached prefix survives from run to run.
 * "Today" comes from the clock, so a replay produces the same bytes.
 *
 * @example
 * const { text } = buildSystemPrompt({
 *   role: 'You are the refund desk agent.',
 *   instructionFiles: loadInstructionFiles(process.cwd()),
 *   clock, mode: 'unattended',
 * });
 */
export function buildSystemPrompt(options: SystemPromptOptions): SystemPrompt {
  const sections: Array<{ title: string; body: string }> = [
    { title: 'Role', body: options.role.trim() },
  ];
  const instructions = renderInstructions(
    options.instructionFiles ?? [],
    options.instructionBudget ?? 4000,
  );
  if (instructions) sections.push({ title: 'Project instructions', body: instructions.body });
  const today = new Date(options.clock.now()).toISOString().slice(0, 10);
  sections.push({
    title: 'Run environment',
    body: `Today is ${today}.\n${MODE_LINES[options.mode]}`,
  });

  const rendered = sections.map(({ title, body }) => ({ title, text: `# ${title}\n${body}` }));
  return {
    text: rendered.map((section) => section.text).join('\n\n'),
    sections: rendered.map(({ title, text }) => ({ title, chars: text.length })),
    instructionsTruncated: instructions?.truncated ?? false,
  };
}

/**
 * Read the instruction files that exist in `dir`, in the given order; a missing file is skipped.
 *
 * @example
 * loadInstructionFiles('.'); // [{ name: 'AGENTS.md', text: '...' }] when there is no AGENTS.local.md
 */
export function loadInstructionFiles(
  dir: string,
  names: readonly string[] = ['AGENTS.md', 'AGENTS.local.md'],
): InstructionFile[] {
  const files: InstructionFile[] = [];
  for (const name of names) {
    const path = join(dir, name);
    try {
      // Only a regular file: a FIFO named AGENTS.local.md would block the run for good.
      files.push({ name, text: readRegularFileSync(path).toString('utf8') });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue;
      throw new ConfigError(
        `cannot read instruction file ${path}: ${errorMessage(error)}; fix its permissions or remove it`,
        {
          cause: error,
        },
      );
    }
  }
  return files;
}

/**
 * The budget counts instruction text only and is spent in file order, so AGENTS.md wins over
 * AGENTS.local.md. Cutting inside a file (never through a tag) keeps every <file> element closed.
 */
function renderInstructions(
  files: readonly InstructionFile[],
  budget: number,
): { body: string; truncated: boolean } | undefined {
  const texts = files
    .map((file) => ({ name: file.name, text: file.text.trim() }))
    .filter((file) => file.text !== '');
  if (texts.length === 0) return undefined;

  const total = texts.reduce((sum, file) => sum + file.text.length, 0);
  let keptChars = 0;
  const blocks: string[] = [];
  for (const file of texts) {
    const kept = keepHead(file.text, Math.max(0, Math.floor(budget)) - keptChars);
    keptChars += kept.length;
    if (kept !== '') blocks.push(`<file name="${file.name}">\n${kept}\n</file>`);
    // Stop at the first cut file: a later, smaller file must not jump the queue.
    if (kept.length < file.text.length) break;
  }
  const truncated = keptChars < total;
  if (truncated)
    blocks.push(`[project instructions truncated: ${keptChars} of ${total} characters kept]`);
  return { body: blocks.join('\n'), truncated };
}
