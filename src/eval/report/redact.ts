import { redactForDisplay } from '../../core/redact.js';
import { maskConfiguredKeys } from '../../core/secret-values.js';

/**
 * The one place report output is redacted: the core display redaction (card numbers in every
 * written form masked to 6222****3445, credential shapes and secret header values replaced,
 * and every configured key's exact value, whatever its shape). runEvals, mergeEvals and
 * finishRun register the environment's keys once; `env` registers another's (tests). Every
 * renderer that shows recorded text (the HTML transcripts) passes it through here.
 *
 * @example redactForReport('account 6222020200112233445') // 'account 6222****3445'
 */
export function redactForReport(text: string, env?: NodeJS.ProcessEnv): string {
  if (env) maskConfiguredKeys(env);
  return redactForDisplay(text);
}
