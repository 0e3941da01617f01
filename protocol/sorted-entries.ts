/**
 * Binary search over entries sorted by key (a transaction body's reads and writes are sorted and
 * distinct: the codec refuses anything else). One place for the client's and the replicas' look-ups.
 */
import type { Key } from './messages.ts';

/** Position of the first entry whose key is >= `key` (`list.length` when none). */
export function lowerBoundKey(list: readonly { readonly key: Key }[], key: Key): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (list[mid]!.key < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * `lowerBoundKey` for a caller that meets keys in ascending order, given the position the previous key
 * had (`from`): galloping from there, so a walk over keys that are dense in `list` costs a comparison
 * or two per key instead of a whole binary search, and sparse ones O(log) each.
 */
export function lowerBoundKeyFrom(list: readonly { readonly key: Key }[], key: Key, from: number): number {
  const n = list.length;
  let lo = from;
  if (lo >= n || !(list[lo]!.key < key)) return lo;
  // list[lo] < key: double the step until an entry >= key (or the end) bounds the answer.
  let step = 1;
  let hi = lo + 1;
  while (hi < n && list[hi]!.key < key) {
    lo = hi;
    step *= 2;
    hi = lo + step;
  }
  if (hi > n) hi = n;
  lo++;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (list[mid]!.key < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The entry of `key`, or undefined (keys distinct). */
export function entryOfKey<E extends { readonly key: Key }>(list: readonly E[], key: Key): E | undefined {
  const e = list[lowerBoundKey(list, key)];
  return e !== undefined && e.key === key ? e : undefined;
}

/** Lists up to this long are sorted by `sortByKey`'s insertion sort. */
const SHORT_SORT = 16;

const keyOrder = (a: { readonly key: Key }, b: { readonly key: Key }): number => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);

/**
 * Sorts `list` by key in place (stable) and returns it: an insertion sort for short lists, which
 * allocates nothing, `Array.prototype.sort` beyond. V8's sort sets up about 800 bytes of work space
 * per call even for two elements; a kv transaction's commit sorted two such lists (decision 0055).
 */
export function sortByKey<E extends { readonly key: Key }>(list: E[]): E[] {
  if (list.length > SHORT_SORT) return list.sort(keyOrder);
  for (let i = 1; i < list.length; i++) {
    const e = list[i]!;
    let j = i - 1;
    while (j >= 0 && list[j]!.key > e.key) {
      list[j + 1] = list[j]!;
      j--;
    }
    list[j + 1] = e;
  }
  return list;
}
