import type { ToolDefinition } from '../index.js';

/**
 * The seed's permission levels. `read` looks, `write` has side effects (running the tests
 * runs project code), `dangerous` changes the project and always needs a human's approval.
 */
export type PermissionLevel = 'read' | 'write' | 'dangerous';

export const PERMISSION_LEVELS: readonly PermissionLevel[] = ['read', 'write', 'dangerous'];

/** A tool with its level: the debug agent's whitelist. */
export interface LeveledTool {
  tool: ToolDefinition;
  level: PermissionLevel;
}

/**
 * The tools a variant offers: those at or below `maxLevel`. A tool above it is not in the
 * request at all, so the model never sees it, let alone calls it.
 *
 * @example
 * toolsUpTo(tools, 'write').map((tool) => tool.name); // ['read_file', 'search_code', 'run_test']
 */
export function toolsUpTo(
  tools: readonly LeveledTool[],
  maxLevel: PermissionLevel,
): ToolDefinition[] {
  const limit = PERMISSION_LEVELS.indexOf(maxLevel);
  return tools
    .filter((entry) => PERMISSION_LEVELS.indexOf(entry.level) <= limit)
    .map((entry) => entry.tool);
}
