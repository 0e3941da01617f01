// The single-node SQL engine and its session API. `Engine.create()` loads the parser once; sessions
// execute SQL synchronously and never throw: every failure comes back as `{ ok: false, error }` with a
// PostgreSQL SQLSTATE. Transactions buffer their writes in a WriteBuffer (reads go through an overlay so
// a transaction sees its own writes) and apply them to the in-memory store at COMMIT; a failed statement
// inside a transaction puts it in the aborted state (25P02) until ROLLBACK, as in PostgreSQL. Statements
// outside a transaction commit on success and leave nothing behind on failure.
//
// Plans are cached per statement text (and per parameter-type hints) and re-lowered when DDL changes
// the catalog. `now()` is fixed per transaction and comes from the injected clock (sql/ never reads
// the system clock); without one, a deterministic logical clock is used.

import { loadModule, parseSync } from 'libpg-query';
import type { Node } from 'libpg-query';
import { Catalog } from './catalog.ts';
import { MemoryStore } from './memory-store.ts';
import { SqlError, SqlState, toSqlError } from './errors.ts';
import { lowerStatement, type LoweredStatement, type Statement } from './lower-statement.ts';
import { SqlTimestamp } from './datetime.ts';
import { currentSessionZone } from './session-zone.ts';
import { DEFAULT_IDENTITY, type ExecContext, type SessionIdentity } from './exec-context.ts';
import { applyDdl } from './ddl.ts';
import { actorOf } from './roles.ts';
import { withViewText } from './views.ts';
import { refuseMatchedBy } from './lower-merge.ts';
import { EngineLockTable } from './engine-locks.ts';
import type { DdlOutcome } from './ddl-build.ts';
import { TempTables } from './temp-tables.ts';
import { seededRandom } from './seeded-random.ts';
import type { DdlState } from './engine-state.ts';
import type { SqlType, SqlValue } from './types.ts';

export type { SqlType, SqlValue } from './types.ts';
export { Session } from './engine-session.ts';
import { Session } from './engine-session.ts';
export { coerceParam } from './cast.ts';
export { describe, ok, runStatement, thenOutcome, type ExecResult, type PreparedInfo, type ResultColumn } from './statement-result.ts';
import { describe, type PreparedInfo } from './statement-result.ts';

export interface EngineOptions {
  /** Current time in microseconds since 1970 (read once per transaction). Default: a logical clock. */
  readonly clock?: () => number;
  /** Random bytes (gen_random_uuid). Default: a seeded generator, the same sequence every run. */
  readonly random?: (bytes: number) => Uint8Array;
}

/** @internal */
export interface CacheEntry {
  readonly sql: string;
  readonly stmts: Node[];
  lowered: (LoweredStatement | undefined)[];
  /** The TimeZone `lowered` was bound in (constants such as '2020-01-01'::timestamptz are folded in it). */
  zone: string;
  version: number;
}

const LOGICAL_EPOCH = 1_704_067_200_000_000; // 2024-01-01 00:00:00

export class Engine {
  readonly catalog = new Catalog();
  readonly store = new MemoryStore();
  /**
   * DDL in a transaction block changes the shared catalog and rows in place, so the transaction that ran
   * it holds the engine until it ends: every other session's statements fail with 40001 (clients retry)
   * rather than see or build on changes a ROLLBACK undoes. PostgreSQL blocks them on the tables instead.
   * @internal
   */
  ddlLock: { readonly owner: Session; readonly before: DdlState } | null = null;
  /** Its sessions' advisory locks (sql/engine-locks.ts). */
  readonly locks = new EngineLockTable();
  private readonly cache = new Map<string, CacheEntry>();
  private readonly clock: () => number;
  readonly random: (bytes: number) => Uint8Array;
  private logicalTime = LOGICAL_EPOCH;
  private lastNow = 0;
  private rowIds = 0;
  /** Sessions opened so far: each one's number keys its temporary tables' names (sql/temp-tables.ts). */
  private sessions = 0;

  private constructor(options: EngineOptions) {
    this.clock = options.clock ?? ((): number => (this.logicalTime += 1000));
    this.random = options.random ?? seededRandom(0x9e3779b9);
  }

  static async create(options: EngineOptions = {}): Promise<Engine> {
    await loadModule();
    return new Engine(options);
  }

  /** A session; `identity` answers current_user and current_database(). */
  session(identity: SessionIdentity = DEFAULT_IDENTITY): Session {
    return new Session(this, identity, new TempTables(String(++this.sessions)));
  }

