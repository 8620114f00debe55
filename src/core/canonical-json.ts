/** JSON with object keys sorted at every depth: stable bytes for diffs, hashes and comparisons. */
export function canonicalize(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonicalize);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) {
      const child = (value as Record<string, unknown>)[key];
      // Defined, not assigned: assigning "__proto__" (an own key JSON.parse keeps) would set the
      // prototype instead, and the key would vanish from the bytes a hash is taken of.
      if (child !== undefined)
        Object.defineProperty(out, key, {
          value: canonicalize(child),
          enumerable: true,
          writable: true,
          configurable: true,
        });
    }
    return out;
  }
  return value;
}

export function canonicalJson(value: unknown, indent?: number): string {
  return JSON.stringify(canonicalize(value), null, indent);
}
