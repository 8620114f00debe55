// Launch a TypeScript CLI of this package: load vitest's heavy Node API natively first
// (through tsx's loader hooks it takes ~1 s longer), then let tsx handle our own .ts files.
import { register } from 'tsx/esm/api';

const [entry, ...rest] = process.argv.slice(2);
if (!entry) {
  console.error('usage: node src/cli/launch.mjs <file.ts> [args...]');
  process.exit(2);
}
if (/[\\/]cli[\\/](eval|record)\.ts$/.test(entry)) await import('vitest/node');
register();
process.argv = [process.argv[0], entry, ...rest];
await import(new URL(`../../${entry}`, import.meta.url).href);
