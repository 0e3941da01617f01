/**
 * Per-table write history, recorded predicates and high-water mark of one replica (DESIGN §4,
 * PROTOCOL §4.3 and §5; SemanticCC in semantic-cc.ts reads and maintains them).
 *
 * - `writes`: one entry per transaction that wrote the table here, prepared or committed, sorted by
 *   timestamp. A query's predicate carries the table version: the newest committed write to the table
 *   below the reader's timestamp (raised by the execution to what it actually read and to the high-water
 *   mark). SemanticCC's reader side (§5 step 7) walks the same list newest first; an entry flagged
 *   `nonMonotonic` (accepted although older than high - grace1, §5 step 2) is checked further back.
 * - `predicates`: the scan predicates of transactions prepared or committed here (§5 step 9), sorted by
 *   the reader's timestamp; SemanticCC's writer side (§5 step 8) checks writes against those above them.
 * - `high`: the highest table version any query observed here; write monotonicity (§5 step 2) compares a
 *   writer's timestamp with it.
 *
 * Only SQL tables have a history (`sqlTableOfKey`): table 0 (the catalog) and raw key-value keys are not
 * rows of any table.
 *
 * Invariants: `writes` is sorted by ascending timestamp with at most one entry per (timestamp, txn);
 * an entry is committed only after the transaction committed here; aborted transactions have no entry
 * and no predicates; `predicates` is sorted by ascending reader timestamp; `high` never decreases.
 * Garbage collection is lazy (amortized): entries below the low watermark may linger a while, which
 * only costs memory (readers and writers below the watermark are refused).
 */
import type { DigestKey } from '../../protocol/ids.ts';
import type { Key, ReadEntry } from '../../protocol/messages.ts';
import { tsEquals, tsLess, ZERO_TS, type Timestamp } from '../../protocol/timestamp.ts';
import type { IndexDef, TableDef } from '../../sql/catalog.ts';
import type { ScanPredicate } from '../../sql/predicate-codec.ts';
import { TABLE_PREFIX_BYTES, tableIdOfKey } from '../../sql/row-key.ts';
import { lowerBound } from './ordered-keys.ts';

export interface TableWrite {
  readonly ts: Timestamp;
  readonly txn: DigestKey;
  /**
   * The rows of this table the transaction wrote here (so rows this replica owns: the store applies
   * only those), sorted and distinct: SemanticCC's reader side
   * walks them without decoding the writer's body (a decided transaction is kept as bytes, and decoding
   * it for every predicate check kept its whole body alive for the history window).
   */
  readonly keys: Key[];
  committed: boolean;
  /** Accepted although older than the table's high-water mark minus grace1 (PROTOCOL §5 step 2). */
  nonMonotonic: boolean;
}

/** One scan predicate of a transaction, as recorded at prepare (or at commit when never prepared here). */
export interface TablePredicate {
  readonly readerTs: Timestamp;
  readonly txn: DigestKey;
  /** The table version validation used (the client's claim, capped by what this replica could justify). */
  readonly tableVersion: Timestamp;
  /**
   * The scan and the table (and index) definition it was bound against; null scan: the predicate could
   * not be resolved (a restart replaying before the catalog), so it conservatively covers every row.
   */
  readonly scan: ScanPredicate | null;
  readonly def: TableDef | null;
  readonly index: IndexDef | null;
  /** The reader's read set (sorted by key): rows in it are protected by MVTSO, not by the predicate. */
  readonly reads: readonly ReadEntry[];
  committed: boolean;
}

/** The table whose history a store key belongs to: first byte 0 and a non-zero table id, else null. */
export function sqlTableOfKey(key: Key): number | null {
  if (key.length < TABLE_PREFIX_BYTES || key.charCodeAt(0) !== 0) return null;
  const id = tableIdOfKey(key);
  return id === 0 ? null : id;
}

/** Adds `key` to a sorted list of distinct keys (at the end in the common case: writes arrive sorted). */
function addSorted(keys: Key[], key: Key): void {
  const i = lowerBound(keys, key);
  if (keys[i] !== key) keys.splice(i, 0, key);
}

/** Compaction is worth it once this many dead entries lead the list (or a sixteenth of it). */
const COMPACT_MIN = 1024;

/** Position of the first entry whose reader timestamp is > t, in a list sorted by it (list.length when none). */
export function firstReaderAbove(list: readonly { readonly readerTs: Timestamp }[], t: Timestamp): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (tsLess(t, list[mid]!.readerTs)) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

export class TableState {
  readonly writes: TableWrite[] = [];
  readonly predicates: TablePredicate[] = [];
  high: Timestamp = ZERO_TS;

