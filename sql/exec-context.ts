// What one statement execution runs against and what it reports (PROTOCOL §4.3). The context supplies
// the row source, where writes go, the transaction's fixed `now()`, hidden row ids and serial values (a
// replica derives them from the transaction timestamp; the single-node engine uses counters). When a
// `ReadRecorder` is attached, every scan records:
//   - reads:      (table, key, version) of each row that satisfied its scan predicate, plus the key of a
//                 scan that pins the full primary key even when the row is absent (version null);
//   - predicates: (table, bound predicate, key range) of each scan;
//   - scanned:    (table, key, version) of every row version the scan looked at, matching or not.
// Invariant: for every scan, reads and predicates together cover every scanned row. Rows that are the
// transaction's own buffered writes are not recorded.

import type { AdvisoryLocks } from './advisory-locks.ts';
import type { StatementDeferrals } from './foreign-key-deferred.ts';
import type { SequenceAccess } from './sequences.ts';
import type { Expr } from './expr.ts';
import type { Catalog, TableDef } from './catalog.ts';
import type { RowSource, RowVersion, ScannedRow, WriteSink } from './row-source.ts';
import type { SqlTimestamp } from './datetime.ts';
import type { SqlValue } from './types.ts';
import type { SleepRequest, StatementClock, XactId } from './session-time.ts';

export interface ReadRecord {
  readonly tableId: number;
  readonly key: string;
  /** null: the key was read and no row exists (an implicit point read). */
  readonly version: RowVersion | null;
}

export interface PredicateRecord {
  readonly tableId: number;
  /** null = primary key range, otherwise the index id. */
  readonly indexId: number | null;
  readonly lo: string;
  readonly hi: string | null;
  /** The scan's filter within `[lo, hi)` (its residual) with parameters and outer values bound to constants; null = every row of the range. */
  readonly predicate: Expr | null;
}

export class ReadRecorder {
  readonly reads: ReadRecord[] = [];
  readonly predicates: PredicateRecord[] = [];
  /** Every row version a scan looked at (for checking that reads and predicates cover them), when kept. */
  readonly scanned: ReadRecord[] = [];

  /** `keepScanned` false: `scanned` stays empty (replicas answering queries; one object less per row). */
  constructor(readonly keepScanned = true) {}
}

/** Who runs a session's statements: current_user, session_user and current_database() answer from it. */
export interface SessionIdentity {
  readonly user: string;
  readonly database: string;
  /**
   * The bootstrap superusers (the gateway's configured users: sql/roles.ts); absent where any user may
   * connect (no passwords), where a user that is no catalog role is one.
   */
  readonly bootstrap?: readonly string[];
}

/** Sessions opened without a connection (tests, benchmarks, the engine called directly). */
export const DEFAULT_IDENTITY: SessionIdentity = { user: 'postgres', database: 'pesto' };

export interface ExecContext {
  readonly source: RowSource;
  /** null for read-only execution (DML then fails). */
  readonly writes: WriteSink | null;
  readonly recorder: ReadRecorder | null;
  /** `now()` / CURRENT_TIMESTAMP, fixed for the transaction. */
  readonly now: SqlTimestamp;
  /** A fresh hidden row id (int8), unique within the database. */
  nextRowId(): SqlValue;
  /**
   * nextval, currval, setval and lastval (sql/sequences.ts); undefined where sequences are unavailable
   * (replicas: the client runs statements that use them itself, lower-statement.ts's `atClient`).
   */
  readonly sequences: SequenceAccess | undefined;
  /**
   * Random bytes from the injected environment (gen_random_uuid); absent where execution must be
   * deterministic (replicas: every replica must compute the same result).
   */
  readonly random?: (bytes: number) => Uint8Array;
  /**
   * The session's user and database; absent where statements of any session run (replicas: the client
   * runs statements that ask for them itself, lower-statement.ts's `atClient`).
   */
  readonly identity?: SessionIdentity;
  /** The catalog the statement runs on, where the session runs it (privilege functions: sql/privilege-functions.ts); absent on replicas. */
  readonly catalog?: Catalog;
  /**
   * Which foreign keys are deferred now, and where their checks queue (sql/foreign-key-deferred.ts);
   * absent: none is (every check runs at the end of the statement).
   */
  readonly deferred?: StatementDeferrals;
  /** The session's advisory locks (sql/advisory-locks.ts); absent where statements of any session run (replicas). */
  readonly advisory?: AdvisoryLocks;
  /**
   * clock_timestamp(), statement_timestamp() and timeofday() (sql/session-time.ts); absent where no
   * clock may be read (replicas: the client runs statements that call them, `atClient`).
   */
  readonly clock?: StatementClock;
  /** The transaction's id (txid_current); absent on replicas. */
  readonly xact?: XactId;
  /** Where a query's pg_sleep calls record their waits, for the session to wait out; absent where none may wait (DML, replicas). */
  readonly sleeps?: SleepRequest[];
}

/** Point read by primary key, recorded in the read set (absent rows as version null). */
export function pointGet(ctx: ExecContext, table: TableDef, key: string): ScannedRow | null {
  const r = ctx.source.get(table, key);
  const rec = ctx.recorder;
  if (rec !== null && (r === null ? ctx.source.ownWrite?.(table, key) !== true : !r.own)) {
    rec.reads.push({ tableId: table.id, key, version: r === null ? null : r.version });
    if (r !== null && rec.keepScanned) rec.scanned.push({ tableId: table.id, key, version: r.version });
  }
  return r;
}
