/**
 * The control characters (C0 but the line feed, DEL, C1) in printed text, as code points such
 * as `U+001B`: a test expects none outside what the printer itself adds.
 */
export function controlCharacters(text: string): string[] {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: finding them is the point.
  const found = text.match(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/g) ?? [];
  return found.map((char) => `U+${char.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`);
}
