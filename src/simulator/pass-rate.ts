import { ConfigError } from '../core/errors.js';
import { valueOrKind } from '../core/value-kind.js';
import { fnv1a, mulberry32 } from './rng.js';

/**
 * A chosen pass probability: one for every variant, or one per variant name (a variant not
 * named keeps the policy's usual habits). Used to make rows with known true pass rates.
 */
export type PassRate = number | Readonly<Record<string, number>>;

/**
 * The variant a recording seed names: the seed is `<task>/<variant>/<trial>`, or
 * `<task>/<case>/<variant>/<trial>` for a case of a dataset task, so it is the part before the trial.
 */
export function seedVariant(seed: string): string | undefined {
  const parts = seed.split('/');
  return parts.length >= 3 ? parts.at(-2) : undefined;
}

/** The pass probability `passRate` gives the trial of `seed`; undefined when it gives none. */
export function passRateFor(passRate: PassRate | undefined, seed: string): number | undefined {
  if (passRate === undefined || typeof passRate === 'number') return passRate;
  const variant = seedVariant(seed);
  return variant === undefined ? undefined : passRate[variant];
}

/**
 * Whether the trial of `seed` is one of the passing ones: one draw from the seed alone (the
 * same on every turn of the conversation, and on every re-recording), true with probability
 * `rate`. Seeds differ per task, variant, trial and case, so each trial draws its own.
 *
 * @example trialPasses('T1/upgraded/3', 0.7) // the same answer every time for this seed
 */
export function trialPasses(seed: string, rate: number): boolean {
  return mulberry32(fnv1a(`${seed}#pass_rate`))() < rate;
}

/** A pass rate as a policy or model script was given it, checked: each value in [0, 1]. */
export function checkPassRate(passRate: PassRate | undefined, where: string): PassRate | undefined {
  if (passRate === undefined) return undefined;
  const entries =
    typeof passRate === 'number'
      ? [['', passRate] as const]
      : typeof passRate === 'object' && passRate !== null && !Array.isArray(passRate)
        ? Object.entries(passRate)
        : undefined;
  if (entries === undefined) {
    throw new ConfigError(
      `${where}: passRate is ${valueOrKind(passRate)}: give a probability such as 0.7, or one per variant, e.g. { upgraded: 0.7 }`,
    );
  }
  for (const [variant, rate] of entries) {
    if (typeof rate !== 'number' || !(rate >= 0 && rate <= 1)) {
      throw new ConfigError(
        `${where}: passRate${variant ? `.${variant}` : ''} is ${valueOrKind(rate)}: give a probability from 0 to 1, e.g. 0.7`,
      );
    }
  }
  return passRate;
}
