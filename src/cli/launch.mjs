// Run this repository's CLI the way an installed package runs it: from dist/ (built from src/
// first when src/ changed since the last build; see dist-build.mjs), so no TypeScript loader
// sits in the start-up path. `node src/cli/launch.mjs eval --trials 3` is `harness-evals eval
// --trials 3`. A .ts entry (`node src/cli/launch.mjs bench/run.ts`) runs from source via tsx,
// for scripts that are not part of the package.
import { fileURLToPath } from 'node:url';

const [entry, ...rest] = process.argv.slice(2);
if (!entry) {
  console.error('usage: node src/cli/launch.mjs <command> [args...] | <file.ts> [args...]');
  process.exit(2);
}
if (entry.endsWith('.ts')) {
  // vitest's heavy Node API loads natively first: through tsx's loader hooks it takes ~1 s longer.
  const runsVitest =
    /[\\/]cli[\\/](eval|record|init)\.ts$/.test(entry) ||
    (/[\\/]cli[\\/]main\.ts$/.test(entry) && ['eval', 'record', 'init'].includes(rest[0] ?? ''));
  if (runsVitest) await import('vitest/node');
  const { register } = await import('tsx/esm/api');
  register();
  const url = new URL(`../../${entry}`, import.meta.url);
  // The absolute path, as `node file.ts` would give it: a CLI checks it to know it is the entry point.
  process.argv = [process.argv[0], fileURLToPath(url), ...rest];
  await import(url.href);
} else {
  const { distBuilder } = await import('./dist-build.mjs');
  try {
    distBuilder().ensureFresh();
  } catch (error) {
    console.error(error.message);
    process.exit(2);
  }
  const main = new URL('../../dist/cli/main.js', import.meta.url);
  process.argv = [process.argv[0], fileURLToPath(main), entry, ...rest];
  await import(main.href);
}
