import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * True when this module is the script node was started with (`npm run agent`,
 * `node --import tsx src/refund-desk/cli/agent.ts`), false when a test imports it to call its function.
 */
export function isEntryPoint(moduleUrl: string): boolean {
  const script = process.argv[1];
  return script !== undefined && resolve(script) === fileURLToPath(moduleUrl);
}
