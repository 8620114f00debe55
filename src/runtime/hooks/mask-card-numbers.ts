import type { PostToolUseHook } from '../types.js';

/** 12-19 digits with no digit on either side: a longer run (an id, a hash) is not a card number. */
const CARD_NUMBER = /(?<!\d)\d{12,19}(?!\d)/g;

/** Keep the first 4 and last 4 digits of each card-number-like run: 6222020200112233445 -> 6222****3445. */
export function maskCardNumber(text: string): string {
  return text.replace(CARD_NUMBER, (digits) => `${digits.slice(0, 4)}****${digits.slice(-4)}`);
}

/**
 * PostToolUse hook that masks card numbers in every tool result before the model (or a trace)
 * sees them.
 *
 * @example
 * const hooks = { postToolUse: [maskCardNumbers()] };
 */
export function maskCardNumbers(): PostToolUseHook {
  return (_call, output) => maskCardNumber(output);
}
