import { ConfigError } from '../../core/errors.js';
import type { WriteResolution } from '../../runtime/resume-agent.js';

/** `KEY=done|retry` flags as a map; the key may itself hold `:` and `=`, so split at the last `=`. */
export function writeResolutions(
  flags: readonly string[] | undefined,
): Record<string, WriteResolution> | undefined {
  if (!flags || flags.length === 0) return undefined;
  const resolutions: Record<string, WriteResolution> = {};
  for (const flag of flags) {
    const at = flag.lastIndexOf('=');
    const key = flag.slice(0, at).trim();
    const resolution = flag.slice(at + 1).trim();
    if (at <= 0 || key === '' || (resolution !== 'done' && resolution !== 'retry')) {
      throw new ConfigError(
        `--resolve-write takes KEY=done or KEY=retry (KEY as the run printed it, e.g. resubmit_refund:ORD1001:resubmit=done), got '${flag}'`,
      );
    }
    resolutions[key] = resolution;
  }
  return resolutions;
}
