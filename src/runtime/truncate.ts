/**
 * The first `maxChars` characters of `text`, one fewer when the cut would split a
 * surrogate pair (half an emoji is not valid text to send to the model).
 */
export function keepHead(text: string, maxChars: number): string {
  const limit = Math.max(0, Math.floor(maxChars));
  if (text.length <= limit) return text;
  const code = text.charCodeAt(limit - 1);
  const splitsPair = code >= 0xd800 && code <= 0xdbff;
  return text.slice(0, splitsPair ? limit - 1 : limit);
}

/**
 * Keep the head of a tool result and say how much was cut, so the model knows it saw only part.
 *
 * @example
 * truncateResult('abcdef', 4); // 'abcd\n[truncated: 4 of 6 characters kept]'
 */
export function truncateResult(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  const head = keepHead(text, maxChars);
  return `${head}\n[truncated: ${head.length} of ${text.length} characters kept]`;
}
