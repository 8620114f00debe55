import { maskCardNumber } from '../../core/card-numbers.js';
import type { PostToolUseHook } from '../types.js';

/**
 * PostToolUse hook that masks card numbers (first 4 + `****` + last 4) in every tool result,
 * and in the text of a tool's failure, before the model sees them. Which digit runs count as a
 * card number, and in which written forms: see `maskCardNumber` in core/card-numbers.ts.
 *
 * @example
 * const hooks = { postToolUse: [maskCardNumbers()] };
 */
export function maskCardNumbers(): PostToolUseHook {
  return (_call, output) => maskCardNumber(output);
}
