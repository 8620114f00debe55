import { ConfigError } from '../../core/errors.js';

/**
 * A fixture labelled `live` must come from the live API: the simulator marks its
 * responses, and a live recording that meets one fails (so nothing is written).
 */
export function refuseSimulator(fetch: typeof globalThis.fetch): typeof globalThis.fetch {
  return async (input, init) => {
    const response = await fetch(input, init);
    if (response.headers.has('x-harness-simulator')) {
      await response.body?.cancel();
      throw new ConfigError(
        'the server at ANTHROPIC_BASE_URL is the harness simulator: record with --simulated so the fixtures say source: simulator',
      );
    }
    return response;
  };
}
