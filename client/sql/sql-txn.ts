/**
 * One SQL transaction over the cluster (client/sql/sql-session.ts runs statements in it): the Pesto
 * transaction, the catalog version its statements bind against, the rows it point-read, and its
 * buffered writes, both as rows (the overlay later statements read) and as encoded store writes (what
 * commit and range reads ship). Writes into a storage the transaction made fresh go to load batches
 * instead (load-batches.ts, docs/decisions/0012); every other write counts against the cluster's
 * transaction limits (docs/decisions/0009).
 */
import { XactId } from '../../sql/session-time.ts';
import type { LimitsConfig } from '../../protocol/config.ts';
import type { Key, WriteEntry } from '../../protocol/messages.ts';
import { sortByKey } from '../../protocol/sorted-entries.ts';
import type { Timestamp } from '../../protocol/timestamp.ts';
import type { TableDef } from '../../sql/catalog.ts';
import { SqlError, SqlState } from '../../sql/errors.ts';
import type { CatalogVersion } from '../../sql/replicated-catalog.ts';
import { rowKey } from '../../sql/row-key.ts';
import type { RowSource, ScannedRow, ScanRequest } from '../../sql/row-source.ts';
import type { Row, SqlValue } from '../../sql/types.ts';
import { WriteBuffer } from '../../sql/write-buffer.ts';
import { Savepoints } from '../../sql/savepoints.ts';
import { DeferredConstraints } from '../../sql/foreign-key-deferred.ts';
import type { PestoClient, Transaction } from '../pesto-client.ts';
import { LoadBatches } from './load-batches.ts';
import { scanFetchedRows, scanFetchOf, type ScanFetch } from './scan-fetch.ts';

/** Per-entry framing of a write inside an encoded transaction (tags, lengths), for the size estimate. */
const WRITE_ENTRY_BYTES = 8;

const WRITES_HINT = 'Only a load into a table created, truncated or given its primary key in the same transaction is split into batches (TRUNCATE it first in this transaction); otherwise split the load into several transactions.';

/** A statement that would take its transaction past the cluster's limits (PostgreSQL's program_limit_exceeded). */
export function tooLarge(what: string, hint: string): SqlError {
  return new SqlError(SqlState.programLimitExceeded, `transaction too large for the cluster: ${what}`, hint);
}

/** The rows a transaction has point-read, by store key (null = absent). */
export type FetchedRows = Map<Key, Row | null>;

/** Rows of scans fetched by reconnaissance reads (client/sql/scan-fetch.ts), by `ScanFetch.cacheKey`. */
export type FetchedScans = Map<string, readonly Row[]>;

/**
 * The executor's view of fetched rows: a row or scan not fetched yet is recorded as missing and reads
 * as absent (the statement runs again once it is fetched).
 */
export class FetchingSource implements RowSource {
  readonly missing = new Map<Key, TableDef>();
  readonly missingScans = new Map<string, ScanFetch>();
  constructor(
    private readonly rows: FetchedRows,
    private readonly scans: FetchedScans,
    private readonly load: LoadBatches | null,
  ) {}

  get(table: TableDef, key: string): ScannedRow | null {
    // Hidden row ids are unique by construction: inserting into a table without a primary key is blind.
    // A fresh storage holds only this transaction's rows, all in its overlay: nothing to fetch.
    if (table.hiddenPk || (this.load !== null && this.load.isFresh(table.id))) return null;
    const k = rowKey(table.id, key);
    const r = this.rows.get(k);
    if (r === undefined) {
      this.missing.set(k, table);
      return null;
    }
    return r === null ? null : { tableId: table.id, key, row: r, version: null, own: false };
  }

  scan(req: ScanRequest): Iterable<ScannedRow> {
    const f = scanFetchOf(req);
    const rows = this.scans.get(f.cacheKey);
    if (rows === undefined) {
      this.missingScans.set(f.cacheKey, f);
      return [];
    }
    return scanFetchedRows(req, rows);
  }
}

