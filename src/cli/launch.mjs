// Launch a TypeScript CLI of this package: load vitest's heavy Node API natively first
// (through tsx's loader hooks it takes ~1 s longer), then let tsx handle our own .ts files.
import { fileURLToPath } from 'node:url';
import { register } from 'tsx/esm/api';

const [entry, ...rest] = process.argv.slice(2);
if (!entry) {
  console.error('usage: node src/cli/launch.mjs <file.ts> [args...]');
  process.exit(2);
}
if (/[\\/]cli[\\/](eval|record)\.ts$/.test(entry)) await import('vitest/node');
register();
const url = new URL(`../../${entry}`, import.meta.url);
// The absolute path, as `node file.ts` would give it: a CLI checks it to know it is the entry point.
process.argv = [process.argv[0], fileURLToPath(url), ...rest];
await import(url.href);
