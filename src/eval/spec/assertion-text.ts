/**
 * How much of a value (an answer, a returned text, a tool's arguments) an assertion message
 * quotes before it cuts it with `…`: chai's default, 40 characters, was too little of an answer
 * to see why a check failed. The eval runs chai with it, and our own messages use it too.
 */
export const ASSERTION_VALUE_CHARS = 200;

/** `text`, or its first ASSERTION_VALUE_CHARS characters and `…`. */
export function quotedValue(text: string): string {
  return text.length > ASSERTION_VALUE_CHARS ? `${text.slice(0, ASSERTION_VALUE_CHARS)}…` : text;
}
