import { ConfigError } from '../core/errors.js';
import type { DecisionSettings } from '../eval/report/decisions-schema.js';
import { fraction, oneOf, positiveInteger } from './args.js';

/** The flags that set how rows are decided, as eval and record take them. */
export const DECISION_FLAGS = {
  delta: { type: 'string' },
  beta: { type: 'string' },
  undecided: { type: 'string' },
  'max-trials': { type: 'string' },
} as const;

/**
 * `--delta D` (the smallest pass@1 drop that matters), `--beta B`, `--undecided warn|fail`,
 * `--max-trials N` (the cap per row): checked, one line each.
 */
export function decisionFlags(values: {
  delta?: string | undefined;
  beta?: string | undefined;
  undecided?: string | undefined;
  'max-trials'?: string | undefined;
}): Partial<Omit<DecisionSettings, 'alpha'>> {
  const delta = fraction('--delta', values.delta);
  const beta = fraction('--beta', values.beta);
  if (delta !== undefined && delta < 0.01) {
    throw new ConfigError(
      `--delta ${values.delta} is below 0.01: no sequence of trials this tool records would tell a drop that small from none; give 0.01 or more (default 0.10)`,
    );
  }
  const undecided =
    values.undecided === undefined
      ? undefined
      : oneOf('--undecided', values.undecided, ['warn', 'fail'] as const, 'warn');
  const maxTrials =
    values['max-trials'] === undefined
      ? undefined
      : positiveInteger('--max-trials', values['max-trials'], 1, 10_000);
  return {
    ...(delta !== undefined && { delta }),
    ...(beta !== undefined && { beta }),
    ...(undecided !== undefined && { undecided }),
    ...(maxTrials !== undefined && { maxTrials }),
  };
}
