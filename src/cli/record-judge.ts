import { ConfigError } from '../core/errors.js';
import type { RunEvalsOptions } from '../eval/run/run-evals.js';
import { SIMULATOR_URL_ENV } from '../eval/trial/upstream.js';
import { type RunningSimulator, startSimulator } from '../simulator/server.js';
import { judgeOverrides } from './judge-flags.js';

/** The judge flags of `record`, as parsed. */
export interface RecordJudgeValues {
  simulated?: boolean | undefined;
  'missing-only'?: boolean | undefined;
  'judge-only'?: boolean | undefined;
  'judge-model'?: string | undefined;
  'judge-samples'?: string | undefined;
  'judge-simulated'?: boolean | undefined;
  'judge-script'?: boolean | undefined;
}

/** The simulator that answers judges offline while the agent records live (its built-in judge). */
export async function openJudgeSimulator(): Promise<RunningSimulator> {
  const simulator = await startSimulator({ unmatched: 'error' });
  process.env[SIMULATOR_URL_ENV] = simulator.url;
  console.log(`judges answer offline, from the simulator at ${simulator.url} (source: simulator)`);
  return simulator;
}

/** --judge-only, --judge-model, --judge-samples: checked before anything runs. */
export function recordJudgeFlags(values: RecordJudgeValues): NonNullable<RunEvalsOptions['judge']> {
  if (values['judge-only'] && values['missing-only']) {
    throw new ConfigError(
      '--judge-only records the judge of every selected trial: drop --missing-only',
    );
  }
  const overrides = judgeOverrides(values);
  const offline = judgeOffline(values);
  return {
    mode: 'record',
    ...overrides,
    ...(values['judge-only'] && { only: true }),
    ...(offline && { offline }),
  };
}

/** `--judge-simulated` / `--judge-script`: the judges answer offline while the agent records live. */
function judgeOffline(values: RecordJudgeValues): 'simulator' | 'script' | undefined {
  const given = (['judge-simulated', 'judge-script'] as const).filter((flag) => values[flag]);
  if (given.length === 2)
    throw new ConfigError('give --judge-script or --judge-simulated, not both');
  const [flag] = given;
  if (flag === undefined) return undefined;
  if (values.simulated) {
    throw new ConfigError(`--simulated already answers the judges offline: drop --${flag}`);
  }
  return flag === 'judge-script' ? 'script' : 'simulator';
}
