import { parseArgs } from 'node:util';
import { startSimulator } from '../simulator/server.js';

/**
 * `npm run simulator -- --port 8787`: serve the simulated Messages API until Ctrl-C.
 * Point a client at it with ANTHROPIC_BASE_URL.
 */
async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      port: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    console.log('usage: npm run simulator -- [--port PORT]   (default: an ephemeral port)');
    return;
  }
  const port = values.port === undefined ? 0 : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`--port must be an integer from 0 to 65535, got '${values.port}'`);
    process.exitCode = 2;
    return;
  }
  const simulator = await startSimulator({ port });
  console.log(`simulator listening on ${simulator.url} (set ANTHROPIC_BASE_URL to this)`);
  const stop = () => {
    simulator.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error: unknown) => {
  console.error(`simulator: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
});
