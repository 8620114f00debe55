import { showInvisible } from '../../core/terminal-text.js';
import { redactForReport } from './redact.js';

/** Text as inert HTML: redacted like every report text, bidi controls shown, markup escaped. */
export function htmlText(value: string): string {
  return showInvisible(redactForReport(value))
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
}
