/**
 * A maximum matching between `left` items and `right` items where `fits(i, j)` says item i may
 * pair with item j (Kuhn's augmenting paths; trajectories are a few dozen calls at most).
 * Returns the pairs `[i, j]`, sorted by i.
 */
export function maximumMatching(
  left: number,
  right: number,
  fits: (i: number, j: number) => boolean,
): Array<[number, number]> {
  const edges = Array.from({ length: left }, (_, i) =>
    Array.from({ length: right }, (_, j) => j).filter((j) => fits(i, j)),
  );
  const owner: Array<number | undefined> = Array.from({ length: right }, () => undefined);
  const augment = (i: number, seen: boolean[]): boolean => {
    for (const j of edges[i]!) {
      if (seen[j]) continue;
      seen[j] = true;
      const held = owner[j];
      if (held === undefined || augment(held, seen)) {
        owner[j] = i;
        return true;
      }
    }
    return false;
  };
  for (let i = 0; i < left; i += 1) augment(i, []);
  return owner
    .flatMap((i, j) => (i === undefined ? [] : [[i, j] as [number, number]]))
    .sort((a, b) => a[0] - b[0]);
}

/**
 * The longest common subsequence of `left` and `right` under `fits` (order kept), as pairs
 * `[i, j]` in order: how much of an expected sequence an actual one follows.
 */
export function longestCommonSubsequence(
  left: number,
  right: number,
  fits: (i: number, j: number) => boolean,
): Array<[number, number]> {
  const table = Array.from({ length: left + 1 }, () => new Array<number>(right + 1).fill(0));
  for (let i = left - 1; i >= 0; i -= 1) {
    for (let j = right - 1; j >= 0; j -= 1) {
      table[i]![j] = fits(i, j)
        ? table[i + 1]![j + 1]! + 1
        : Math.max(table[i + 1]![j]!, table[i]![j + 1]!);
    }
  }
  const pairs: Array<[number, number]> = [];
  let [i, j] = [0, 0];
  while (i < left && j < right) {
    if (fits(i, j) && table[i]![j] === table[i + 1]![j + 1]! + 1) {
      pairs.push([i, j]);
      i += 1;
      j += 1;
    } else if (table[i + 1]![j]! >= table[i]![j + 1]!) i += 1;
    else j += 1;
  }
  return pairs;
}
