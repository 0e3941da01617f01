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

/** The entry of `key`, or undefined (keys distinct). */
export function entryOfKey<E extends { readonly key: Key }>(list: readonly E[], key: Key): E | undefined {
  const e = list[lowerBoundKey(list, key)];
  return e !== undefined && e.key === key ? e : undefined;
}
