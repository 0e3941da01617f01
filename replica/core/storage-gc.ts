/**
 * Garbage collection of storages (docs/decisions/0017, after 0012 section 5). A table's rows live under
 * its storage id (sql/row-key.ts); TRUNCATE, ADD PRIMARY KEY / ADD COLUMN and CREATE TABLE in a
 * transaction move the table to a fresh id in [2^23, 2^24). Two kinds of fresh storages then hold rows
 * nobody will read again, and this collector frees them from the store (versions, reads, the ordered
 * key index) and drops their table state (write history, SemanticCC predicates, high-water mark):
 *
 * (a) Retired: the newest committed catalog below the low watermark has switched the table away from
 *     the id (`Catalog.storageDef` knows it, `getById` does not; also a table's first id from the DDL
 *     counter once it was truncated or re-keyed). The switch committed below the
 *     watermark, so every reader or validator that could still resolve the id runs below it and is
 *     refused here (reads, range reads and prepares below the watermark are).
 * (c) Dropped: an id below STORAGE_ID_BASE that the newest committed catalog below the watermark has
 *     handed out from the DDL counter (`Catalog.allocated`) and that no catalog a reader may use names
 *     (as a table or an index): DROP TABLE (or DROP INDEX) committed below the watermark. Tables on
 *     fresh storages that were dropped fall under (b) once their last write is old enough.
 * (b) Never published: no catalog version names the id, and its newest write (prepared or committed,
 *     by timestamp) is older than `LOAD_IDLE_WINDOWS` history windows. A correct loader writes to every
 *     fresh storage holding rows at least once per two history windows (a heartbeat every quarter
 *     window), and publishes it no later than one window after its last write
 *     (client/sql/load-batches.ts), so its load is dead; a load that aborted or rolled back simply
 *     stops writing.
 *
 * In both cases the id must not be named by any catalog version a reader at or above the watermark
 * could use: the newest committed version below it, every committed version above it, and every
 * prepared or force-materialized one (an undecided DDL). A catalog value that does not decode stops the
 * whole round (nothing is collected while the catalog is in doubt).
 *
 * Every replica decides alone, from its own store and clock: correct replicas that received the same
 * transactions reach the same verdict once their clocks pass the same bound. The rule (b) trusts time
 * (like the history window itself): a correct load's writes must reach this replica within the
 * `LOAD_IDLE_WINDOWS - 2` windows of slack. A catalog naming a storage this replica collected under (b)
 * would mean the assumption broke; it is counted (`latePublications`), never silent.
 *
 * Work is done in slices (`step`), so dropping a 100,000-row storage never holds the event loop for
 * long: `onTick` plans and the shell calls `step` until nothing remains. Rule (b) applies only once the
 * replica has been up for the idle bound: after a restart it has missed the heartbeats of running
 * loads (the next one reaches it within a quarter window of its return).
 */
import { tsLess, type Timestamp } from '../../protocol/timestamp.ts';
import type { Catalog } from '../../sql/catalog.ts';
import { STORAGE_ID_BASE, STORAGE_ID_END } from '../../sql/catalog.ts';
import { CATALOG_KEY, CatalogVersion } from '../../sql/replicated-catalog.ts';
import { tableIdOfKey, tablePrefix } from '../../sql/row-key.ts';
import { newestBelow, type Store, type Version } from './store.ts';

/**
 * A never-published storage is garbage once its newest write is older than this many history windows:
 * one window is the loader's promise (load-batches.ts), the rest is slack for late messages and clocks.
 */
export const LOAD_IDLE_WINDOWS = 4;

export interface StorageGcStats {
  /** Storages whose rows and table state were dropped. */
  storagesCollected: number;
  /** Keys dropped with them. */
  rowsCollected: number;
  /** A catalog named a storage collected as never published (the timing assumption of rule (b) broke). */
  latePublications: number;
}

/** The catalogs readers may still use, as storage ids. */
interface CatalogView {
  readonly named: ReadonlySet<number>;
  /** The newest committed catalog below the low watermark (null: none). */
  readonly base: Catalog | null;
}

export class StorageGc {
  readonly stats: StorageGcStats = { storagesCollected: 0, rowsCollected: 0, latePublications: 0 };
  /** Storages found garbage and not fully dropped yet, in order. */
  #queue: number[] = [];
  /** Storages collected under rule (b), to notice a catalog naming one later. */
  readonly #unpublished = new Set<number>();
  /** Decoded catalog values (the store keeps the same arrays); null: does not decode. */
  readonly #decoded = new WeakMap<Uint8Array, Catalog | null>();
  /** The last versions decoded: the next one usually extends one of them (CatalogVersion.fromValue's bases). */
  #recent: CatalogVersion[] = [];
  /** Keys dropped since the shell last compacted its log. */
  #droppedKeys = 0;

