/**
 * The SQL engine's `RowSource` over a replica's multi-version store at a transaction timestamp T
 * (PROTOCOL §4.2-4.3, artifact notes §4.5). The executor (sql/scan-exec.ts) asks for key ranges and
 * point lookups; this source answers with the row version each key shows at T and remembers every
 * version chain it walked, so the execution can report its snapshot vote (query-exec.ts).
 *
 * Which version a key shows at T (newest first among versions strictly below T):
 * - `eager`: the newest committed version, unless a newer prepared version is readable (`readable`,
 *   default every prepared version; the hook for force-materialized versions and dependency depth):
 *   then that prepared version. Unreadable prepared versions are skipped and the walk continues.
 * - `committed`: committed versions only (what a commit certificate proves; point mode).
 * - `snapshot`: the newest committed version, unless a newer prepared or force-materialized version
 *   (store.ts `forced`) belongs to a transaction of the proposed snapshot. Skipped prepared versions
 *   lower `lowestSkippedPrepared` (the table version refinement of §4.5, applied in range-reads.ts);
 *   an index scan counts those of every chain it walks, in its range or not (a skipped write may have
 *   moved a row into the range).
 *   Force-materialized versions are seen by no other mode.
 * `committedVisible` (default: all) hides committed versions from an execution: a replica running
 * the apply-omission fault (replica-core.ts) hides the writes it pretends it has not applied.
 * A visible version whose value is null is a deletion: the row does not exist, the chain is still
 * touched. Versions at or above T are invisible.
 *
 * Rows are decoded from version values (row-codec.ts). Scanned rows carry the encoded primary key
 * (without the table prefix, as the executor expects) and a `ReplicaRowVersion` as their version.
 * A version's value never changes, so the scanned row built for it (decoded row, primary key,
 * `ReplicaRowVersion` with its read entry) is kept on its chain (`KeyState.scanned`, one per chain) and
 * reused by later scans that see the same version under the same table definition (decision 0019).
 * Only from the second scan of a version on: the first notes the version alone, so data scanned once
 * holds no decoded copy. A new visible version replaces it; deleting the chain frees it.
 * Invariant: nothing mutates a scanned row (the executor builds new rows for writes and for projections
 * other than `SELECT *`, which hands the row on as it is).
 * A scan offered a filter (`ScanRequest.prefilter`, when the execution keeps no list of every scanned
 * row: replicas answering queries) decodes only the filter's columns on the first scan of a version,
 * and builds nothing for a row that fails it, only notes its version (decision 0022); its chain counts
 * as touched. The second scan of a version builds and keeps its row as without a filter.
 *
 * With `recordWalks` (replicas' eager executions, decision 0025) the source also keeps, per primary-key
 * scan, the keys it consumed from the store's key order and the version each showed (`walks`), and
 * notes whether any shown version was prepared or an index scan ran: what sync-reuse.ts needs to show
 * that a later snapshot execution would be fed exactly the same rows.
 *
 * Caveat: secondary indexes are not stored on replicas yet. An index scan walks the whole table,
 * computes each visible row's index entry and returns the entries in `[lo, hi)` in index order: correct
 * results, cost proportional to the table, and only chains whose visible row falls in the range count
 * as touched.
 */
import type { DigestKey } from '../../protocol/ids.ts';
import type { Key, ReadEntry } from '../../protocol/messages.ts';
import { tsLess, type Timestamp } from '../../protocol/timestamp.ts';
import type { TableDef } from '../../sql/catalog.ts';
import { SqlError, SqlState } from '../../sql/errors.ts';
import { indexEntryPrefix } from '../../sql/memory-store.ts';
import type { RowPrefilter, RowSource, ScannedRow, ScanRequest } from '../../sql/row-source.ts';
import { decodeColumns, decodeRow } from '../../sql/row-codec.ts';
import type { SqlValue } from '../../sql/types.ts';
import { pkOfRowKey, rowKey, tableKeyRange } from '../../sql/row-key.ts';
import { newestBelow, type KeyState, type Store, type Version } from './store.ts';
import type { KeyRangeIterator } from './ordered-keys.ts';

export type ReadMode =
  | { readonly kind: 'eager' }
  | { readonly kind: 'committed' }
  | { readonly kind: 'snapshot'; readonly txns: ReadonlySet<DigestKey> };

