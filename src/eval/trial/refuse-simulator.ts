import { ConfigError } from '../../core/errors.js';

/**
 * A fixture labelled `live` must come from the live API: the simulator marks its
 * responses, and a live recording that meets one fails (so nothing is written). `baseUrlEnv`
 * names the variable that pointed there; `refused` hears of it, since the agent's client may
 * report only "connection error".
 */
export function refuseSimulator(
  fetch: typeof globalThis.fetch,
  baseUrlEnv = 'ANTHROPIC_BASE_URL',
  refused?: (error: ConfigError) => void,
): typeof globalThis.fetch {
  return async (input, init) => {
    const response = await fetch(input, init);
    if (response.headers.has('x-harness-simulator')) {
      await response.body?.cancel();
      const error = new ConfigError(
        `the server at ${baseUrlEnv} is the harness simulator: record with --simulated so the fixtures say source: simulator`,
      );
      refused?.(error);
      throw error;
    }
    return response;
  };
}
