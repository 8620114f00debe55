import { redactForDisplay } from '../core/redact.js';

/**
 * C0 and C1 control characters and bidirectional overrides: in server or model text they could
 * move the cursor, clear the screen, retitle the window or reorder what a reader sees.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point.
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point.
const CONTROL_BUT_NEWLINE = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

const visible = (character: string) =>
  `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`;

/**
 * Text from a model, a tool or a server, made safe to print as one terminal line: redacted as
 * reports are (card numbers, credentials, the configured API key) and every control character,
 * newlines too, shown as an inert `\u001b` escape.
 */
export function terminalLine(text: string): string {
  return redactForDisplay(text).replace(CONTROL, visible);
}

/** `terminalLine` for text of several lines (a model's answer): newlines are kept. */
export function terminalText(text: string): string {
  return redactForDisplay(text).replace(CONTROL_BUT_NEWLINE, visible);
}
