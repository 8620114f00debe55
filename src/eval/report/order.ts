/** Natural order, so T10 sorts after T9. */
export function compareNames(left: string, right: string): number {
  return left.localeCompare(right, 'en', { numeric: true });
}