  /** Position of the first write with timestamp >= t (writes.length when none). */
  firstWriteAtOrAbove(t: Timestamp): number {
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

  /** Position of the first predicate whose reader timestamp is > t (predicates.length when none). */
  firstPredicateAbove(t: Timestamp): number {
    return firstReaderAbove(this.predicates, t);
  }

  #firstPredicateAtOrAbove(t: Timestamp): number {
    const p = this.predicates;
    let lo = 0;
    let hi = p.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (tsLess(p[mid]!.readerTs, t)) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  #find(t: Timestamp, txn: DigestKey): number {
    for (let i = this.firstWriteAtOrAbove(t); i < this.writes.length && tsEquals(this.writes[i]!.ts, t); i++) {
      if (this.writes[i]!.txn === txn) return i;
    }
    return -1;
  }

  /**
   * Records `txn`'s write of row `key` at `t`: one entry per transaction, however many rows, listing
   * them. A repeated note (the commit of a prepared write) can only raise `committed` and
   * `nonMonotonic`, and adds the row only if it is new.
   */
  noteWrite(t: Timestamp, txn: DigestKey, key: Key, committed: boolean, nonMonotonic = false): void {
    const i = this.#find(t, txn);
    if (i < 0) {
      this.writes.splice(this.firstWriteAtOrAbove(t), 0, { ts: t, txn, keys: [key], committed, nonMonotonic });
      return;
    }
    const e = this.writes[i]!;
    if (committed) e.committed = true;
    if (nonMonotonic) e.nonMonotonic = true;
    addSorted(e.keys, key);
  }

  /** Forgets an aborted transaction's write. */
  dropWrite(t: Timestamp, txn: DigestKey): void {
    const i = this.#find(t, txn);
    if (i >= 0) this.writes.splice(i, 1);
  }

  /** Timestamp of the newest committed write strictly below `t` (ZERO_TS when none). */
  committedVersionBelow(t: Timestamp): Timestamp {
    for (let i = this.firstWriteAtOrAbove(t) - 1; i >= 0; i--) {
      const w = this.writes[i]!;
      if (w.committed) return w.ts;
    }
    return ZERO_TS;
  }

  /** Raises the high-water mark to `t` (no effect when it is already at least `t`). */
  observe(t: Timestamp): void {
    if (tsLess(this.high, t)) this.high = t;
  }

  /** Records a predicate (kept in reader-timestamp order; appends in the common case). */
  addPredicate(p: TablePredicate): void {
    const list = this.predicates;
    let i = list.length;
    while (i > 0 && tsLess(p.readerTs, list[i - 1]!.readerTs)) i--;
    list.splice(i, 0, p);
  }

  /** Marks every predicate of `txn` (a reader at `readerTs`) committed. */
  commitPredicates(readerTs: Timestamp, txn: DigestKey): void {
    const list = this.predicates;
    for (let i = this.#firstPredicateAtOrAbove(readerTs); i < list.length && tsEquals(list[i]!.readerTs, readerTs); i++) {
      if (list[i]!.txn === txn) list[i]!.committed = true;
    }
  }

  /** Forgets every predicate of an aborted `txn` (a reader at `readerTs`). */
  dropPredicates(readerTs: Timestamp, txn: DigestKey): void {
    const list = this.predicates;
    const from = this.#firstPredicateAtOrAbove(readerTs);
    let to = from;
    while (to < list.length && tsEquals(list[to]!.readerTs, readerTs)) to++;
    let w = from;
    for (let r = from; r < to; r++) if (list[r]!.txn !== txn) list[w++] = list[r]!;
    if (w < to) list.splice(w, to - w);
  }

  /**
   * Drops history below `watermark`: committed writes older than the newest committed one below it,
   * and predicates of readers below it (no writer below the watermark is validated any more).
   */
  collect(watermark: Timestamp): void {
    let keepFrom = -1;
    for (let i = this.firstWriteAtOrAbove(watermark) - 1; i >= 0; i--) {
      if (this.writes[i]!.committed) {
        keepFrom = i;
        break;
      }
    }
    if (keepFrom > 0 && (keepFrom >= COMPACT_MIN || keepFrom * 16 >= this.writes.length)) {
      let w = 0;
      for (let r = 0; r < this.writes.length; r++) {
        const e = this.writes[r]!;
        if (r >= keepFrom || !e.committed) this.writes[w++] = e;
      }
      this.writes.length = w;
    }
    const dead = this.#firstPredicateAtOrAbove(watermark);
    if (dead > 0 && (dead >= COMPACT_MIN || dead * 16 >= this.predicates.length)) this.predicates.splice(0, dead);
  }
}
