// An ordered set of distinct string keys: the in-memory engine's index structure. Keys live in sorted
// chunks of at most CHUNK_MAX entries (a two-level B-tree), so an insert or delete shifts one small
// chunk instead of the whole key array, and a range walk is a binary search plus a linear scan.
// Invariant: chunks are non-empty, each chunk is sorted, and every key of a chunk is below every key of
// the next chunk.

const CHUNK_MAX = 256;

export class SortedKeys {
  private chunks: string[][] = [];
  private count = 0;

  get size(): number {
    return this.count;
  }

  /** An independent copy (the keys are shared strings; the arrays are not). */
  clone(): SortedKeys {
    const c = new SortedKeys();
    c.chunks = this.chunks.map((ch) => ch.slice());
    c.count = this.count;
    return c;
  }

  /** Index of the first chunk whose last key is >= k (chunks.length if none). */
  private chunkFor(k: string): number {
    const c = this.chunks;
    let lo = 0;
    let hi = c.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const ch = c[mid] as string[];
      if ((ch[ch.length - 1] as string) < k) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  private static lowerBound(a: readonly string[], k: string): number {
    let lo = 0;
    let hi = a.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((a[mid] as string) < k) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  has(k: string): boolean {
    const ci = this.chunkFor(k);
    const ch = this.chunks[ci];
    if (ch === undefined) return false;
    return ch[SortedKeys.lowerBound(ch, k)] === k;
  }

  insert(k: string): void {
    const c = this.chunks;
    if (c.length === 0) {
      c.push([k]);
      this.count = 1;
      return;
    }
    let ci = this.chunkFor(k);
    if (ci === c.length) ci--; // beyond every key: append to the last chunk
    const ch = c[ci] as string[];
    const i = SortedKeys.lowerBound(ch, k);
    if (ch[i] === k) return;
    if (i === ch.length) ch.push(k);
    else ch.splice(i, 0, k);
    this.count++;
    if (ch.length > CHUNK_MAX) c.splice(ci + 1, 0, ch.splice(CHUNK_MAX >>> 1));
  }

  remove(k: string): void {
    const ci = this.chunkFor(k);
    const ch = this.chunks[ci];
    if (ch === undefined) return;
    const i = SortedKeys.lowerBound(ch, k);
    if (ch[i] !== k) return;
    ch.splice(i, 1);
    this.count--;
    if (ch.length === 0) this.chunks.splice(ci, 1);
  }

  clear(): void {
    this.chunks = [];
    this.count = 0;
  }

  /** Keys k with lo <= k < hi ('' = from the start, null = to the end), ascending or descending. */
  *range(lo: string, hi: string | null, reverse: boolean): Generator<string> {
    const c = this.chunks;
    if (!reverse) {
      let ci = lo === '' ? 0 : this.chunkFor(lo);
      let i = ci < c.length && lo !== '' ? SortedKeys.lowerBound(c[ci] as string[], lo) : 0;
      for (; ci < c.length; ci++, i = 0) {
        const ch = c[ci] as string[];
        for (; i < ch.length; i++) {
          const k = ch[i] as string;
          if (hi !== null && k >= hi) return;
          yield k;
        }
      }
      return;
    }
    let ci = hi === null ? c.length - 1 : Math.min(this.chunkFor(hi), c.length - 1);
    if (ci < 0) return;
    let i = hi === null ? (c[ci] as string[]).length - 1 : SortedKeys.lowerBound(c[ci] as string[], hi) - 1;
    for (; ci >= 0; ci--, i = (c[ci] as string[] | undefined)?.length ?? 0) {
      const ch = c[ci] as string[];
      if (i >= ch.length) i = ch.length - 1;
      for (; i >= 0; i--) {
        const k = ch[i] as string;
        if (k < lo) return;
        yield k;
      }
    }
  }

  /** Position (chunk, index) of the first key >= k; chunk === chunkCount when none. */
  seek(k: string): [number, number] {
    const ci = k === '' ? 0 : this.chunkFor(k);
    const ch = this.chunks[ci];
    return [ci, ch === undefined || k === '' ? 0 : SortedKeys.lowerBound(ch, k)];
  }

  /** The chunks, for allocation-free iteration. Invariant as above; callers must not modify them. */
  get chunkList(): readonly (readonly string[])[] {
    return this.chunks;
  }

  /** All keys in order (for rebuilding indexes). */
  *all(): Generator<string> {
    for (const ch of this.chunks) yield* ch;
  }
}
