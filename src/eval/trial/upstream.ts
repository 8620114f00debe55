import type { Provider } from '../../adapters/types.js';
import { ConfigError } from '../../core/errors.js';
import { PROVIDER_DEFAULTS } from '../../model-api/provider.js';
import type { ScriptPolicy } from '../../simulator/model-script.js';
import type { Policy } from '../../simulator/policy.js';
import { SEED_HEADER, UNSCRIPTED_HEADER } from '../../simulator/respond.js';
import { startSimulator } from '../../simulator/server.js';
import type { EvalSettings } from '../spec/settings.js';
import { refuseSimulator } from './refuse-simulator.js';
import { simulatorSeed } from './simulator-seed.js';

/** Set by `record --simulated`: the simulator it started (the built-in policies). */
export const SIMULATOR_URL_ENV = 'HARNESS_SIMULATOR_URL';

/** Where one trial's recording really goes, and the key it sends there. */
export interface Upstream {
  baseURL: string;
  apiKey: string;
  /** Wrap the session's fetch: seeds the simulator per trial, refuses a simulator when live. */
  wrap(fetch: typeof globalThis.fetch): typeof globalThis.fetch;
  /** Set when the simulator had no answer, or a live recording met it: the one-line reason to report instead. */
  problem(): ConfigError | undefined;
  close(): Promise<void>;
}

export interface UpstreamOptions {
  provider: Provider;
  /** The agent's own variables for its live API (defaults: the provider's). */
  baseUrlEnv?: string | undefined;
  apiKeyEnv?: string | undefined;
  /** The task's or agent's model script; served by a simulator of its own for this trial. */
  script: Policy | undefined;
  task: string;
  variant: string;
  trial: number;
  /** The dataset case's id, for a task over cases. */
  testCase?: string;
  settings: EvalSettings;
}

/** Open the upstream of one recorded trial: the live API, or a simulator (`--simulated`). */
export async function openUpstream(options: UpstreamOptions): Promise<Upstream> {
  if (options.settings.source === 'live') return liveUpstream(options);
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
  const seed = simulatorSeed({ ...options, ...(options.testCase && { case: options.testCase }) });
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
    problem: () => {
      if (unscripted === 0) return undefined;
      const task = `${options.task}${options.testCase ? ` case ${options.testCase}` : ''}`;
      // The script ran but gave no answer it may give (a loop past the deadline, 42, {}).
      const problem = scriptProblem(options.script, seed);
      if (problem) {
        return new ConfigError(
          `${task}: model script '${options.script!.name}' ${problem}; nothing was recorded`,
        );
      }
      return new ConfigError(
        `${task}: nothing answers the agent's requests offline${options.script ? ` (model script '${options.script.name}' has no answer for request ${unscripted})` : ''}: add a model script next to the task (defineModelScript, then modelScript on defineTask or defineAgent); see docs/adopting.md, "Model scripts"`,
      );
    },
    close: async () => {
      await own?.close();
    },
  };
}

/** Why a model script (defineModelScript) had no answer for this trial, when it said. */
function scriptProblem(script: Policy | undefined, seed: string): string | undefined {
  const problemFor = (script as Partial<ScriptPolicy> | undefined)?.problemFor;
  return typeof problemFor === 'function' ? problemFor.call(script, seed) : undefined;
}

/** Which request of the conversation this was: assistant turns already in its body, plus one. */
function countOf(init: RequestInit | undefined): number {
  try {
    const body = JSON.parse(String(init?.body ?? '{}')) as {
      messages?: Array<{ role?: string }>;
      input?: unknown;
    };
    if (Array.isArray(body.input)) return assistantRuns(body.input);
    return (body.messages ?? []).filter((message) => message.role === 'assistant').length;
  } catch {
    return 0;
  }
}

/** Responses input: each run of the assistant's items (its messages, function calls, references) is one turn. */
function assistantRuns(items: unknown[]): number {
  let runs = 0;
  let inRun = false;
  for (const item of items) {
    const { type, role } = (item ?? {}) as { type?: unknown; role?: unknown };
    const assistant = role === 'assistant' || type === 'function_call' || type === 'item_reference';
    if (assistant && !inRun) runs += 1;
    inRun = assistant;
  }
  return runs;
}

/** The variables an agent's live API is read from: its own, else its provider's. */
export function liveApiOf(options: Pick<UpstreamOptions, 'provider' | 'baseUrlEnv' | 'apiKeyEnv'>) {
  const defaults = PROVIDER_DEFAULTS[options.provider];
  const keyName = options.apiKeyEnv ?? defaults.apiKeyEnv;
  const urlName = options.baseUrlEnv ?? defaults.baseUrlEnv;
  return { keyName, urlName, baseURL: process.env[urlName] || defaults.defaultBaseURL };
}

function liveUpstream(options: UpstreamOptions): Upstream {
  const { keyName, urlName, baseURL } = liveApiOf(options);
  const apiKey = process.env[keyName];
  if (!apiKey) {
    throw new ConfigError(`recording needs ${keyName} (or --simulated, with a model script)`);
  }
  if (!/^https?:\/\//i.test(baseURL) || !URL.canParse(baseURL)) {
    throw new ConfigError(
      `${urlName} is not an http(s) URL: set it to e.g. http://127.0.0.1:8787, or unset it to use ${PROVIDER_DEFAULTS[options.provider].defaultBaseURL}`,
    );
  }
  let refused: ConfigError | undefined;
  return {
    baseURL,
    apiKey,
    wrap: (fetch) =>
      refuseSimulator(fetch, urlName, (error) => {
        refused ??= error;
      }),
    problem: () => refused,
    close: async () => {},
  };
}
