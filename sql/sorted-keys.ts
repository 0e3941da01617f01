// A sorted array of distinct string keys with binary search: the in-memory engine's ordered index.
// Appends in key order (the common insert pattern) are O(1); other inserts shift the array.

export class SortedKeys {
  readonly keys: string[] = [];

  /** Index of the first key >= k. */
  lowerBound(k: string): number {
    const a = this.keys;
    let lo = 0;
    let hi = a.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((a[mid] as string) < k) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  insert(k: string): void {
    const a = this.keys;
    const n = a.length;
    if (n === 0 || (a[n - 1] as string) < k) {
      a.push(k);
      return;
    }
    const i = this.lowerBound(k);
    if (a[i] !== k) a.splice(i, 0, k);
  }

  remove(k: string): void {
    const i = this.lowerBound(k);
    if (this.keys[i] === k) this.keys.splice(i, 1);
  }

  clear(): void {
    this.keys.length = 0;
  }

  get size(): number {
    return this.keys.length;
  }
}
