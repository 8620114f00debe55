import { errorMessage } from '../core/errors.js';

/**
 * One subcommand: its module's CLI function given the subcommand's own flags, returning the
 * exit code. Modules without such a function read `process.argv.slice(2)` when imported.
 */
interface Command {
  about: string;
  run(argv: string[]): Promise<number | undefined>;
}

/** For the CLIs that start when imported: they see their own flags as if started on their own. */
async function importWithArgv(load: () => Promise<unknown>, name: string, argv: string[]) {
  process.argv = [process.argv[0]!, name, ...argv];
  await load();
  return undefined;
}

const COMMANDS: Record<string, Command> = {
  eval: {
    about: 'replay the fixtures, score, report and gate',
    run: async (argv) => (await import('./eval.js')).runEvalCli(argv),
  },
  record: {
    about: 'record fixtures (live API, or --simulated with model scripts; --verify checks them)',
    run: async (argv) => (await import('./record.js')).runRecordCli(argv),
  },
  init: {
    about: 'scaffold evals/, fixtures, scripts and CI',
    run: (argv) => importWithArgv(() => import('./init.js'), 'init', argv),
  },
  view: {
    about: 'open or serve the HTML report (reports/latest.html)',
    run: (argv) => importWithArgv(() => import('./view.js'), 'view', argv),
  },
  simulator: {
    about: 'serve the simulated Messages / Chat Completions API',
    run: async (argv) => (await import('./simulator.js')).runSimulatorCli(argv),
  },
  comment: {
    about: "write a pull request's comment from an eval report (the workflow posts it)",
    run: async (argv) => (await import('./comment.js')).runCommentCli(argv),
  },
  history: {
    about: 'pass@1 per task and variant over the git history of a report (or a folder of reports)',
    run: async (argv) => (await import('./history.js')).runHistoryCli(argv),
  },
  trace: {
    about: 'summarise JSONL traces',
    run: async (argv) => (await import('./trace.js')).runTraceCli(argv),
  },
};

/** The subcommands `harness-evals` takes (the docs' command test reads them). */
export const COMMAND_NAMES: readonly string[] = Object.keys(COMMANDS);

const USAGE = `usage: harness-evals <command> [options]   (harness-evals <command> --help for its options)

${Object.entries(COMMANDS)
  .map(([name, command]) => `  ${name.padEnd(10)} ${command.about}`)
  .join('\n')}`;

/**
 * `harness-evals <command> [flags]` as a function: runs the subcommand and returns its exit code,
 * or undefined when the subcommand sets `process.exitCode` itself (init, view, simulator).
 * An unknown command is one line plus the usage on stderr and exit 2.
 */
export async function runMainCli(argv: string[]): Promise<number | undefined> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    console.log(USAGE);
    return 0;
  }
  const command = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (!command) {
    console.error(`harness-evals: unknown command '${name}'\n\n${USAGE}`);
    return 2;
  }
  try {
    return await command.run(rest);
  } catch (error) {
    console.error(`harness-evals ${name}: ${errorMessage(error)}`);
    return 2;
  }
}