  /** Parses and binds without executing: parameter and result types (for the wire protocol's Describe). */
  prepare(sql: string, paramHints: readonly SqlType[] = []): { ok: true; info: PreparedInfo } | { ok: false; error: SqlError } {
    try {
      const l = this.lowerOne(sql, paramHints);
      return { ok: true, info: describe(l) };
    } catch (e) {
      return { ok: false, error: toSqlError(e) };
    }
  }

  /** A transaction's timestamp: the clock, but after every one given before (transaction ids derive from it). */
  now(): SqlTimestamp {
    this.lastNow = Math.max(Math.round(this.clock()), this.lastNow + 1);
    return new SqlTimestamp(BigInt(this.lastNow));
  }

  /** The injected clock (clock_timestamp(), pg_sleep_until's waits), in microseconds since 1970. */
  clockMicros(): number {
    return this.clock();
  }

  nextRowId(): number {
    return ++this.rowIds;
  }

  /** @internal Parsed statements of a text (cached). */
  parse(sql: string): CacheEntry {
    let e = this.cache.get(sql);
    if (e === undefined) {
      let stmts: Node[];
      try {
        stmts = (parseSync(sql).stmts ?? []).map((s) => withViewText(sql, s)).filter((s): s is Node => s !== undefined);
      } catch (err) {
        const details = (err as { sqlDetails?: { message?: string; cursorPosition?: number } }).sqlDetails;
        const msg = details?.message ?? (err instanceof Error ? err.message : String(err));
        // The grammar's refusals of features it parses (MATCH PARTIAL, ...) are 0A000 in PostgreSQL, not syntax errors.
        const code = /(not yet implemented|not supported)$/.test(msg) ? SqlState.featureNotSupported : SqlState.syntaxError;
        throw new SqlError(code, msg, undefined, details?.cursorPosition !== undefined ? details.cursorPosition + 1 : undefined);
      }
      // What PostgreSQL 18's grammar takes and 15's does not, where the tree does not show it.
      refuseMatchedBy(sql);
      e = { sql, stmts, lowered: [], zone: '', version: this.catalog.version };
      // Long texts (bulk loads with literal values) are not worth keeping: their trees are large and never reused.
      if (sql.length <= 8192) {
        if (this.cache.size > 2000) this.cache.clear();
        this.cache.set(sql, e);
      }
    }
    if (e.version !== this.catalog.version) {
      e.lowered = [];
      e.version = this.catalog.version;
    }
    return e;
  }

  /** @internal */
  lowerAt(entry: CacheEntry, i: number, paramHints: readonly SqlType[]): LoweredStatement {
    const zone = currentSessionZone().name;
    const hit = paramHints.length === 0 && entry.zone === zone ? entry.lowered[i] : undefined;
    if (hit !== undefined && entry.version === this.catalog.version) return hit;
    if (entry.version !== this.catalog.version || entry.zone !== zone) {
      entry.lowered = [];
      entry.version = this.catalog.version;
      entry.zone = zone;
    }
    const l = lowerStatement(this.catalog, entry.stmts[i] as Node, paramHints, entry.sql);
    if (paramHints.length === 0) entry.lowered[i] = l;
    return l;
  }

  /** @internal */
  lowerOne(sql: string, paramHints: readonly SqlType[]): LoweredStatement {
    const entry = this.parse(sql);
    if (entry.stmts.length > 1) throw new SqlError(SqlState.syntaxError, 'cannot insert multiple commands into a prepared statement');
    if (entry.stmts.length === 0) return { stmt: { k: 'noop', tag: '' }, paramTypes: [], atClient: false };
    return this.lowerAt(entry, 0, paramHints);
  }

  /** @internal */
  runDdl(stmt: Extract<Statement, { k: 'ddl' }>, ctx: ExecContext | null = null): DdlOutcome {
    // An ALTER TABLE of several subcommands applies them one by one, in place: one that fails undoes the others.
    const n = stmt.node;
    const undo = 'AlterTableStmt' in n && (n.AlterTableStmt.cmds ?? []).length > 1 ? { catalog: this.catalog.snapshot(), store: this.store.snapshot() } : null;
    let out: DdlOutcome | null;
    try {
      out = applyDdl(this.catalog, this.store, n, ctx, actorOf(this.catalog, ctx?.identity));
    } catch (e) {
      if (undo !== null) {
        this.catalog.restore(undo.catalog);
        this.store.restore(undo.store);
      }
      throw e;
    }
    if (out === null) throw new SqlError(SqlState.featureNotSupported, `${stmt.tag} is not supported`);
    return out;
  }
}
