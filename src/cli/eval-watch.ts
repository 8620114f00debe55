import { ConfigError } from '../core/errors.js';
import type { RunEvalsOptions } from '../eval/run/run-evals.js';

/** The eval flags --watch refuses: each one records, asks live, writes a reference or splits the run. */
const REFUSED = {
  shard: 'a shard is a slice of one CI run',
  merge: 'a merge reports on finished shards',
  'update-reference': 'a reference is written by one whole run, not on every change',
  rescore: 'the judges would be asked live on every change',
  'record-judge': 'watch never records',
  simulated: 'it goes with --rescore',
  otel: 'a trace is exported once, for a finished run',
  'otel-endpoint': 'a trace is exported once, for a finished run',
  'otel-content': 'a trace is exported once, for a finished run',
} as const;

/**
 * `eval --watch` with a flag that makes no sense there, or under CI (a watch never ends):
 * one line naming the flag and the fix.
 */
export function refuseWithWatch(
  values: Partial<Record<keyof typeof REFUSED, unknown>>,
  env: NodeJS.ProcessEnv = process.env,
): void {
  for (const [flag, why] of Object.entries(REFUSED)) {
    if (values[flag as keyof typeof REFUSED] !== undefined) {
      throw new ConfigError(
        `--watch replays on every change and does not take --${flag} (${why}): drop one of them`,
      );
    }
  }
  if (env.CI) {
    throw new ConfigError(
      '--watch waits for changes and never ends, so it is refused when CI is set: CI runs npm run eval',
    );
  }
}

/** `eval --watch`: the replay as vitest's watch mode (loaded only then); exits 0 on Ctrl-C. */
export async function watchReplay(options: RunEvalsOptions): Promise<number> {
  const {
    mode: _mode,
    shard: _shard,
    updateReference: _update,
    source: _source,
    ...rest
  } = options;
  const { watchEvals } = await import('../eval/run/watch-evals.js');
  return watchEvals(rest);
}
