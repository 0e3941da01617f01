// One per connected client (`SqlClient`): the catalog cache, hidden row ids and statistics its SQL
// sessions (sql-session.ts) share.
import { tsEquals, tsLess, type Timestamp } from '../../protocol/timestamp.ts';
import type { Engine } from '../../sql/engine.ts';
import { DEFAULT_IDENTITY, type SessionIdentity } from '../../sql/exec-context.ts';
import { CATALOG_COMPACT_AT, CATALOG_KEY, CatalogVersion } from '../../sql/replicated-catalog.ts';
import { normInt8, type SqlValue } from '../../sql/types.ts';
import type { PestoClient, Transaction } from '../pesto-client.ts';
import type { SqlStats } from './sql-session-types.ts';
import { SqlSession } from './sql-session.ts';

/** 2024-01-01, where hidden row ids' microseconds start (SqlClient.nextRowId). */
const ROWID_EPOCH_MICROS = 1_704_067_200_000_000;


interface CachedCatalog {
  readonly version: Timestamp;
  readonly value: Uint8Array | null;
  readonly cv: CatalogVersion;
}

export interface SqlClientOptions {
  /** Log entries beyond which DDL writes the catalog as one image (sql/replicated-catalog.ts CATALOG_COMPACT_AT). */
  readonly catalogCompactAt?: number;
}

/** One per connected client: the catalog cache and statistics shared by its sessions. */
export class SqlClient {
  readonly stats: SqlStats = { statements: 0, pointStatements: 0, rangeReads: 0, reconReads: 0, syncRounds: 0, rangeReadsFailed: 0, rowFetches: 0, autocommitRetries: 0 };
  #catalog: CachedCatalog | null = null;
  /** Set after an abort or a catalog miss: the next transaction reads the catalog instead of noting it. */
  #stale = true;
  #refresh: Promise<void> | null = null; // the background read after an abort, while in flight

  constructor(
    readonly client: PestoClient,
    readonly engine: Engine,
    readonly options: SqlClientOptions = {},
  ) {}

  /** Log entries beyond which this client's DDL writes the catalog as one image (decision 0077). */
  get catalogCompactAt(): number {
    return this.options.catalogCompactAt ?? CATALOG_COMPACT_AT;
  }

  /** A session; `identity` answers current_user and current_database(). */
  session(identity: SessionIdentity = DEFAULT_IDENTITY, tempKey?: string): SqlSession {
    return new SqlSession(this, identity, tempKey);
  }

  #rowIdSlot = -1;
  #rowIdCount = 0;

  /**
   * @internal A hidden row id: microseconds since 2024-01-01 ‖ 6 bits of client id ‖ a 10-bit counter.
   * The microsecond slot starts at the transaction's T.micros and moves on by one when its 1024 ids are
   * used up, never backwards, for every session of this client: ids stay unique however many rows one
   * transaction inserts (a transaction of 100,000 rows runs about 100 µs of slots ahead of its T; a
   * counter that wrapped within T.micros made every insert beyond 1024 rows a duplicate key).
   */
  readonly nextRowId = (ts: Timestamp): SqlValue => {
    const slot = Math.max(0, ts.micros - ROWID_EPOCH_MICROS);
    if (slot > this.#rowIdSlot) {
      this.#rowIdSlot = slot;
      this.#rowIdCount = 0;
    } else if (this.#rowIdCount === 1024) {
      this.#rowIdSlot++;
      this.#rowIdCount = 0;
    }
    return normInt8(BigInt(this.#rowIdSlot) * 65536n + BigInt((this.client.opts.clientId & 63) * 1024 + this.#rowIdCount++));
  };

  /** @internal The cached catalog when no read is needed to trust it (for Parse outside a transaction), else null. */
  get currentCatalog(): CatalogVersion | null {
    return this.#catalog !== null && (!this.#stale || this.#refresh !== null) ? this.#catalog.cv : null;
  }

  /**
   * @internal The catalog for a new transaction: noted from the cache, or read at T. While a refresh
   * after an abort is in flight (`refreshAfterAbort`), transactions note the cached version: validation aborts
   * them if DDL committed in between, and by their retry the refresh has landed.
   */
  async catalogFor(tx: Transaction): Promise<CatalogVersion> {
    const c = this.#catalog;
    if (c !== null && (!this.#stale || this.#refresh !== null)) {
      tx.noteRead(CATALOG_KEY, c.version, c.value);
      return c.cv;
    }
    return this.#readCatalog(tx);
  }

  /** The catalog as the cluster has it now (read in a throwaway transaction; the cache learns it). */
  async freshCatalog(): Promise<CatalogVersion> {
    const tx = this.client.session().begin();
    try {
      return await this.#readCatalog(tx);
    } finally {
      tx.abort();
    }
  }

  async #readCatalog(tx: Transaction): Promise<CatalogVersion> {
    const r = await tx.read(CATALOG_KEY);
    // The version we already hold (the usual case after an abort marked the cache stale): keep its
    // catalog object, so prepared statements lowered against it stay valid (no replay, no re-lowering).
    const known = this.#catalog;
    if (known !== null && tsEquals(known.version, r.version)) {
      this.#stale = false;
      return known.cv;
    }
    const cv = CatalogVersion.fromValue(r.value, known === null ? [] : [known.cv]);
    this.learn(r.version, r.value, cv);
    return cv;
  }

  /** @internal A catalog version seen by a read or committed by this client. */
  learn(version: Timestamp, value: Uint8Array | null, cv: CatalogVersion): void {
    const c = this.#catalog;
    if (c === null || !tsLess(version, c.version)) {
      this.#catalog = { version, value, cv };
      this.#stale = false;
    }
  }

  /** @internal The version (DDL commit timestamp) of a catalog this client cached, if it is the cached one. */
  versionOf(cv: CatalogVersion): Timestamp | null {
    return this.#catalog !== null && this.#catalog.cv === cv ? this.#catalog.version : null;
  }

  /** @internal After a catalog miss: the next transaction reads the catalog before its first statement. */
  markStale(): void { this.#stale = true; }

  /**
   * @internal After an abort (DDL may have committed in between): the catalog is read again in a throwaway
   * transaction in the background, off the critical path of other sessions' transactions (an automatic
   * retry waits for it, `refreshed`). If the refresh fails, the next transaction reads the catalog itself.
   */
  refreshAfterAbort(): void {
    this.#stale = true;
    if (this.#refresh !== null) return;
    const tx = this.client.session().begin();
    this.#refresh = this.#readCatalog(tx).then(() => undefined, () => undefined).finally(() => {
      this.#refresh = null;
      tx.abort();
    });
  }

  /** @internal No refresh in flight (a retry noting the stale catalog again aborts again: decision 0072). */
  refreshed(): Promise<void> {
    return this.#refresh ?? Promise.resolve();
  }
}

