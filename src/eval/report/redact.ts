import { redactForDisplay } from '../../core/redact.js';

/** Shorter values would match ordinary text. */
const MIN_SECRET_LENGTH = 8;

/**
 * The one place report output is redacted: the core display redaction (card numbers in every
 * written form masked to 6222****3445, credential shapes and secret header values replaced)
 * plus the current ANTHROPIC_API_KEY value, whatever its shape (a gateway token, say). Every
 * renderer that shows recorded text (the HTML transcripts) passes it through here.
 *
 * @example redactForReport('account 6222020200112233445') // 'account 6222****3445'
 */
export function redactForReport(text: string, env: NodeJS.ProcessEnv = process.env): string {
  let redacted = redactForDisplay(text);
  const apiKey = env.ANTHROPIC_API_KEY;
  if (apiKey && apiKey.length >= MIN_SECRET_LENGTH) {
    redacted = redacted.split(apiKey).join('[redacted ANTHROPIC_API_KEY]');
  }
  return redacted;
}
