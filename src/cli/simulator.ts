import { ConfigError } from '../core/errors.js';
import { parseFaults } from '../simulator/faults.js';
import type { Policy } from '../simulator/policy.js';
import { startSimulator } from '../simulator/server.js';
import { parseCliArgs } from './args.js';

const USAGE = `usage: npm run simulator -- [--port PORT] [--faults 429:2,529,500]

Serves the simulated Messages API on 127.0.0.1 until Ctrl-C (default: an ephemeral port): the
built-in judge, and plain text for anything else (an agent's model script is served by
record --simulated).
  --faults LIST   answer the first requests with these error statuses, in order; '429:2'
                  adds retry-after: 2 (seconds). Shows the retry and fallback layer at work.`;

/**
 * `harness-evals simulator [flags]`: serve until Ctrl-C; 2 on a bad flag. `served.policies`
 * replaces the built-in ones (this repository's npm run simulator adds the refund desk's model).
 */
export async function runSimulatorCli(
  argv: string[],
  served: { policies?: readonly Policy[] } = {},
): Promise<number | undefined> {
  try {
    await serve(argv, served);
    return undefined;
  } catch (error) {
    console.error(
      `simulator: ${error instanceof Error ? error.message : String(error)}\n\n${USAGE}`,
    );
    return 2;
  }
}

async function serve(argv: string[], served: { policies?: readonly Policy[] }): Promise<void> {
  const { values } = parseCliArgs({
    args: argv,
    options: {
      port: { type: 'string' },
      faults: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const port = values.port === undefined ? 0 : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new ConfigError(`--port must be an integer from 0 to 65535, got '${values.port}'`);
  }
  const faults = values.faults === undefined ? [] : parseFaults(values.faults);
  const simulator = await startSimulator({ port, faults, ...served });
  console.log(`simulator listening on ${simulator.url} (set ANTHROPIC_BASE_URL to this)`);
  if (faults.length > 0) console.log(`the first ${faults.length} requests get: ${values.faults}`);
  const stop = () => {
    simulator.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}
