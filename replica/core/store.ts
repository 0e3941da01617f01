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
 *
 * For SQL queries (PROTOCOL §4.2-4.3) the store also keeps the keys of the SQL key space in byte order
 * (`keysInRange`, an OrderedKeys index of every such key ever created, so a range scan walks chains in
 * key order). The SQL key space is the keys whose first byte is 0: the catalog (table 0) and every table
 * and index (sql/catalog.ts keeps their ids below 2^24). Raw key-value keys (the kv API's) are never
 * walked in order, so they stay out of the index: keeping 100,000 of them sorted cost about a quarter
 * of the store's CPU on the kv commit path (decision 0055). Per table
 * (the 4-byte prefix of row keys, sql/row-key.ts; SQL tables only: `sqlTableOfKey`), the table's write
 * history, predicates and high-water mark (`table`, table-writes.ts). The write history is maintained
 * by `prepareWrite`, `commitWrite` and `abortWrite`; writers that still use the chain functions
 * directly (`insertVersion`, `removeByTxn`) leave them untouched.
 */
import type { DigestKey } from '../../protocol/ids.ts';
import type { CommittedTxn, Key } from '../../protocol/messages.ts';
import { StoredProof } from '../../protocol/stored.ts';
import { tsEquals, tsLess, type Timestamp } from '../../protocol/timestamp.ts';
import { BulkReads } from './bulk-reads.ts';
import { OrderedKeys, type KeyRangeIterator } from './ordered-keys.ts';
import { sqlTableOfKey, TableState } from './table-writes.ts';

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

/**
 * The empty chain and read list every key starts with, shared. Frozen, so that an entry added other
 * than through `KeyState`'s methods (which replace it with an array of its own) fails at once instead of
 * landing in every key.
 */
const NO_VERSIONS = Object.freeze([]) as readonly Version[] as Version[];
const NO_READS = Object.freeze([]) as readonly ReadRecord[] as ReadRecord[];

/**
 * One key's chains. A store holds one per key ever written or read (100,000 and more), each kept for
 * good: its arrays start shared and empty, and up to four entries each is an array of exactly its length
 * (`appendedExactly`; an array that grows by `push` reserves 17 slots and more), so a key with one
 * committed version and one read record costs two small arrays instead of four with 34 slots.
 * Invariant: the arrays are only added to through `addCommitted`, `addPrepared`, `addCommittedRead`
 * and `addPreparedRead`; removing in place (`removeByTxn`, `splice`) is fine, except a committed chain's
 * newest entry, which `committedHead` mirrors (only older committed versions are ever dropped).
 */
export class KeyState {
  // The fields a scan reads for every row come first (decision 0050: a scan's cost in a replica is
  // mostly the cache lines it touches per row).
  committed: Version[] = NO_VERSIONS;
  /**
   * The newest committed version, `committed`'s last entry (undefined while there is none). Set by
   * `addCommitted`, the only change to a chain's newest entry (`Store.collect` drops older ones only),
   * so a scan checks its cached row against it without touching the chain (decision 0050).
   */
  committedHead: Version | undefined = undefined;
  prepared: Version[] = NO_VERSIONS;
  /**
   * Force-materialized versions (PROTOCOL §4.2 step 5): writes of transactions this replica voted
   * against, applied only so snapshot reads that name them can see them. Sorted like `prepared`;
   * invisible to eager and point reads, to validation and to snapshot votes. Null until first used.
   */
  forced: Version[] | null = null;
  /**
   * The row a scan last built from this chain, or the version it last scanned (replica-row-source.ts,
   * decision 0019): a cache tied to one version, never protocol state; null until a scan fills it.
   */
  scanned: unknown = null;
  committedReads: ReadRecord[] = NO_READS;
  preparedReads: ReadRecord[] = NO_READS;

  addCommitted(v: Version): void {
    const chain = withVersion(this.committed, v);
    this.committed = chain;
    this.committedHead = chain[chain.length - 1];
  }

  addPrepared(v: Version): void {
    this.prepared = withVersion(this.prepared, v);
  }

  /**
   * `t`, or an equal timestamp object the store already keeps: a committed read record is kept for the
   * history window, and the version it read is usually the key's newest committed one, whose timestamp
   * it can share instead of keeping the one decoded from the reader's transaction (decision 0057).
   */
  versionTs(t: Timestamp): Timestamp {
    const head = this.committedHead;
    return head !== undefined && tsEquals(head.ts, t) ? head.ts : t;
  }

  addCommittedRead(r: ReadRecord): void {
    this.committedReads = appendedExactly(this.committedReads, r);
  }

  addPreparedRead(r: ReadRecord): void {
    this.preparedReads = appendedExactly(this.preparedReads, r);
  }
}

/**
 * `list` with `x` appended. A key's lists are mostly short (a version or two, a few read records
 * between collections) and live for the history window, so the young generation's collector copies
 * each of them twice. `push` grows an array to length + length / 2 + 16 slots (17 for a second entry:
 * 136 bytes more to copy, per list, per transaction that adds to it), so up to four entries the list
 * is replaced by a new array of exactly its length; longer ones grow in place (decision 0057).
 */
function appendedExactly<T>(list: T[], x: T): T[] {
  switch (list.length) {
    case 0:
      return [x];
    case 1:
      return [list[0]!, x];
    case 2:
      return [list[0]!, list[1]!, x];
    case 3:
      return [list[0]!, list[1]!, list[2]!, x];
    default:
      list.push(x);
      return list;
  }
}

/** `chain` with `v` inserted in timestamp order (`appendedExactly`, then `placeNewest`). */
function withVersion(chain: Version[], v: Version): Version[] {
  return placeNewest(appendedExactly(chain, v));
}

/** Moves `chain`'s last version down past the versions newer than it (the rest is in order); returns `chain`. */
function placeNewest(chain: Version[]): Version[] {
  const v = chain[chain.length - 1]!;
  let i = chain.length - 1;
  for (; i > 0 && tsLess(v.ts, chain[i - 1]!.ts); i--) chain[i] = chain[i - 1]!;
  chain[i] = v;
  return chain;
}

/**
 * Whether `key` is in the SQL key space (first byte 0), whose keys the store keeps in byte order for
 * range walks; other keys (the kv API's) are only ever looked up by themselves.
 */
export function inKeyOrder(key: Key): boolean {
  return key.charCodeAt(0) === 0;
}

/** Newest version in `chain` with timestamp strictly below `t`. */
export function newestBelow(chain: readonly Version[], t: Timestamp): Version | undefined {
  for (let i = chain.length - 1; i >= 0; i--) {
    const v = chain[i]!;
    if (tsLess(v.ts, t)) return v;
  }
  return undefined;
}

/** Inserts keeping ascending timestamp order (appends in the common case), in place. */
export function insertVersion(chain: Version[], v: Version): void {
  chain.push(v);
  placeNewest(chain);
}

export function removeByTxn<T extends { readonly txn: DigestKey }>(list: T[], txn: DigestKey): void {
  let w = 0;
  for (let r = 0; r < list.length; r++) {
    const x = list[r]!;
    if (x.txn !== txn) list[w++] = x;
  }
  // (Never on a shared empty list: it is frozen.)
  if (w !== list.length) list.length = w;
}

/**
 * A transaction's key states, at the positions of its body's reads and writes (undefined: a key this
 * shard does not own, or one without a state when validation looked). Validation looks each key up once;
 * prepare, and commit or abort milliseconds later (on a decoded copy of the same body, so fresh key
 * strings whose hashes are computed again), reuse them: those cold hash-table probes were the largest
 * single item of a replica's CPU in the ycsb benchmark (decision 0060). A state stays in the store while
 * its key is in a storage anyone can name (only `deleteRange` removes states).
 * `reads` null: a large read set recorded once per transaction (bulk-reads.ts).
 */
export interface TxnKeyStates {
  readonly reads: (KeyState | undefined)[] | null;
  readonly writes: (KeyState | undefined)[];
}

export class Store {
  readonly #keys = new Map<Key, KeyState>();
  /** Invariant: holds exactly the keys of `#keys` that are in the SQL key space (`inKeyOrder`). */
  readonly #ordered = new OrderedKeys<KeyState>();
  readonly #tables = new Map<number, TableState>();
  /** Read records of large read sets, one per transaction (bulk-reads.ts, decision 0028). */
  readonly bulkReads = new BulkReads();

  get(key: Key): KeyState | undefined {
    return this.#keys.get(key);
  }

  getOrCreate(key: Key): KeyState {
    let ks = this.#keys.get(key);
    if (ks === undefined) {
      ks = new KeyState();
      this.#keys.set(key, ks);
      if (inKeyOrder(key)) this.#ordered.insert(key, ks);
    }
    return ks;
  }

  /** Every key's state, in no particular order. */
  values(): IterableIterator<KeyState> {
    return this.#keys.values();
  }

  /**
   * Keys k of the SQL key space (`inKeyOrder`) with lo <= k < hi (hi null = to the end of that space) in
   * byte order, descending when `reverse`; the walk's `current` is the state of the key it last returned
   * (no `get` per key). Every caller walks a table's or a storage's range, which lies inside the space.
   */
  keysInRange(lo: Key, hi: Key | null, reverse = false): KeyRangeIterator<KeyState> {
    return this.#ordered.range(lo, hi, reverse);
  }

  /** The write history and high-water mark of a table (created empty on first use). */
  table(tableId: number): TableState {
    let t = this.#tables.get(tableId);
    if (t === undefined) {
      t = new TableState();
      this.#tables.set(tableId, t);
    }
    return t;
  }

  /**
   * Applies a prepared write as a visible prepared version and notes it in its table's history. Returns
   * the key's state (`ks`: the key's state when the caller has it, TxnKeyStates).
   */
  prepareWrite(key: Key, v: Version, nonMonotonic = false, ks: KeyState = this.getOrCreate(key)): KeyState {
    ks.addPrepared(v);
    this.#noteTableWrite(key, v, false, nonMonotonic);
    return ks;
  }

  /** Commits a write: the transaction's prepared version of the key (if any) becomes committed. Returns the key's state (`ks`: as `prepareWrite`). */
  commitWrite(key: Key, v: Version, nonMonotonic = false, ks: KeyState = this.getOrCreate(key)): KeyState {
    removeByTxn(ks.prepared, v.txn);
    this.#hold(v.proof);
    ks.addCommitted(v);
    this.#noteTableWrite(key, v, true, nonMonotonic);
    return ks;
  }

  /** Purges an aborted transaction's prepared version of the key and its table-history entry. */
  abortWrite(key: Key, txn: DigestKey, at: Timestamp, ks: KeyState | undefined = this.#keys.get(key)): void {
    if (ks !== undefined) removeByTxn(ks.prepared, txn);
    const id = sqlTableOfKey(key);
    if (id !== null) this.#tables.get(id)?.dropWrite(at, txn);
  }

  #noteTableWrite(key: Key, v: Version, committed: boolean, nonMonotonic: boolean): void {
    const id = sqlTableOfKey(key);
    if (id !== null) this.table(id).noteWrite(v.ts, v.txn, key, committed, nonMonotonic);
  }

  get size(): number {
    return this.#keys.size;
  }

  /** Ids of the tables that have a write history, predicates or a high-water mark here. */
  tableIds(): IterableIterator<number> {
    return this.#tables.keys();
  }

  /** The table's state if it has one (unlike `table`, creates nothing). */
  tableIfAny(tableId: number): TableState | undefined {
    return this.#tables.get(tableId);
  }

  /**
   * Forgets up to `max` keys of the SQL key space in `[lo, hi)` with their whole state (versions, reads,
   * forced versions), the lowest first; returns how many went. Only the storage collector
   * (storage-gc.ts) calls it, for a storage no reader can name any more.
   */
  deleteRange(lo: Key, hi: Key | null, max: number): number {
    const gone = this.#ordered.deleteRange(lo, hi, max);
    for (const k of gone) {
      const ks = this.#keys.get(k);
      if (ks === undefined) continue;
      for (const v of ks.committed) this.#release(v.proof);
      for (const r of ks.committedReads) this.#release(r.proof);
      this.#keys.delete(k);
    }
    return gone.length;
  }

  /** Forgets a table's write history, predicates and high-water mark (storage-gc.ts). */
  dropTable(tableId: number): void {
    this.#tables.delete(tableId);
  }

  /**
   * Bytes of the commit proofs that committed versions and read records name (each proof once, counted
   * through `StoredProof.refs` as `commitWrite` and `addCommittedRead` add them and `collect` drops
   * them): about what a log checkpoint writes, so the replica compacts its log once enough of the log is
   * garbage (replica-server.ts, decision 0062). An estimate: proofs named only by bulk read sets
   * (bulk-reads.ts) are not counted.
   */
  liveProofBytes = 0;

  #hold(proof: CommittedTxn | null): void {
    if (proof instanceof StoredProof && proof.refs++ === 0) this.liveProofBytes += proof.logBytes;
  }

  #release(proof: CommittedTxn | null): void {
    if (proof instanceof StoredProof && --proof.refs === 0) this.liveProofBytes -= proof.logBytes;
  }

  /** Records a committed read of `ks` (its proof counted in `liveProofBytes`). */
  addCommittedRead(ks: KeyState, r: ReadRecord): void {
    this.#hold(r.proof);
    ks.addCommittedRead(r);
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
    if (keepFrom > 0) {
      for (let i = 0; i < keepFrom; i++) this.#release(ks.committed[i]!.proof);
      ks.committed.splice(0, keepFrom);
    }
    // Read records arrive in commit order, not timestamp order: compact in place.
    const reads = ks.committedReads;
    let w = 0;
    for (let r = 0; r < reads.length; r++) {
      const rec = reads[r]!;
      if (!tsLess(rec.readerTs, watermark)) reads[w++] = rec;
      else this.#release(rec.proof);
    }
    if (w !== reads.length) reads.length = w;
  }
}