/** The version behind a row the executor saw (the opaque `RowVersion` of sql/row-source.ts). */
export interface ReplicaRowVersion {
  /** Store key: table prefix and encoded primary key. */
  readonly key: Key;
  readonly version: Version;
  readonly prepared: boolean;
  /** The read-set entry for this version: `{ key, version: version.ts }`. */
  readonly read: ReadEntry;
}

function rowVersion(key: Key, version: Version, prepared: boolean): ReplicaRowVersion {
  return { key, version, prepared, read: { key, version: version.ts } };
}

/**
 * A version's scanned row, kept on its chain for later scans (module comment). The version's timestamp
 * and transaction are copied in, so a later scan that finds the row still the chain's newest committed
 * version decides what it shows without visiting the version (`ReplicaRowSource.scannedRow`).
 */
class CachedRow {
  readonly micros: number;
  readonly clientId: number;
  readonly txn: DigestKey;

  constructor(
    readonly version: Version,
    readonly prepared: boolean,
    readonly table: TableDef,
    readonly row: ScannedRow,
  ) {
    this.micros = version.ts.micros;
    this.clientId = version.ts.clientId;
    this.txn = version.txn;
  }

  /** Whether the version is strictly below `t` (tsLess without the version's timestamp object). */
  below(t: Timestamp): boolean {
    return this.micros < t.micros || (this.micros === t.micros && this.clientId < t.clientId);
  }
}

/**
 * One primary-key scan's walk (`recordWalks`): the chains it consumed in order, each as the version it
 * showed (a deletion included) or, when none was visible, as the key's state. Either names the key: a
 * version object lives in one chain, and a key keeps its state while it is in the store's key order.
 * One entry per key, not a key and a version: recording is on every eager scan's path.
 */
export interface ScanWalk {
  /** Store-key range `[lo, hi)` walked (hi null = to the end), descending when `reverse`. */
  readonly lo: Key;
  readonly hi: Key | null;
  readonly reverse: boolean;
  readonly seen: (Version | KeyState)[];
  /** The walk reached the end of its range: the store had no further key in it. */
  ended: boolean;
}

export interface ReplicaRowSourceOptions {
  readonly store: Store;
  /** The reading transaction's timestamp: only versions strictly below it are visible. */
  readonly at: Timestamp;
  readonly mode: ReadMode;
  /** Eager mode: whether a prepared version may be read (default: all). */
  readonly readable?: (v: Version) => boolean;
  /** Whether a committed version may be read (default: all). */
  readonly committedVisible?: (v: Version) => boolean;
  /** Keep `walks` and `shownPrepared` (module comment; default false). */
  readonly recordWalks?: boolean;
  /**
   * Whether this shard stores a table's rows (default: every table). A statement that reads a table
   * of another shard fails with 0A000 instead of reading it as empty.
   */
  readonly ownsTable?: (tableId: number) => boolean;
}

const allReadable = (): boolean => true;

/** Newest version in `chain` strictly below `t` that `ok` accepts. */
export function newestVisibleBelow(chain: readonly Version[], t: Timestamp, ok: ((v: Version) => boolean) | undefined): Version | undefined {
  if (ok === undefined) return newestBelow(chain, t);
  for (let i = chain.length - 1; i >= 0; i--) {
    const v = chain[i]!;
    if (tsLess(v.ts, t) && ok(v)) return v;
  }
  return undefined;
}

/** The version `ks` shows at `at` in `mode` (a deletion included), or undefined when none is below `at`. */
export function visibleVersion(
  ks: KeyState,
  at: Timestamp,
  mode: ReadMode,
  readable: (v: Version) => boolean,
  onSkip?: (v: Version) => void,
  committedVisible?: (v: Version) => boolean,
): { version: Version; prepared: boolean } | undefined {
  const c = newestVisibleBelow(ks.committed, at, committedVisible);
  if (mode.kind !== 'committed') {
    // Snapshot mode: a named force-materialized version competes with the named prepared ones.
    let forced: Version | undefined;
    if (mode.kind === 'snapshot' && ks.forced !== null) {
      const f = newestVisibleBelow(ks.forced, at, (v) => mode.txns.has(v.txn));
      if (f !== undefined && (c === undefined || tsLess(c.ts, f.ts))) forced = f;
    }
    const prepared = ks.prepared;
    for (let i = prepared.length - 1; i >= 0; i--) {
      const p = prepared[i]!;
      if (!tsLess(p.ts, at)) continue;
      if (c !== undefined && !tsLess(c.ts, p.ts)) break;
      if (forced !== undefined && !tsLess(forced.ts, p.ts)) break;
      if (mode.kind === 'eager' ? readable(p) : mode.txns.has(p.txn)) return { version: p, prepared: true };
      onSkip?.(p);
    }
    if (forced !== undefined) return { version: forced, prepared: true };
  }
  return c === undefined ? undefined : { version: c, prepared: false };
}