/** What ROLLBACK TO SAVEPOINT restores: the buffered writes and catalog when the savepoint was taken. */
interface SavedState {
  readonly writes: WriteBuffer;
  readonly ownWrites: Map<Key, Uint8Array | null>;
  readonly writeBytes: number;
  readonly catalog: CatalogVersion;
  readonly catalogWritten: boolean;
  /** LoadBatches.takenCounts() when the savepoint was taken. */
  readonly loadTaken: ReadonlyMap<string, number>;
}

export class SqlTxn {
  readonly writes = new WriteBuffer();
  readonly #savepoints = new Savepoints<SavedState>();
  readonly rows: FetchedRows = new Map();
  scans: FetchedScans = new Map();
  /** Buffered writes by store key, as shipped with range reads (load batches hold the rest). */
  readonly ownWrites = new Map<Key, Uint8Array | null>();
  catalogWritten = false;
  /** SET CONSTRAINTS and the foreign key checks waiting for COMMIT (client/sql/sql-deferred.ts). */
  readonly deferred = new DeferredConstraints();
  /** T at begin (now(), hidden row ids); the commit may happen later (LoadBatches.beforeCommit). */
  readonly ts: Timestamp;
  /** Created with the first fresh storage. */
  load: LoadBatches | null = null;
  /** txid_current() (sql/session-time.ts), from T. */
  readonly xact: XactId;

  /** Encoded size of the buffered writes (keys, values, a few bytes per entry). */
  #writeBytes = 0;

  constructor(
    readonly tx: Transaction,
    public catalog: CatalogVersion,
    /** The client's hidden row id allocator (`SqlClient.nextRowId`). */
    private readonly rowIds: (ts: Timestamp) => SqlValue,
    private readonly client: PestoClient,
  ) {
    this.ts = tx.timestamp;
    this.xact = XactId.of(this.ts.micros, this.ts.clientId);
  }

  get limits(): LimitsConfig {
    return this.client.opts.config.limits;
  }

  nextRowId(): SqlValue {
    return this.rowIds(this.ts);
  }

  /** Storage `id` is fresh in this transaction: its rows may leave in load batches. */
  addFresh(id: number): void {
    this.load ??= new LoadBatches(this.client, this.tx, this.limits);
    this.load.addFresh(id);
  }

  /** Before any read at the replicas: batches that left are committed and visible to it. */
  async beforeRead(): Promise<void> {
    if (this.load !== null) await this.load.beforeRead();
  }

  /** After a statement: at most a few batches in flight (throws a batch's failure). */
  async settle(): Promise<void> {
    if (this.load !== null) await this.load.settle();
  }

  /**
   * Buffers one write. A transaction travels to every replica as one message, validated whole, so it
   * must stay within the cluster's limits (limits.txnKeysMax writes, limits.messageBytesMax bytes for
   * its reads and writes with room for the rest): the statement that would cross them fails with 54000
   * at once, rather than a commit that replicas refuse (docs/decisions/0009-bulk-loads.md, 0072).
   * Writes into a fresh storage are not counted: they leave in load batches (decision 0012).
   */
  put(key: Key, value: Uint8Array | null): void {
    if (this.load !== null && this.load.take(key, value)) return;
    const old = this.ownWrites.get(key);
    let bytes = this.#writeBytes;
    if (old === undefined) bytes += key.length + WRITE_ENTRY_BYTES;
    else if (old !== null) bytes -= old.length;
    if (value !== null) bytes += value.length;
    if (this.ownWrites.size + (old === undefined ? 1 : 0) > this.limits.txnKeysMax) {
      throw tooLarge(`it writes more than ${this.limits.txnKeysMax} rows (limits.txnKeysMax)`, WRITES_HINT);
    }
    this.#checkSize(bytes, WRITES_HINT);
    this.#writeBytes = bytes;
    this.ownWrites.set(key, value);
    this.tx.writeKey(key, value);
  }

  /** After a range read: the transaction must still fit one message of the cluster (docs/decisions/0072). */
  checkReads(): void {
    this.#checkSize(this.#writeBytes, 'Read fewer rows in one transaction: narrow the query, or split the work into several transactions.');
  }