  /**
   * Whether the shell should compact its log now, so the dropped rows leave the disk too: the round is
   * done and it dropped at least a quarter as many keys as the store still holds (a compaction rewrites
   * every live commit proof: about 0.4 s of CPU for 100,000 rows, so small collections wait for the
   * log's size-triggered compaction, which leaves them out as well).
   */
  takeCompactionWanted(): boolean {
    if (this.#droppedKeys === 0 || this.#queue.length > 0 || 4 * this.#droppedKeys < this.store.size) return false;
    this.#droppedKeys = 0;
    return true;
  }

  /** The shell compacted its log (for any reason): what was dropped so far is off the disk. */
  compacted(): void {
    this.#droppedKeys = 0;
  }

  constructor(
    private readonly store: Store,
    private readonly windowMicros: number,
  ) {}

  /** The clock at the first round: rule (b) waits until the replica has been up for the idle bound. */
  #since: number | null = null;

  /** Whether dropping is under way (the shell keeps calling `step`). */
  get pending(): boolean {
    return this.#queue.length > 0;
  }

  /** Finds the garbage storages at `nowMicros` (no effect while a previous round is still dropping). */
  plan(nowMicros: number): void {
    if (this.#queue.length > 0) return;
    const wm: Timestamp = { micros: Math.max(0, nowMicros - this.windowMicros), clientId: 0 };
    const view = this.#view(wm);
    if (view === null) return;
    for (const s of view.named) {
      if (this.#unpublished.delete(s)) this.stats.latePublications++;
    }
    const idleBefore = nowMicros - LOAD_IDLE_WINDOWS * this.windowMicros;
    // A replica that just started (or restarted) missed the heartbeats of loads running meanwhile; the
    // next one reaches it within a quarter window, so (b) waits until it has been up for the bound.
    this.#since ??= nowMicros;
    const judgeLoads = this.#since <= idleBefore;
    for (const s of this.#storages()) {
      if (view.named.has(s)) continue;
      if (view.base !== null && view.base.getById(s) === undefined && view.base.storageDef(s) !== undefined) {
        this.#queue.push(s); // (a) retired below the watermark
        continue;
      }
      if (s < STORAGE_ID_BASE) {
        // (c) A DDL counter id the base catalog handed out but no catalog a reader may use names: its
        // table or index was dropped by DDL that committed below the watermark.
        if (view.base !== null && view.base.allocated(s)) this.#queue.push(s);
        continue;
      }
      if (!judgeLoads) continue;
      const newest = this.#newestWrite(s);
      if (newest === null || newest.micros < idleBefore) {
        this.#queue.push(s); // (b) never published, its load long idle
        this.#unpublished.add(s);
      }
    }
  }

  /**
   * Drops up to `maxKeys` keys of the storages found garbage; true while more remain. A storage a
   * catalog names again meanwhile (only a broken timing assumption or a Byzantine catalog can do
   * that) is left alone from then on.
   */
  step(maxKeys: number, nowMicros: number): boolean {
    if (this.#queue.length === 0) return false;
    const view = this.#view({ micros: Math.max(0, nowMicros - this.windowMicros), clientId: 0 });
    let budget = maxKeys;
    while (this.#queue.length > 0 && budget > 0) {
      const s = this.#queue[0]!;
      if (view === null || view.named.has(s)) {
        this.#unpublished.delete(s);
        this.#queue.shift();
        continue;
      }
      const n = this.store.deleteRange(tablePrefix(s), tablePrefix(s + 1), budget);
      this.stats.rowsCollected += n;
      this.#droppedKeys += n;
      budget -= n;
      if (budget === 0) break; // maybe more keys of s: the next slice looks again
      this.store.dropTable(s);
      this.stats.storagesCollected++;
      this.#queue.shift();
    }
    return this.#queue.length > 0;
  }

  /** Plans and drops everything at once (after a restart, before the replica serves). */
  collectAll(nowMicros: number): void {
    this.plan(nowMicros);
    while (this.step(1 << 20, nowMicros));
  }

  /** Storage ids of SQL tables (1 to 2^24, table 0 is the catalog's) with keys or table state here, ascending. */
  #storages(): number[] {
    const ids = new Set<number>();
    for (const id of this.store.tableIds()) if (id >= 1 && id < STORAGE_ID_END) ids.add(id);
    const end = tablePrefix(STORAGE_ID_END);
    let lo = tablePrefix(1);
    // One seek per storage: jump from the first key of a storage to the start of the next id.
    for (;;) {
      const first = this.store.keysInRange(lo, end).next();
      if (first.done === true) break;
      const id = tableIdOfKey(first.value)!;
      ids.add(id);
      lo = tablePrefix(id + 1);
    }
    return [...ids].sort((a, b) => a - b);
  }

  /** Timestamp of the newest write to storage `s` recorded in its table history (null: none). */
  #newestWrite(s: number): Timestamp | null {
    const writes = this.store.tableIfAny(s)?.writes;
    return writes === undefined || writes.length === 0 ? null : writes[writes.length - 1]!.ts;
  }

  /** The catalog versions a reader at or above `wm` may use (null: one does not decode). */
  #view(wm: Timestamp): CatalogView | null {
    const ks = this.store.get(CATALOG_KEY);
    const named = new Set<number>();
    if (ks === undefined) return { named, base: null };
    const versions: Version[] = [];
    const below = newestBelow(ks.committed, wm);
    if (below !== undefined) versions.push(below);
    for (const v of ks.committed) if (!tsLess(v.ts, wm)) versions.push(v);
    versions.push(...ks.prepared, ...(ks.forced ?? []));
    let base: Catalog | null = null;
    for (const v of versions) {
      const c = this.#decode(v.value);
      if (c === null) return null;
      for (const t of c.list()) {
        named.add(t.id);
        for (const i of t.indexes) named.add(i.id);
      }
      if (v === below) base = c;
    }
    return { named, base };
  }

  #decode(value: Uint8Array | null): Catalog | null {
    if (value === null) return CatalogVersion.empty.catalog;
    let c = this.#decoded.get(value);
    if (c === undefined) {
      try {
        const v = CatalogVersion.fromValue(value, this.#recent);
        this.#recent = [v, ...this.#recent.slice(0, 3)];
        c = v.catalog;
      } catch {
        c = null;
      }
      this.#decoded.set(value, c);
    }
    return c;
  }
}