export class ReplicaRowSource implements RowSource {
  readonly #store: Store;
  readonly #at: Timestamp;
  readonly #mode: ReadMode;
  readonly #readable: (v: Version) => boolean;
  readonly #committedVisible: ((v: Version) => boolean) | undefined;
  readonly #ownsTable: ((tableId: number) => boolean) | undefined;
  /** Version chains a scan or lookup walked (a visible version, a deletion included), repeats counted. */
  touchedCount = 0;
  /**
   * The snapshot vote's committed part for the touched chains that hold only committed versions: the
   * transaction of the version each showed (= its newest committed version below T), added as the scan
   * goes (consecutive rows mostly share a writer, so one Set insert per run of them).
   */
  readonly committedVote = new Set<DigestKey>();
  #lastVoted: DigestKey | null = null;
  /**
   * The touched chains that hold prepared or force-materialized versions (their vote and the shadowing
   * check are computed at the end, query-exec.ts): store keys and their states at the same positions,
   * a chain walked twice listed twice (the users ignore repeats).
   */
  readonly touchedKeys: Key[] = [];
  readonly touchedStates: KeyState[] = [];
  /** What each point lookup saw, a deletion included (the executor only learns "no row"). */
  readonly pointVersions = new Map<Key, ReplicaRowVersion | null>();
  /** Snapshot mode: the oldest prepared version skipped because its transaction was not proposed. */
  lowestSkippedPrepared: Timestamp | null = null;
  /** `recordWalks`: each primary-key scan's walk, in the order the scans started; null when not recording. */
  readonly walks: ScanWalk[] | null;
  /** `recordWalks`: an index scan ran (its walk covers the whole table and is not recorded). */
  indexScanned = false;
  /** Some key showed a prepared (or force-materialized) version. */
  shownPrepared = false;
  /** The version the last `scannedRow` call showed (null: none), for its iterator's walk. */
  lastShown: Version | null = null;

  constructor(opts: ReplicaRowSourceOptions) {
    this.#store = opts.store;
    this.#at = opts.at;
    this.#mode = opts.mode;
    this.#readable = opts.readable ?? allReadable;
    this.#committedVisible = opts.committedVisible;
    this.walks = opts.recordWalks === true ? [] : null;
    this.#ownsTable = opts.ownsTable;
  }

