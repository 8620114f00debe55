import { maskCardNumber } from '../../runtime/hooks/mask-card-numbers.js';

/** Anthropic-style API keys; the same shape the cassette writer refuses (src/replay/secret-scan.ts). */
const API_KEY = /sk-ant-[A-Za-z0-9_-]{8,}/g;
/** Shorter values would match ordinary text. */
const MIN_SECRET_LENGTH = 8;

/**
 * The one place report output is redacted: card numbers masked (6222****3445), API keys and
 * the current ANTHROPIC_API_KEY value replaced. Every renderer that shows recorded text
 * (the HTML transcripts) passes it through here.
 *
 * @example redactForReport('account 6222020200112233445') // 'account 6222****3445'
 */
export function redactForReport(text: string, env: NodeJS.ProcessEnv = process.env): string {
  let redacted = maskCardNumber(text).replace(API_KEY, 'sk-ant-[redacted]');
  const apiKey = env.ANTHROPIC_API_KEY;
  if (apiKey && apiKey.length >= MIN_SECRET_LENGTH) {
    redacted = redacted.split(apiKey).join('[redacted ANTHROPIC_API_KEY]');
  }
  return redacted;
}