  /**
   * Fails the statement with 54000 when the transaction's reads (keys several statements read counted
   * once) and `writeBytes` of writes would not fit one message (its ST1 would be refused undecoded).
   * The cheap count first; the reads are merged only when it is over.
   */
  #checkSize(writeBytes: number, hint: string): void {
    if (this.#fits(this.tx.readFootprint(), writeBytes)) return;
    const f = this.tx.readFootprint(true);
    if (this.#fits(f, writeBytes)) return;
    const keysMax = this.limits.txnKeysMax;
    throw tooLarge(f.entries > keysMax ? `it reads more than ${keysMax} rows (limits.txnKeysMax)` : this.#bytesWhat(writeBytes, f.bytes), hint);
  }

  #fits(reads: { entries: number; bytes: number }, writeBytes: number): boolean {
    return reads.entries <= this.limits.txnKeysMax && writeBytes + reads.bytes <= this.#bytesMax();
  }

  /** Bytes the cluster takes per transaction for reads and writes: its message limit less room for predicates and dependencies. */
  #bytesMax(): number {
    const m = this.limits.messageBytesMax;
    return m - Math.max(64 * 1024, m >> 3);
  }

  #bytesWhat(writeBytes: number, readBytes: number): string {
    const kib = (n: number): number => Math.ceil(n / 1024);
    return `its reads and writes take about ${kib(writeBytes + readBytes)} KiB (${kib(readBytes)} KiB of reads; the cluster takes at most ${Math.floor(this.#bytesMax() / 1024)} KiB per transaction: limits.messageBytesMax)`;
  }

  // ---- savepoints (PostgreSQL's, within one Pesto transaction) ----
  //
  // A savepoint keeps copies of the buffered writes (rows and encoded), their size and the catalog;
  // rolling back to it puts them back, here and in the Pesto transaction's write set. Reads stay in the
  // read set (validation stays conservative, as in the single-node engine), SERIAL values handed out
  // stay used (sequences are not transactional in PostgreSQL either), and point-read rows stay cached
  // (a key is fetched only while the transaction has not written it, so they are committed rows).

  savepoint(name: string): void {
    this.#savepoints.take(name, {
      writes: this.writes.clone(), ownWrites: new Map(this.ownWrites), writeBytes: this.#writeBytes,
      catalog: this.catalog, catalogWritten: this.catalogWritten, loadTaken: this.load?.takenCounts() ?? new Map(),
    });
  }

  /** RELEASE: forgets the savepoint and every later one (3B001 when there is none of that name). */
  release(name: string): void {
    this.#savepoints.release(name);
  }

  /** ROLLBACK TO: the writes and catalog as they were at the savepoint, which stays (later ones go). */
  rollbackTo(name: string): void {
    const sp = this.#savepoints.state(name);
    const taken = this.load?.takenCounts();
    for (const [storage, n] of sp.loadTaken) {
      if (taken?.get(storage) !== n) {
        throw new SqlError(SqlState.featureNotSupported, 'ROLLBACK TO SAVEPOINT cannot undo rows written, after the savepoint, into a table created, truncated or altered before it in this transaction (they are loaded in batches)',
          'Roll back the whole transaction instead.');
      }
    }
    for (const key of this.ownWrites.keys()) if (!sp.ownWrites.has(key)) this.tx.unwriteKey(key);
    for (const [key, value] of sp.ownWrites) if (this.ownWrites.get(key) !== value) this.tx.writeKey(key, value);
    this.ownWrites.clear();
    for (const [key, value] of sp.ownWrites) this.ownWrites.set(key, value);
    this.#writeBytes = sp.writeBytes;
    this.writes.restore(sp.writes);
    this.catalog = sp.catalog;
    this.catalogWritten = sp.catalogWritten;
    // Fetched scans include the own writes shipped with them, which may be the ones undone here.
    this.scans = new Map();
    this.#savepoints.rollbackTo(name); // the savepoint's copies stay its own: restoring copied from them
  }

  ownWriteEntries(): WriteEntry[] {
    const out: WriteEntry[] = [];
    for (const [key, value] of this.ownWrites) out.push({ key, value });
    if (this.load !== null) for (const [key, value] of this.load.pendingEntries()) out.push({ key, value });
    return sortByKey(out);
  }
}
