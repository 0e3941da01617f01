/**
 * Per-table write history and high-water mark of one replica (DESIGN §4, PROTOCOL §4.3 and §5).
 *
 * - `writes`: one entry per transaction that wrote the table here, prepared or committed, sorted by
 *   timestamp. A query's predicate carries the table version: the newest committed write to the table
 *   below the reader's timestamp (raised by the execution to what it actually read and to the high-water
 *   mark). SemanticCC (PROTOCOL §5 step 7, next slice) walks the same list newest first.
 * - `high`: the highest table version any query observed here; write monotonicity (§5 step 2) compares a
 *   writer's timestamp with it.
 *
 * Invariants: `writes` is sorted by ascending timestamp with at most one entry per (timestamp, txn);
 * an entry is committed only after the transaction committed here; aborted transactions have no entry;
 * `high` never decreases.
 */
import type { DigestKey } from '../../protocol/ids.ts';
import { tsEquals, tsLess, ZERO_TS, type Timestamp } from '../../protocol/timestamp.ts';

export interface TableWrite {
  readonly ts: Timestamp;
  readonly txn: DigestKey;
  committed: boolean;
}

export class TableState {
  readonly writes: TableWrite[] = [];
  high: Timestamp = ZERO_TS;

  /** Position of the first entry with timestamp >= t. */
  #lowerBound(t: Timestamp): number {
    const w = this.writes;
    let lo = 0;
    let hi = w.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (tsLess(w[mid]!.ts, t)) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  #find(t: Timestamp, txn: DigestKey): number {
    for (let i = this.#lowerBound(t); i < this.writes.length && tsEquals(this.writes[i]!.ts, t); i++) {
      if (this.writes[i]!.txn === txn) return i;
    }
    return -1;
  }

  /** Records a write of `txn` at `t` (idempotent: one entry per transaction, however many rows). */
  noteWrite(t: Timestamp, txn: DigestKey, committed: boolean): void {
    const i = this.#find(t, txn);
    if (i >= 0) {
      if (committed) this.writes[i]!.committed = true;
      return;
    }
    const at = this.#lowerBound(t);
    this.writes.splice(at, 0, { ts: t, txn, committed });
  }

  /** Forgets an aborted transaction's write. */
  dropWrite(t: Timestamp, txn: DigestKey): void {
    const i = this.#find(t, txn);
    if (i >= 0) this.writes.splice(i, 1);
  }

  /** Timestamp of the newest committed write strictly below `t` (ZERO_TS when none). */
  committedVersionBelow(t: Timestamp): Timestamp {
    for (let i = this.#lowerBound(t) - 1; i >= 0; i--) {
      const w = this.writes[i]!;
      if (w.committed) return w.ts;
    }
    return ZERO_TS;
  }

  /** Raises the high-water mark to `t` (no effect when it is already at least `t`). */
  observe(t: Timestamp): void {
    if (tsLess(this.high, t)) this.high = t;
  }

  /** Drops committed entries older than the newest committed one below `watermark`. */
  collect(watermark: Timestamp): void {
    let keepFrom = -1;
    for (let i = this.#lowerBound(watermark) - 1; i >= 0; i--) {
      if (this.writes[i]!.committed) {
        keepFrom = i;
        break;
      }
    }
    if (keepFrom <= 0) return;
    let w = 0;
    for (let r = 0; r < this.writes.length; r++) {
      const e = this.writes[r]!;
      if (r >= keepFrom || !e.committed) this.writes[w++] = e;
    }
    this.writes.length = w;
  }
}
