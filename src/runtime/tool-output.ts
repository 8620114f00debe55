import { errorMessage } from '../core/errors.js';
/**
 * Turning what a tool returned or threw into text for the model. A tool is untrusted code:
 * neither a value JSON cannot carry nor an odd thrown value may crash the run.
 */

export type ResultText = { ok: true; text: string } | { ok: false; reason: string };

/**
 * The text the model is sent for a tool's return value, or why it cannot be sent: a BigInt,
 * a Symbol, a function or a circular reference anywhere in it (JSON would throw, or drop it
 * without a word).
 */
export function resultText(value: unknown): ResultText {
  if (typeof value === 'string') return { ok: true, text: value };
  if (value === undefined) return { ok: true, text: '(no output)' };
  let problem: string | undefined;
  try {
    problem = findUnserializable(value, '', new Set());
  } catch (error) {
    // A getter, a Proxy trap or a toJSON lookup threw while the result was read.
    return {
      ok: false,
      reason: `its result cannot be read (${errorMessage(error)}); the tool is broken, so do not retry it: tell the user what you could not look up`,
    };
  }
  if (problem) {
    return {
      ok: false,
      reason: `its result cannot be sent as JSON (${problem}); the tool is broken, so do not retry it: tell the user what you could not look up`,
    };
  }
  try {
    const text = JSON.stringify(value);
    if (typeof text === 'string') return { ok: true, text };
    return { ok: false, reason: 'its result cannot be sent as JSON (it serializes to nothing)' };
  } catch (error) {
    return { ok: false, reason: `its result cannot be sent as JSON (${errorMessage(error)})` };
  }
}

function findUnserializable(value: unknown, at: string, seen: Set<object>): string | undefined {
  const where = at === '' ? 'at the top level' : `at ${at}`;
  switch (typeof value) {
    case 'bigint':
      return `a BigInt ${where}`;
    case 'symbol':
      return `a Symbol ${where}`;
    case 'function':
      return `a function ${where}`;
    case 'object':
      break;
    default:
      return undefined;
  }
  if (value === null) return undefined;
  // toJSON (Date, and classes that define it) decides its own form.
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return undefined;
  if (seen.has(value)) return `a circular reference ${where}`;
  seen.add(value);
  for (const [key, child] of Object.entries(value)) {
    const problem = findUnserializable(child, `${at}/${key}`, seen);
    if (problem) return problem;
  }
  seen.delete(value);
  return undefined;
}
