/**
 * The multi-version store of one replica (DESIGN §4): per key, a chain of committed versions and a
 * chain of prepared versions, both ordered by timestamp, plus the reads recorded against the key
 * (MVTSO needs them to catch writes that would invalidate a later reader: PROTOCOL §5 step 5).
 *
 * Invariants:
 * - `committed` and `prepared` are sorted by ascending timestamp; a timestamp appears at most once
 *   in each chain (timestamps are unique per transaction).
 * - A prepared version belongs to a transaction that is prepared here and not yet decided; commit
 *   moves it to `committed`, abort removes it (PROTOCOL §9: aborted prepared versions are never
 *   visible after the abort is applied).
 * Garbage collection: versions and read records older than the low watermark are dropped when a
 * key is written (`collect`), keeping the newest committed version below the watermark.
 */
import type { DigestKey } from '../../protocol/ids.ts';
import type { CommittedTxn, Key } from '../../protocol/messages.ts';
import { tsLess, type Timestamp } from '../../protocol/timestamp.ts';

export interface Version {
  readonly ts: Timestamp;
  /** null marks a deletion. */
  readonly value: Uint8Array | null;
  readonly txn: DigestKey;
  /** Commit proof of the writer (null while prepared): point reads return it, ABORT votes carry it. */
  readonly proof: CommittedTxn | null;
}

export interface ReadRecord {
  readonly readerTs: Timestamp;
  readonly version: Timestamp;
  readonly txn: DigestKey;
  /** Commit proof of the reader (null while prepared). */
  readonly proof: CommittedTxn | null;
}

export class KeyState {
  readonly committed: Version[] = [];
  readonly prepared: Version[] = [];
  readonly committedReads: ReadRecord[] = [];
  readonly preparedReads: ReadRecord[] = [];
}

/** Newest version in `chain` with timestamp strictly below `t`. */
export function newestBelow(chain: readonly Version[], t: Timestamp): Version | undefined {
  for (let i = chain.length - 1; i >= 0; i--) {
    const v = chain[i]!;
    if (tsLess(v.ts, t)) return v;
  }
  return undefined;
}

/** Inserts keeping ascending timestamp order (appends in the common case). */
export function insertVersion(chain: Version[], v: Version): void {
  let i = chain.length;
  while (i > 0 && tsLess(v.ts, chain[i - 1]!.ts)) i--;
  chain.splice(i, 0, v);
}

export function removeByTxn<T extends { readonly txn: DigestKey }>(list: T[], txn: DigestKey): void {
  for (let i = list.length - 1; i >= 0; i--) if (list[i]!.txn === txn) list.splice(i, 1);
}

export class Store {
  readonly #keys = new Map<Key, KeyState>();

  get(key: Key): KeyState | undefined {
    return this.#keys.get(key);
  }

  getOrCreate(key: Key): KeyState {
    let ks = this.#keys.get(key);
    if (ks === undefined) {
      ks = new KeyState();
      this.#keys.set(key, ks);
    }
    return ks;
  }

  get size(): number {
    return this.#keys.size;
  }

  /**
   * Drops history below `watermark`: committed versions older than the newest one below it, and
   * committed read records of readers below it. Reads and prepares below the watermark are refused
   * by the replica, so nothing can need what is dropped.
   */
  collect(ks: KeyState, watermark: Timestamp): void {
    let keepFrom = 0;
    for (let i = ks.committed.length - 1; i >= 0; i--) {
      if (tsLess(ks.committed[i]!.ts, watermark)) {
        keepFrom = i;
        break;
      }
    }
    if (keepFrom > 0) ks.committed.splice(0, keepFrom);
    // Read records arrive in commit order, not timestamp order: compact in place.
    const reads = ks.committedReads;
    let w = 0;
    for (let r = 0; r < reads.length; r++) {
      const rec = reads[r]!;
      if (!tsLess(rec.readerTs, watermark)) reads[w++] = rec;
    }
    reads.length = w;
  }
}
