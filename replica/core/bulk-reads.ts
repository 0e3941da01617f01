/**
 * Read records of large read sets (decision 0028): one record per transaction instead of one per key.
 *
 * MVTSO's step 5 (PROTOCOL §5) needs, for a written key, every prepared or committed reader above the
 * writer's T that read the key at a version below T. Per key that is one `ReadRecord` on the key's chain
 * (store.ts), pushed when a transaction prepares and again when it commits, removed when it commits or
 * aborts. A range read of 10,000 rows makes that 10,000 objects and map look-ups at prepare, 20,000 at
 * commit, at every replica, and the committed ones stay on chains that nobody writes (they are collected
 * when their key is written). A transaction whose read set has at least `BULK_READS_MIN` entries is
 * recorded here instead, once, with its read set as it arrived (TxnBody.reads: sorted by key and
 * distinct, checked by the codec), and step 5 looks the written key up in it by binary search.
 *
 * Equivalence with the per-key records: a record is kept exactly while the per-key ones would be (added
 * at prepare or commit, the prepared one removed at commit or abort), and `conflict` answers for a key
 * what the key's records would: a committed reader above T that read it below T (with its proof), else
 * a prepared one. Keys of other shards in the read set are never asked for (only owned written keys
 * are validated, and a key has one owner). Records below the low watermark are dropped: a writer below
 * it is refused, and one above it is never below such a reader.
 *
 * Records are kept sorted by reader timestamp, so a writer at T visits only the readers above T (few:
 * those that prepared after the writer's clock read T).
 */
import type { DigestKey } from '../../protocol/ids.ts';
import type { CommittedTxn, Key, ReadEntry, TxnBody } from '../../protocol/messages.ts';
import { entryOfKey } from '../../protocol/sorted-entries.ts';
import { tsLess, type Timestamp } from '../../protocol/timestamp.ts';
import { firstReaderAbove } from './table-writes.ts';

/** Read sets at least this large are recorded once per transaction (below it, once per key). */
export const BULK_READS_MIN = 64;

export function isBulkReadSet(body: TxnBody): boolean {
  return body.reads.length >= BULK_READS_MIN;
}

export interface BulkRead {
  readonly readerTs: Timestamp;
  readonly txn: DigestKey;
  /** Commit proof of the reader (null while prepared). */
  readonly proof: CommittedTxn | null;
  /** The reader's whole read set, sorted by key, distinct (TxnBody.reads). */
  readonly reads: readonly ReadEntry[];
}

/** Step 5's answer for one written key: a committed reader (ABORT with its proof) or a prepared one (ABSTAIN). */
export type BulkReadConflict = { readonly committed: CommittedTxn } | { readonly prepared: DigestKey };

/** Whether the reader read `key` at a version below `t`. */
function readBelow(r: BulkRead, key: Key, t: Timestamp): boolean {
  const e = entryOfKey(r.reads, key);
  return e !== undefined && tsLess(e.version, t);
}

/** Inserts keeping ascending reader timestamps (appends in the common case). */
function insertByReaderTs(list: BulkRead[], r: BulkRead): void {
  let i = list.length;
  while (i > 0 && tsLess(r.readerTs, list[i - 1]!.readerTs)) i--;
  list.splice(i, 0, r);
}

export class BulkReads {
  /** Invariant: sorted by ascending `readerTs`; one record per transaction; `proof` set on each. */
  readonly #committed: BulkRead[] = [];
  /** Invariant: sorted by ascending `readerTs`; transactions prepared here and undecided; `proof` null. */
  readonly #prepared: BulkRead[] = [];

  addPrepared(txn: DigestKey, body: TxnBody): void {
    insertByReaderTs(this.#prepared, { readerTs: body.ts, txn, proof: null, reads: body.reads });
  }

  removePrepared(txn: DigestKey): void {
    const i = this.#prepared.findIndex((r) => r.txn === txn);
    if (i >= 0) this.#prepared.splice(i, 1);
  }

  /** Records a committed reader and drops the records below `watermark`. */
  addCommitted(txn: DigestKey, body: TxnBody, proof: CommittedTxn, watermark: Timestamp): void {
    insertByReaderTs(this.#committed, { readerTs: body.ts, txn, proof, reads: body.reads });
    let drop = 0;
    while (drop < this.#committed.length && tsLess(this.#committed[drop]!.readerTs, watermark)) drop++;
    if (drop > 0) this.#committed.splice(0, drop);
  }

  /** Step 5 for a written `key` at `t`: a committed reader above t that read it below t, else a prepared one. */
  conflict(key: Key, t: Timestamp): BulkReadConflict | null {
    const c = this.#committed;
    for (let i = firstReaderAbove(c, t); i < c.length; i++) {
      if (readBelow(c[i]!, key, t)) return { committed: c[i]!.proof! };
    }
    const p = this.#prepared;
    for (let i = firstReaderAbove(p, t); i < p.length; i++) {
      if (readBelow(p[i]!, key, t)) return { prepared: p[i]!.txn };
    }
    return null;
  }

  /** Proofs of the committed readers (checkpoints keep them, as they keep those on chains). */
  committedProofs(): CommittedTxn[] {
    return this.#committed.map((r) => r.proof!);
  }

  get size(): { readonly committed: number; readonly prepared: number } {
    return { committed: this.#committed.length, prepared: this.#prepared.length };
  }
}
