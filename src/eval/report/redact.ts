import { redactForDisplay } from '../../core/redact.js';
import { replaceAll } from '../../core/secret-values.js';

/**
 * The one place report output is redacted: the core display redaction (card numbers in every
 * written form masked to 6222****3445, credential shapes and secret header values replaced)
 * plus the current ANTHROPIC_API_KEY value, whatever its shape (a gateway token, say). Every
 * renderer that shows recorded text (the HTML transcripts) passes it through here.
 *
 * @example redactForReport('account 6222020200112233445') // 'account 6222****3445'
 */
export function redactForReport(text: string, env: NodeJS.ProcessEnv = process.env): string {
  const apiKey = env.ANTHROPIC_API_KEY;
  // The exact value first: a card or credential mask inside the key would hide it from the match.
  return redactForDisplay(apiKey ? replaceAll(text, apiKey, '[redacted ANTHROPIC_API_KEY]') : text);
}
