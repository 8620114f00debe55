import { redactForDisplay } from '../core/redact.js';
import { escapeForTerminal } from '../core/terminal-text.js';

/**
 * Text from a model, a tool or a server, made safe to print as one terminal line: redacted as
 * reports are (card numbers, credentials, the configured API key) and every control character,
 * newlines too, shown as an inert escape (`\u001b`, `\n`).
 */
export function terminalLine(text: string): string {
  return escapeForTerminal(redactForDisplay(text));
}

/** `terminalLine` for text of several lines (a model's answer): line breaks and tabs are kept. */
export function terminalText(text: string): string {
  return escapeForTerminal(redactForDisplay(text), { lines: true });
}
