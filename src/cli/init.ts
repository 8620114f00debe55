import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { errorMessage } from '../core/errors.js';
import { runEvals } from '../eval/run/run-evals.js';
import { DEFAULT_TRIALS } from '../eval/spec/settings.js';
import { scaffold } from '../init/scaffold.js';
import { parseCliArgs } from './args.js';

const USAGE = `usage: npx harness-evals init [--no-record]

Scaffolds harness-evals into this project (never overwrites a file): evals/ with an example
agent, its offline model script and one task with a judged check and its rubric, reports/,
AGENTS.md if none, a vitest config for evals, a GitHub workflow and the package.json scripts
eval, record, view and test (and adds what a run writes to an existing .gitignore). A project
with evals of its own does not get the example back. Then records the
example's fixtures with the model script (source: simulator; --no-record skips that), so
npm run eval passes with no API key.`;

/** The example task of the templates. */
const EXAMPLE_TASK = 'H1';

async function main(argv: string[]): Promise<number> {
  const { values } = parseCliArgs({
    args: argv,
    options: { 'no-record': { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
  });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const projectDir = process.cwd();
  const result = await scaffold(projectDir);
  for (const file of result.created) console.log(`  created  ${file}`);
  for (const file of result.updated) console.log(`  updated  ${file}`);
  for (const file of result.leftAlone) console.log(`  kept     ${file} (exists; left alone)`);
  for (const file of result.skipped) {
    console.log(`  skipped  ${file} (the example: this project has its own evals)`);
  }

  const example = join(projectDir, 'evals', 'h1-ticket-status.eval.ts');
  if (!values['no-record'] && existsSync(example)) {
    console.log(`\nrecording the example's fixtures with its model script (source: simulator)...`);
    const recorded = await runEvals({
      projectDir,
      mode: 'record',
      source: 'simulator',
      trials: DEFAULT_TRIALS,
      tasks: [EXAMPLE_TASK],
      missingOnly: true,
      writeReports: false,
    });
    const failed = recorded.records.filter(
      (record) => record.outcome === 'errored' || record.outcome === 'judge_error',
    );
    for (const record of failed) {
      console.log(
        `  ✗ ${record.task} ${record.variant} trial ${record.trial}: ${record.messages[0]}`,
      );
    }
    if (failed.length > 0) return 1;
    console.log(
      `  ${recorded.records.length} trials recorded or already there under fixtures/${EXAMPLE_TASK}/`,
    );
  }
  console.log(
    '\nnext: npm run eval    (replays the fixtures, prints the scores, writes reports/latest.md)',
  );
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error(`init: ${errorMessage(error)}\n\n${USAGE}`);
    process.exitCode = 2;
  },
);
