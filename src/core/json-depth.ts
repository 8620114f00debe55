interface Level {
  value: object;
  depth: number;
  key: string | number;
  parent: Level | undefined;
}

/**
 * The path to the first array or object nested deeper than `limit` levels (the value itself
 * is level 1), or undefined. Iterative, so any depth JSON.parse accepts is measured without
 * overflowing the stack, which every recursive step afterwards (JSON.stringify, canonicalize)
 * would do.
 */
export function pathDeeperThan(value: unknown, limit: number): Array<string | number> | undefined {
  if (value === null || typeof value !== 'object') return undefined;
  const stack: Level[] = [{ value, depth: 1, key: '', parent: undefined }];
  for (let level = stack.pop(); level !== undefined; level = stack.pop()) {
    if (level.depth > limit) return pathTo(level);
    const depth = level.depth + 1;
    if (Array.isArray(level.value)) {
      level.value.forEach((item: unknown, index) => {
        if (item !== null && typeof item === 'object')
          stack.push({ value: item, depth, key: index, parent: level });
      });
      continue;
    }
    const object = level.value as Record<string, unknown>;
    for (const key in object) {
      const item = object[key];
      if (item !== null && typeof item === 'object')
        stack.push({ value: item, depth, key, parent: level });
    }
  }
  return undefined;
}

function pathTo(level: Level): Array<string | number> {
  const path: Array<string | number> = [];
  for (let at: Level | undefined = level; at?.parent !== undefined; at = at.parent)
    path.push(at.key);
  return path.reverse();
}
