// Launch a TypeScript CLI of this package from source (this repository's npm scripts; the
// installed package runs the built dist/cli/main.js instead). Load vitest's heavy Node API
// natively first (through tsx's loader hooks it takes ~1 s longer), then let tsx handle our .ts.
import { fileURLToPath } from 'node:url';
import { register } from 'tsx/esm/api';

const [entry, ...rest] = process.argv.slice(2);
if (!entry) {
  console.error('usage: node src/cli/launch.mjs <file.ts> [args...]');
  process.exit(2);
}
const runsVitest =
  /[\\/]cli[\\/](eval|record|init)\.ts$/.test(entry) ||
  (/[\\/]cli[\\/]main\.ts$/.test(entry) && ['eval', 'record', 'init'].includes(rest[0] ?? ''));
if (runsVitest) await import('vitest/node');
register();
const url = new URL(`../../${entry}`, import.meta.url);
// The absolute path, as `node file.ts` would give it: a CLI checks it to know it is the entry point.
process.argv = [process.argv[0], fileURLToPath(url), ...rest];
await import(url.href);
