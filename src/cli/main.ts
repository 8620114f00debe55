#!/usr/bin/env node
import { errorMessage } from '../core/errors.js';

/** Each subcommand is its own module; it reads `process.argv.slice(2)` and sets the exit code. */
const COMMANDS = {
  eval: { load: () => import('./eval.js'), about: 'replay the fixtures, score, report and gate' },
  record: {
    load: () => import('./record.js'),
    about: 'record fixtures (live API, or --simulated with model scripts)',
  },
  init: { load: () => import('./init.js'), about: 'scaffold evals/, fixtures, scripts and CI' },
  simulator: {
    load: () => import('./simulator.js'),
    about: 'serve the simulated Messages / Chat Completions API',
  },
  trace: { load: () => import('./trace.js'), about: 'summarise JSONL traces' },
  agent: {
    load: () => import('./agent.js'),
    about: 'run the reference refund-desk agent once (harness-evals repository only)',
  },
} as const;

type Command = keyof typeof COMMANDS;

const USAGE = `usage: harness-evals <command> [options]   (harness-evals <command> --help for its options)

${Object.entries(COMMANDS)
  .map(([name, command]) => `  ${name.padEnd(10)} ${command.about}`)
  .join('\n')}`;

function isCommand(name: string | undefined): name is Command {
  return name !== undefined && Object.hasOwn(COMMANDS, name);
}

async function main(): Promise<void> {
  const [command, ...rest] = process.argv.slice(2);
  if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
    console.log(USAGE);
    return;
  }
  if (!isCommand(command)) {
    console.error(`harness-evals: unknown command '${command}'\n\n${USAGE}`);
    process.exitCode = 2;
    return;
  }
  // The subcommand sees its own flags as if it had been started on its own.
  process.argv = [process.argv[0]!, command, ...rest];
  try {
    await COMMANDS[command].load();
  } catch (error) {
    const missing = (error as { code?: string }).code === 'ERR_MODULE_NOT_FOUND';
    console.error(
      missing && command === 'agent'
        ? 'harness-evals agent: the reference refund-desk agent is not part of the installed package; run it from the harness-evals repository (npm run agent), and evaluate your own agent with harness-evals eval'
        : `harness-evals ${command}: ${errorMessage(error)}`,
    );
    process.exitCode = 2;
  }
}

await main();