  #checkOwned(table: TableDef): void {
    if (this.#ownsTable !== undefined && !this.#ownsTable(table.id)) {
      throw new SqlError(SqlState.featureNotSupported, `table "${table.name}" is stored by another shard: a statement reads the tables of one shard only`);
    }
  }

  get at(): Timestamp {
    return this.#at;
  }

  get mode(): ReadMode {
    return this.#mode;
  }

  /** The visible version of a store key (touching its chain), or null when none is visible. */
  visible(key: Key): ReplicaRowVersion | null {
    const ks = this.#store.get(key);
    if (ks === undefined) return null;
    // The common chain (committed versions only) without visibleVersion's intermediate object.
    if (ks.prepared.length === 0 && ks.forced === null) {
      const c = newestVisibleBelow(ks.committed, this.#at, this.#committedVisible);
      if (c === undefined) return null;
      this.#touchedCommitted(c.txn);
      return rowVersion(key, c, false);
    }
    const onSkip = this.#mode.kind === 'snapshot' ? this.#skipped : undefined;
    const v = visibleVersion(ks, this.#at, this.#mode, this.#readable, onSkip, this.#committedVisible);
    if (v === undefined) return null;
    if (v.prepared) this.shownPrepared = true;
    this.#touchedMixed(key, ks);
    return rowVersion(key, v.version, v.prepared);
  }

  /** A chain of committed versions only was touched showing the version `txn` wrote, its newest committed version below T. */
  #touchedCommitted(txn: DigestKey): void {
    this.touchedCount++;
    if (txn === this.#lastVoted) return;
    this.#lastVoted = txn;
    this.committedVote.add(txn);
  }

  /** A chain holding prepared or force-materialized versions was touched. */
  #touchedMixed(key: Key, ks: KeyState): void {
    this.touchedCount++;
    this.touchedKeys.push(key);
    this.touchedStates.push(ks);
  }

  /**
   * The scanned row a key shows (touching its chain, as `visible`), or null when no version is visible
   * or the visible one is a deletion. Reuses the row cached for that version (module comment). With a
   * `filter`, also null on the version's first scan for a row that fails it (`scratch`: a row-sized
   * array to decode the filter's columns into). `state`: the key's state when the caller has it (a walk).
   */
  scannedRow(table: TableDef, key: Key, filter?: RowPrefilter, scratch?: SqlValue[], state?: KeyState): ScannedRow | null {
    const ks = state ?? this.#store.get(key);
    this.lastShown = null;
    if (ks === undefined) return null;
    const plain = ks.prepared.length === 0 && ks.forced === null;
    const hit = ks.scanned;
    // The common case of a repeated scan: the cached row is still the newest committed version of a chain
    // of committed versions, and below T, so it is what the chain shows (as newestVisibleBelow would find).
    // The newest is read from the key's state, not the chain: two cache lines less per row (decision 0050).
    if (plain && hit instanceof CachedRow && hit.table === table && !hit.prepared && this.#committedVisible === undefined && hit.below(this.#at)) {
      if (ks.committedHead === hit.version) {
        this.lastShown = hit.version;
        this.#touchedCommitted(hit.txn);
        return hit.row;
      }
    }
    let version: Version | undefined;
    let prepared = false;
    if (plain) {
      version = newestVisibleBelow(ks.committed, this.#at, this.#committedVisible);
    } else {
      const onSkip = this.#mode.kind === 'snapshot' ? this.#skipped : undefined;
      const v = visibleVersion(ks, this.#at, this.#mode, this.#readable, onSkip, this.#committedVisible);
      if (v !== undefined) {
        version = v.version;
        prepared = v.prepared;
        if (prepared) this.shownPrepared = true;
      }
    }
    if (version === undefined) return null;
    this.lastShown = version;
    if (plain) this.#touchedCommitted(version.txn);
    else this.#touchedMixed(key, ks);
    const value = version.value;
    if (value === null) return null;
    if (hit instanceof CachedRow && hit.version === version && hit.table === table && hit.prepared === prepared) return hit.row;
    // On the first scan of a version, a row failing the scan's filter on the filter's own columns is not
    // built (its chain is touched above): the executor would drop it anyway (sql/row-source.ts
    // RowPrefilter). Its version is noted as any first scan's is. A second scan builds and keeps the row
    // whatever the filter says, as before: later scans of it, filtered or not, then reuse it.
    if (filter !== undefined && scratch !== undefined && hit !== version && !(hit instanceof CachedRow && hit.version === version)) {
      decodeColumns(table, value, filter.columns, scratch);
      if (!filter.accepts(scratch)) {
        ks.scanned = version;
        return null;
      }
    }
    const row: ScannedRow = { tableId: table.id, key: pkOfRowKey(key), row: decodeRow(table, value), version: rowVersion(key, version, prepared), own: false };
    // The first scan of a version only notes it; the second keeps its row (module comment).
    ks.scanned = hit === version || (hit instanceof CachedRow && hit.version === version) ? new CachedRow(version, prepared, table, row) : version;
    return row;
  }

  readonly #skipped = (v: Version): void => {
    if (this.lowestSkippedPrepared === null || tsLess(v.ts, this.lowestSkippedPrepared)) this.lowestSkippedPrepared = v.ts;
  };

  /** A scanned row for a visible version, or null for a deletion. */
  rowOf(table: TableDef, v: ReplicaRowVersion): ScannedRow | null {
    const value = v.version.value;
    if (value === null) return null;
    return { tableId: table.id, key: pkOfRowKey(v.key), row: decodeRow(table, value), version: v, own: false };
  }

  get(table: TableDef, key: string): ScannedRow | null {
    this.#checkOwned(table);
    const k = rowKey(table.id, key);
    const v = this.visible(k);
    this.pointVersions.set(k, v);
    return v === null ? null : this.rowOf(table, v);
  }

  scan(req: ScanRequest): Iterable<ScannedRow> {
    this.#checkOwned(req.table);
    if (req.index !== null) {
      this.indexScanned = true;
      return this.#indexScan(req);
    }
    const r = tableKeyRange(req.table.id, req.lo, req.hi);
    let walk: ScanWalk | undefined;
    if (this.walks !== null) this.walks.push((walk = { lo: r.lo, hi: r.hi, reverse: req.reverse, seen: [], ended: false }));
    return new ReplicaScanIterator(this, req.table, this.#store.keysInRange(r.lo, r.hi, req.reverse), req.prefilter, walk);
  }

  #indexScan(req: ScanRequest): ScannedRow[] {
    const index = req.index!;
    const r = tableKeyRange(req.table.id, '', null);
    const hits: { entry: string; row: ScannedRow }[] = [];
    const onSkip = this.#mode.kind === 'snapshot' ? this.#skipped : undefined;
    for (const k of this.#store.keysInRange(r.lo, r.hi)) {
      const ks = this.#store.get(k);
      if (ks === undefined) continue;
      const v = visibleVersion(ks, this.#at, this.#mode, this.#readable, onSkip, this.#committedVisible);
      if (v === undefined || v.version.value === null) continue;
      const row = decodeRow(req.table, v.version.value);
      const pk = pkOfRowKey(k);
      let prefix: string | null;
      try {
        prefix = indexEntryPrefix(index, row);
      } catch {
        continue; // a key expression that fails on a row (only a faulty writer stores one): no entry, as the row could not have been indexed
      }
      if (prefix === null) continue; // left out of a partial index
      const entry = prefix + pk;
      if (entry < req.lo || (req.hi !== null && entry >= req.hi)) continue;
      // Touch through `visible` so snapshot-mode bookkeeping sees exactly the rows in range.
      const seen = this.visible(k)!;
      hits.push({ entry, row: { tableId: req.table.id, key: pk, row, version: seen, own: false } });
    }
    hits.sort((a, b) => (a.entry < b.entry ? -1 : a.entry > b.entry ? 1 : 0));
    if (req.reverse) hits.reverse();
    return hits.map((h) => h.row);
  }
}

const DONE: IteratorResult<ScannedRow> = Object.freeze({ done: true, value: undefined });

/**
 * Lazily walks a store key range (a LIMIT that stops the executor stops the walk). Hands out one result
 * object, updated by each `next` (consumers read it at once: `for ... of`, spreads), not one per row.
 */
class ReplicaScanIterator implements Iterator<ScannedRow>, Iterable<ScannedRow> {
  readonly #scratch: SqlValue[] | undefined;
  readonly #result: { done: false; value: ScannedRow | null } = { done: false, value: null };

  constructor(
    private readonly source: ReplicaRowSource,
    private readonly table: TableDef,
    private readonly keys: KeyRangeIterator<KeyState>,
    private readonly filter: RowPrefilter | undefined,
    private readonly walk: ScanWalk | undefined,
  ) {
    this.#scratch = filter === undefined ? undefined : new Array<SqlValue>(table.columns.length).fill(null);
  }

  [Symbol.iterator](): Iterator<ScannedRow> {
    return this;
  }

  next(): IteratorResult<ScannedRow> {
    for (;;) {
      const k = this.keys.next();
      const walk = this.walk;
      if (k.done === true) {
        if (walk !== undefined) walk.ended = true;
        return DONE;
      }
      const state = this.keys.current;
      const row = this.source.scannedRow(this.table, k.value, this.filter, this.#scratch, state);
      if (walk !== undefined) walk.seen.push(this.source.lastShown ?? state!); // the store's key order holds every key's state
      if (row !== null) {
        const r = this.#result;
        r.value = row;
        return r as IteratorResult<ScannedRow>;
      }
    }
  }
}
