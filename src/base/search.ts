// Binary search over sorted arrays (records by offset, items by message index).

/** Index of the first element for which `before` is false, in an array where `before` holds for a prefix. */
export function lowerBound<T>(sorted: readonly T[], before: (element: T) => boolean): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (before(sorted[middle] as T)) low = middle + 1;
    else high = middle;
  }
  return low;
}
