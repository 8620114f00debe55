import { ConfigError } from '../core/errors.js';
import type { SimulatorFault } from './server.js';

/** `429:2,529` -> [{ status: 429, retryAfterSeconds: 2 }, { status: 529 }]. */
export function parseFaults(text: string): SimulatorFault[] {
  return text
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean)
    .map((item) => {
      const match = /^(\d{3})(?::(\d+))?$/.exec(item);
      const status = Number(match?.[1]);
      if (!match || status < 400 || status > 599) {
        throw new ConfigError(
          `--faults: '${item}' is not an error status (400-599), optionally with ':<retry-after seconds>', e.g. 429:2`,
        );
      }
      return match[2] === undefined ? { status } : { status, retryAfterSeconds: Number(match[2]) };
    });
}
