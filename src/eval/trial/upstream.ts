import type { Provider } from '../../adapters/types.js';
import { ConfigError } from '../../core/errors.js';
import type { Policy } from '../../simulator/policy.js';
import { SEED_HEADER, UNSCRIPTED_HEADER } from '../../simulator/respond.js';
import { startSimulator } from '../../simulator/server.js';
import { refuseSimulator } from '../run/refuse-simulator.js';
import type { EvalSettings } from '../run/settings.js';

/** Set by `record --simulated`: the simulator it started (the built-in policies). */
export const SIMULATOR_URL_ENV = 'HARNESS_SIMULATOR_URL';

/** Where one trial's recording really goes, and the key it sends there. */
export interface Upstream {
  baseURL: string;
  apiKey: string;
  /** Wrap the session's fetch: seeds the simulator per trial, refuses a simulator when live. */
  wrap(fetch: typeof globalThis.fetch): typeof globalThis.fetch;
  /** Set when the simulator had no answer: the one-line reason to report instead. */
  unscripted(): ConfigError | undefined;
  close(): Promise<void>;
}

export interface UpstreamOptions {
  provider: Provider;
  /** The task's or agent's model script; served by a simulator of its own for this trial. */
  script: Policy | undefined;
  task: string;
  variant: string;
  trial: number;
  settings: EvalSettings;
}

/** Open the upstream of one recorded trial: the live API, or a simulator (`--simulated`). */
export async function openUpstream(options: UpstreamOptions): Promise<Upstream> {
  if (options.settings.source === 'live') return liveUpstream(options.provider);
  const own = options.script
    ? await startSimulator({ policies: [options.script], unmatched: 'error' })
    : undefined;
  const url = own?.url ?? process.env[SIMULATOR_URL_ENV] ?? process.env.ANTHROPIC_BASE_URL;
  if (!url) {
    throw new ConfigError(
      'recording with --simulated needs the simulator: run it through harness-evals record --simulated',
    );
  }
  let unscripted = 0;
  const seed = `${options.task}/${options.variant}/${options.trial}`;
  return {
    baseURL: options.provider === 'openai' ? `${url}/v1` : url,
    // The simulator accepts any key; this one can never be mistaken for a real credential.
    apiKey: 'simulator-placeholder',
    wrap: (fetch) => async (input, init) => {
      const headers = new Headers(init?.headers ?? (input instanceof Request ? input.headers : {}));
      headers.set(SEED_HEADER, seed);
      const response = await fetch(input, { ...init, headers });
      if (response.headers.has(UNSCRIPTED_HEADER) && unscripted === 0)
        unscripted = 1 + countOf(init);
      return response;
    },
    unscripted: () =>
      unscripted === 0
        ? undefined
        : new ConfigError(
            `${options.task}: nothing answers the agent's requests offline${options.script ? ` (model script '${options.script.name}' has no answer for request ${unscripted})` : ''}: add a model script next to the task (defineModelScript, then modelScript on defineTask or defineAgent); see the README, "Model scripts"`,
          ),
    close: async () => {
      await own?.close();
    },
  };
}

/** Which request of the conversation this was: assistant turns already in its body, plus one. */
function countOf(init: RequestInit | undefined): number {
  try {
    const body = JSON.parse(String(init?.body ?? '{}')) as { messages?: Array<{ role?: string }> };
    return (body.messages ?? []).filter((message) => message.role === 'assistant').length;
  } catch {
    return 0;
  }
}

function liveUpstream(provider: Provider): Upstream {
  const [keyName, urlName, defaultURL] =
    provider === 'openai'
      ? (['OPENAI_API_KEY', 'OPENAI_BASE_URL', 'https://api.openai.com/v1'] as const)
      : (['ANTHROPIC_API_KEY', 'ANTHROPIC_BASE_URL', 'https://api.anthropic.com'] as const);
  const apiKey = process.env[keyName];
  if (!apiKey) {
    throw new ConfigError(`recording needs ${keyName} (or --simulated, with a model script)`);
  }
  return {
    baseURL: process.env[urlName] || defaultURL,
    apiKey,
    wrap: (fetch) => refuseSimulator(fetch),
    unscripted: () => undefined,
    close: async () => {},
  };
}
