import { ConfigError } from '../../core/errors.js';
import { PROVIDER_DEFAULTS } from '../../model-api/provider.js';
import type { FixtureSource } from '../../replay/cassette.js';
import { SEED_HEADER } from '../../simulator/respond.js';
import { startSimulator } from '../../simulator/server.js';
import type { JudgeCheck } from '../spec/judge.js';
import { JUDGE_ENV, type JudgeModel } from '../spec/judge-model.js';
import { refuseSimulator } from '../trial/refuse-simulator.js';
import { sharedRecordServer } from '../trial/replay-runtime.js';
import { SIMULATOR_URL_ENV } from '../trial/upstream.js';
import type { JudgeEndpoint } from './judge-call.js';

/** Where one judged check's live calls go: the live API, or a simulator (`--simulated`). */
export interface JudgeUpstream {
  source: FixtureSource;
  /** The endpoint of one call; `seed` seeds a simulator's draws (task/variant/trial/check/model/sample). */
  endpoint(model: JudgeModel, seed: string): JudgeEndpoint;
  /** Why the judge's script gave the call of `seed` no verdict (it looped, it threw), when it did. */
  problem(seed: string): string | undefined;
  close(): Promise<void>;
}

/**
 * msw listens in a worker that records or judges live (it refuses whatever a tool sends
 * elsewhere): a judge call is sent past it with `bypass`, as the recording handler sends the
 * agent's calls upstream.
 */
async function passthroughFetch(): Promise<typeof globalThis.fetch> {
  await sharedRecordServer();
  const { bypass } = await import('msw');
  return (input, init) => globalThis.fetch(bypass(new Request(input, init)));
}

function liveEndpoint(model: JudgeModel, fetch: typeof globalThis.fetch): JudgeEndpoint {
  const { apiKeyEnv, baseUrlEnv, defaultBaseURL } = PROVIDER_DEFAULTS[model.provider];
  const apiKey = process.env[JUDGE_ENV.apiKey] || process.env[apiKeyEnv];
  if (!apiKey) {
    throw new ConfigError(
      `judge model ${model.id} needs ${JUDGE_ENV.apiKey} or ${apiKeyEnv} to be called live; or judge offline with --simulated`,
    );
  }
  const baseURL = process.env[JUDGE_ENV.baseURL] || process.env[baseUrlEnv] || defaultBaseURL;
  return { baseURL, apiKey, fetch: refuseSimulator(fetch) };
}

/**
 * Open the upstream of one judged check: with `source: 'simulator'`, the judge's own model
 * script served for these calls, else the simulator `--simulated` started (its built-in judge
 * policy); otherwise the live API of each model's provider.
 */
export async function openJudgeUpstream(
  judge: JudgeCheck,
  source: FixtureSource,
  scriptOnly = false,
): Promise<JudgeUpstream> {
  if (scriptOnly && !judge.modelScript) {
    throw new ConfigError(
      `judge '${judge.name}' has no judge script (modelScript on defineJudge) to answer it with --judge-script: give it one, or record with --judge-simulated for the built-in judge`,
    );
  }
  const fetch = await passthroughFetch();
  if (source === 'live') {
    return {
      source,
      endpoint: (model) => liveEndpoint(model, fetch),
      problem: () => undefined,
      close: async () => {},
    };
  }
  const own = judge.modelScript
    ? await startSimulator({ policies: [judge.modelScript], unmatched: 'error' })
    : undefined;
  const url = own?.url ?? process.env[SIMULATOR_URL_ENV];
  if (!url) {
    await own?.close();
    throw new ConfigError(
      'judging offline needs the simulator: run harness-evals record --simulated, or eval --rescore --simulated',
    );
  }
  return {
    source,
    endpoint: (model, seed) => ({
      baseURL: model.provider === 'openai' ? `${url}/v1` : url,
      // The simulator accepts any key; this one can never be mistaken for a real credential.
      apiKey: 'simulator-placeholder',
      fetch: (input, init) => {
        const headers = new Headers(init?.headers);
        headers.set(SEED_HEADER, seed);
        return fetch(input, { ...init, headers });
      },
    }),
    problem: (seed) => judge.modelScript?.problemFor?.(seed),
    close: async () => {
      await own?.close();
    },
  };
}
