/**
 * SQL transactions over the cluster (issue 4, PROTOCOL §3-4): the client half of Pesto queries.
 *
 * A `SqlClient` (sql-client.ts) wraps a connected `PestoClient` and an `Engine` (parser, planner,
 * evaluator: the same SQL code replicas run) and caches the replicated catalog. Each `SqlSession` runs one statement at a time, inside an explicit transaction (`begin`/`commit`/
 * `rollback`) or on its own (autocommit, retried on a Pesto abort while nothing was returned yet).
 *
 * How a statement runs (classification: sql/classify.ts):
 * - Every transaction reads the catalog key: a cached catalog version joins the read set as a noted
 *   read (validation aborts the transaction if DDL committed in between), else it is point-read.
 * - Point reads (WHERE pins the primary key) and INSERT ... VALUES run at the client over the rows the
 *   transaction fetched: an execution that asks for a row not fetched yet records it, the rows are
 *   point-read in parallel (PROTOCOL §4.1), and the statement runs again. An INSERT's primary-key
 *   lookup is that point read (an absent row reads as version 0, which makes concurrent inserts of one
 *   key conflict).
 * - Every other query is a range read: the replicas execute the statement at T over the
 *   transaction's buffered writes (PROTOCOL §4.2, client/core/range-read.ts).
 * - UPDATE/DELETE with a range WHERE (and INSERT ... SELECT, MERGE) first run the statement as a
 *   reconnaissance range read, which returns the source rows; the client then computes the new rows
 *   with the shared evaluator and buffers them.
 * - DDL reads the catalog, applies the statement to a copy, and writes the new catalog; DDL that
 *   changes how rows are stored (ALTER TABLE ... ADD PRIMARY KEY / ADD COLUMN, TRUNCATE) moves the
 *   table to a fresh storage id: truncated it starts empty, rewritten its rows are copied in chunks
 *   (docs/decisions/0012; ddl-storage.ts). Rows written into a fresh storage leave in load batches
 *   (load-batches.ts), and the transaction then commits at a timestamp after them.
 * - Sequences (SERIAL and identity columns too) hand out values from counter rows advanced in small
 *   transactions of their own (sequence-values.ts), as PostgreSQL's nextval is outside the transaction.
 * - Writes are buffered (full new rows by primary key) and later statements see them.
 * - The session's TimeZone (set by the gateway) is the zone the client binds and runs statements in and
 *   travels with each range read, whose replicas run it in that zone (sql/session-zone.ts).
 */
import { outcomeNotices } from '../../sql/notices.ts';
import { tsEquals, tsLess, type Timestamp } from '../../protocol/timestamp.ts';
import type { Key } from '../../protocol/messages.ts';
import { shardOfTable } from '../../protocol/sharding.ts';
import type { TableDef } from '../../sql/catalog.ts';
import { classify } from '../../sql/classify.ts';
import { SqlTimestamp } from '../../sql/datetime.ts';
import { describe, ok, runStatement, thenOutcome, type Engine, type ExecResult, type PreparedInfo } from '../../sql/engine.ts';
import { refuseMatviewWrite } from '../../sql/matviews.ts';
import { SqlError, SqlState, toSqlError } from '../../sql/errors.ts';
import { DEFAULT_IDENTITY, type ExecContext, type SessionIdentity } from '../../sql/exec-context.ts';
import type { LoweredStatement, Statement } from '../../sql/lower-statement.ts';
import { OverlaySource } from '../../sql/overlay-source.ts';
import { savepointOutsideBlock, savepointTag } from '../../sql/savepoints.ts';
import type { Plan } from '../../sql/plan.ts';
import { hasScan, SEVERAL, tableOfPlan } from './plan-reads.ts';
import type { CatalogVersion } from '../../sql/replicated-catalog.ts';
import { CATALOG_KEY } from '../../sql/replicated-catalog.ts';
import { normInt8, type SqlType, type SqlValue } from '../../sql/types.ts';
import { encodeParams, type StatementOutcome } from '../../sql/wire-values.ts';
import { EarlyOutcome } from './early-outcome.ts';
import { WriteBuffer } from '../../sql/write-buffer.ts';
import { decodeRow, encodeRow } from '../../sql/row-codec.ts';
import { rowKey } from '../../sql/row-key.ts';
import type { PestoClient, Transaction } from '../pesto-client.ts';
import type { ScanFetch } from './scan-fetch.ts';
import { checkStatementPrivileges, checksPrivileges } from '../../sql/statement-privileges.ts';
import { catalogMiss, lowerOne, peekCatalog, runDdlFresh } from './catalog-miss.ts';
import { ClusterLocks } from './advisory-rows.ts';
import { StatementDraws } from './statement-draws.ts';
import { SessionSequences } from './sequence-values.ts';
import { FetchingSource, SqlTxn } from './sql-txn.ts';
import { checksAtCommit, setConstraintsAtClient, setConstraintsOutsideBlock, type FetchMissing } from './sql-deferred.ts';
import type { PrepareOutcome, SqlPrepared, SqlStats } from './sql-session-types.ts';
import { endTemp, tempTablesFor } from './temp-session.ts';
import type { TempTables } from '../../sql/temp-tables.ts';
import { UTC_ZONE, withSessionZone, type SessionZone } from '../../sql/session-zone.ts';
export type { PrepareOutcome, SqlPrepared, SqlStats } from './sql-session-types.ts';
export { SqlClient } from './sql-client.ts';
import type { SqlClient } from './sql-client.ts';

/** Autocommit statements are retried this many times after a Pesto abort before 40001 reaches the caller. */
const AUTOCOMMIT_ATTEMPTS = 5;
/** A statement that keeps finding rows it has not fetched gives up after this many passes (a deep foreign key cascade). */
const FETCH_PASSES_MAX = 16;
/** A Pesto abort or an unresolvable range read: the transaction is over and may be retried. */
function serializationFailure(message: string): SqlError {
  return new SqlError(SqlState.serializationFailure, message);
}

export class SqlSession {
  #txn: SqlTxn | null = null;
  #opening: Promise<SqlTxn> | null = null;
  /** An explicit transaction is open (BEGIN ... COMMIT/ROLLBACK). */
  #explicit = false;
  readonly #sequences: SessionSequences;
  /** Advisory locks (advisory-rows.ts): rows every client sees, taken in transactions of their own. */
  readonly #locks: ClusterLocks;
  /** Its temporary tables (sql/temp-tables.ts, client/sql/temp-session.ts). */
  readonly temp: TempTables;
  /** The session's TimeZone (the gateway's setting): statements are bound and run in it, here and on replicas. */
  timeZone: SessionZone = UTC_ZONE;
  /** When the running statement started (statement_timestamp(), statement-draws.ts). */
  #statementStart = 0;

  constructor(
    readonly sql: SqlClient,
    readonly identity: SessionIdentity = DEFAULT_IDENTITY, tempKey?: string, // tempKey: a key left behind (temp-session.ts)
  ) {
    this.#sequences = new SessionSequences(sql.client);
    this.#locks = new ClusterLocks(sql.client);
    this.temp = tempTablesFor(sql.client.opts.clientId, tempKey);
  }

  get #shardCount(): number {
    return this.sql.client.opts.config.shards.length;
  }

  get inTransaction(): boolean {
    return this.#explicit;
  }

  // ---- transaction control ----

  begin(): Promise<ExecResult> {
    if (this.#explicit) return Promise.resolve(ok('BEGIN', 'BEGIN', ['there is already a transaction in progress']));
    this.#explicit = true;
    this.#txn = null; // the Pesto transaction starts with the first statement (its T is then fresh)
    return Promise.resolve(ok('BEGIN', 'BEGIN'));
  }

  async commit(): Promise<ExecResult> {
    this.#explicit = false;
    const txn = this.#txn;
    this.#txn = null;
    const e = txn === null ? null : await this.#commitTxn(txn);
    if (this.#locks.holding) await this.#locks.endTransaction();
    await this.#endTemp();
    return e === null ? ok('COMMIT', 'COMMIT') : { ok: false, error: e };
  }

  async rollback(): Promise<ExecResult> {
    this.#explicit = false;
    const txn = this.#txn;
    this.#txn = null;
    txn?.tx.abort();
    if (this.#locks.holding) await this.#locks.endTransaction();
    await this.#endTemp();
    return ok('ROLLBACK', 'ROLLBACK');
  }

  /** The session ended: its transaction is rolled back, its temporary tables dropped (one DDL transaction) and its advisory locks given back. */
  async close(): Promise<void> {
    await this.rollback();
    await this.#endTemp(true);
    await this.#locks.close();
  }

  /** DISCARD TEMP: its temporary tables are dropped. */
  discardTemp(): Promise<void> { return this.#endTemp(true); }

  /** The ON COMMIT actions after a transaction, or (`all`) the drop of every temporary table; statements run as the session's own. */
  readonly #endTemp = (all = false): Promise<void> => endTemp(this.temp, async () => (await this.catalog()).catalog, async (text) => {
    const p = await this.prepare(text);
    if (p.ok) await this.#run(p.statement, []);
  }, all);

  /** A CancelRequest: a statement waiting for an advisory lock stops with 57014. */
  cancel(): void {
    this.#locks.cancel();
  }

  // ---- statements ----

  /** Parses and binds one statement against the current catalog (for Parse/Describe). */
  async prepare(sql: string, hints: readonly SqlType[] = [], retryStale = true): Promise<PrepareOutcome> {
    const inTxn = this.#txn !== null;
    let catalog: CatalogVersion | undefined;
    try {
      catalog = this.#txn?.catalog ?? (await peekCatalog(this.sql));
      const c = catalog;
      const lowered = withSessionZone(this.timeZone, () => lowerOne(this.sql, sql, c, hints, this.temp));
      return { ok: true, statement: { sql, info: describe(lowered), hints, lowered, catalog } };
    } catch (e) {
      const err = catalog === undefined ? toSqlError(e) : await catalogMiss(this.sql, toSqlError(e), sql, catalog, hints, this.#txn?.ts ?? null, this.temp);
      // Outside a transaction the fresher catalog simply replaces the stale one.
      if (err.code === SqlState.serializationFailure && !inTxn && retryStale) return this.prepare(sql, hints, false);
      return { ok: false, error: err };
    }
  }

  /** The catalog this session's statements see now: the open transaction's, else the client's. */
  async catalog(): Promise<CatalogVersion> {
    return this.#txn?.catalog ?? (await peekCatalog(this.sql));
  }

  /** Runs one statement given as text. */
  async execute(sql: string, params: readonly SqlValue[] = []): Promise<ExecResult> {
    const p = await this.prepare(sql);
    if (!p.ok) return { ok: false, error: p.error };
    return this.run(p.statement, params);
  }

  /** Runs a prepared statement (in the open transaction, or on its own with automatic retries). */
  async run(stmt: SqlPrepared, params: readonly SqlValue[]): Promise<ExecResult> {
    this.#locks.statement();
    this.#statementStart = this.sql.engine.clockMicros();
    const r = await this.#run(stmt, params);
    // On its own, the statement was its transaction: its transaction-level advisory locks go, its ON COMMIT actions run.
    if (!this.#explicit && this.#locks.holding) await this.#locks.endTransaction();
    if (!this.#explicit) await this.#endTemp();
    const warnings = this.#locks.warnings();
    return warnings.length === 0 || !r.ok ? r : { ...r, notices: [...(r.notices ?? []), ...warnings] };
  }

  async #run(stmt: SqlPrepared, params: readonly SqlValue[]): Promise<ExecResult> {
    this.sql.stats.statements++;
    if (this.#explicit) {
      try {
        const txn = await this.#open();
        return await this.#runIn(txn, stmt, params);
      } catch (e) {
        return { ok: false, error: toSqlError(e) };
      }
    }
    const sp = stmt.lowered.stmt;
    if (sp.k === 'savepoint') return { ok: false, error: savepointOutsideBlock(sp.op) };
    if (sp.k === 'constraints') return setConstraintsOutsideBlock(stmt.catalog.catalog, sp);
    let last: SqlError | null = null;
    for (let attempt = 0; attempt < AUTOCOMMIT_ATTEMPTS; attempt++) {
      if (attempt > 0) {
        this.sql.stats.autocommitRetries++;
        await this.sql.refreshed(); // not the stale catalog again
      }
      let txn: SqlTxn | null = null;
      try {
        txn = await this.#open();
        const r = await this.#runIn(txn, stmt, params);
        this.#txn = null;
        if (!r.ok) {
          txn.tx.abort();
          if (r.error.code !== SqlState.serializationFailure) return r;
          last = r.error;
          continue;
        }
        const e = await this.#commitTxn(txn);
        if (e === null) return r;
        if (e.code !== SqlState.serializationFailure) return { ok: false, error: e };
        last = e;
      } catch (e) {
        this.#txn = null;
        txn?.tx.abort();
        const err = toSqlError(e);
        if (err.code !== SqlState.serializationFailure) return { ok: false, error: err };
        last = err;
      }
    }
    return { ok: false, error: last ?? serializationFailure('could not serialize access due to concurrent update') };
  }

  // ---- internals ----

  /** Concurrent first statements of a transaction share one opening (one Pesto transaction, one catalog read). */
  #open(): Promise<SqlTxn> {
    if (this.#txn !== null) return Promise.resolve(this.#txn);
    this.#opening ??= this.#startTxn().finally(() => {
      this.#opening = null;
    });
    return this.#opening;
  }

  async #startTxn(): Promise<SqlTxn> {
    const tx = this.sql.client.session().begin();
    const catalog = await this.sql.catalogFor(tx);
    this.#txn = new SqlTxn(tx, catalog, this.sql.nextRowId, this.sql.client);
    return this.#txn;
  }

  /** Commits (deferred foreign key checks first: reads of the transaction; a violation rolls it back). */
  async #commitTxn(txn: SqlTxn): Promise<SqlError | null> {
    const violation = await checksAtCommit(txn, this.identity, this.#fetchMissing);
    if (violation !== null) return violation;
    if (txn.load !== null) {
      try {
        await txn.load.beforeCommit();
      } catch (e) {
        txn.tx.abort();
        this.sql.markStale();
        return toSqlError(e);
      }
    }
    const at = txn.tx.timestamp;
    // Too large for one message after all (predicates naming rows, dependencies): 54000 (TransactionTooLargeError).
    const r = await txn.tx.commit().catch((e: unknown) => toSqlError(e));
    if (r instanceof SqlError) return r;
    if (r.outcome === 'commit') {
      if (txn.catalogWritten) this.sql.learn(at, txn.catalog.value(), txn.catalog);
      return null;
    }
    this.sql.refreshAfterAbort();
    return serializationFailure(`could not serialize access due to concurrent update (Pesto ${r.path} abort: ${r.cause})`);
  }

  async #runIn(txn: SqlTxn, stmt: SqlPrepared, params: readonly SqlValue[]): Promise<ExecResult> {
    let l = stmt.lowered;
    if (stmt.catalog !== txn.catalog) {
      try {
        l = withSessionZone(this.timeZone, () => lowerOne(this.sql, stmt.sql, txn.catalog, stmt.hints, this.temp));
      } catch (e) {
        // Autocommit: the transaction was opened for this statement, its T is no reason to refuse.
        return { ok: false, error: await catalogMiss(this.sql, toSqlError(e), stmt.sql, txn.catalog, stmt.hints, this.#explicit ? txn.ts : null, this.temp) };
      }
      stmt.lowered = l;
      stmt.catalog = txn.catalog;
    }
    const s = l.stmt;
    if ((s.k === 'query' || s.k === 'dml') && checksPrivileges(this.identity)) {
      const node = this.sql.engine.parse(stmt.sql).stmts[0];
      if (node !== undefined) checkStatementPrivileges(txn.catalog.catalog, this.identity, this.temp.rewrite(node, stmt.sql, txn.catalog.catalog) ?? node);
    }
    if (s.k === 'ddl') {
      const env = { client: this.sql.client, explicit: () => this.#explicit, rangeRead: this.#rangeRead.bind(this), identity: this.identity, clockMicros: () => this.sql.engine.clockMicros(), zone: this.timeZone, catalogCompactAt: this.sql.catalogCompactAt };
      const outcome = await runDdlFresh(this.sql, env, txn, s.node, this.#explicit);
      const notices = outcomeNotices(outcome);
      if (outcome.then === undefined) return ok(outcome.tag, outcome.tag, notices);
      const lowered = lowerOne(this.sql, outcome.then.sql, txn.catalog, []); // the rows it writes next (a materialized view's)
      return thenOutcome(outcome, await this.#runIn(txn, { sql: outcome.then.sql, info: describe(lowered), hints: [], lowered, catalog: txn.catalog }, []), notices);
    }
    // VACUUM, ANALYZE, CHECKPOINT, ...: nothing to do on the cluster (pgbench -i runs VACUUM).
    if (s.k === 'noop') return ok(s.tag, s.tag, s.notice === undefined ? undefined : [s.notice]);
    if (s.k === 'constraints') return setConstraintsAtClient(txn, s, this.identity, this.#fetchMissing);
    if (s.k === 'savepoint') {
      if (s.op === 'savepoint') txn.savepoint(s.name);
      else if (s.op === 'release') txn.release(s.name);
      else txn.rollbackTo(s.name);
      const tag = savepointTag(s.op);
      return ok(tag, tag);
    }
    if (s.k !== 'query' && s.k !== 'dml') {
      return { ok: false, error: new SqlError(SqlState.featureNotSupported, `${s.k} statements are handled by the session, not inside a cluster transaction`) };
    }
    const c = classify(s);
    if (c.k === 'read' && s.k === 'query') {
      // A point read, no scan, or a function only this client can answer (current_user): run here.
      if (c.read === 'point' || !hasScan(s.plan) || l.atClient) return this.#runLocal(txn, l, params);
      const table = tableOfPlan(s.plan, this.#shardCount);
      // Tables of several shards: run here, each scan fetched from its own shard.
      if (table === SEVERAL) return this.#runLocal(txn, l, params);
      return this.#rangeQuery(txn, stmt.sql, l, params, table);
    }
    if (c.k === 'write') {
      if (s.k !== 'dml') throw new SqlError(SqlState.internalError, 'write statement without a DML plan');
      const plan = s.plan;
      refuseMatviewWrite(plan);
      const needsRecon = c.read === 'range' && hasScan(plan.source);
      const read = needsRecon ? tableOfPlan(plan.source, this.#shardCount) : null;
      // Without a scan, with scans over tables of several shards, or asking for this client's context: run here.
      if (!needsRecon || read === SEVERAL || l.atClient) return this.#runLocal(txn, l, params);
      return this.#runWithRecon(txn, stmt.sql, l, params, read ?? plan.table);
    }
    return { ok: false, error: new SqlError(SqlState.featureNotSupported, 'statement not supported on the cluster') };
  }

  /** Runs a statement at the client over fetched rows, fetching what it misses and running it again. */
  async #runLocal(txn: SqlTxn, l: LoweredStatement, params: readonly SqlValue[]): Promise<ExecResult> {
    this.sql.stats.pointStatements++;
    // Random bytes and clock readings drawn in one pass are drawn again in the next: the statement runs
    // again after a fetch and must write the same rows, whose keys it fetched.
    const draws = new StatementDraws(() => this.sql.engine.clockMicros());
    this.#sequences.begin();
    for (let pass = 0; pass < FETCH_PASSES_MAX; pass++) {
      draws.pass();
      const source = new FetchingSource(txn.rows, txn.scans, txn.load);
      const statementWrites = new WriteBuffer();
      const sequences = this.#sequences.pass(txn.catalog.catalog);
      const deferred = txn.deferred.statement();
      const ctx: ExecContext = {
        deferred,
        // The statement's own earlier rows too: a multi-row INSERT that repeats a key is a duplicate.
        source: new OverlaySource(source, [txn.writes, statementWrites]),
        writes: statementWrites,
        recorder: null,
        now: new SqlTimestamp(BigInt(txn.ts.micros)),
        identity: this.identity,
        catalog: txn.catalog.catalog,
        nextRowId: () => txn.nextRowId(),
        random: draws.random,
        ...draws.sessionTime(txn, this.#statementStart, l.stmt.k === 'query'),
        sequences,
        advisory: this.#locks.pass(),
      };
      let r: ExecResult;
      try {
        r = withSessionZone(this.timeZone, () => runStatement(l, params, ctx), BigInt(txn.ts.micros));
      } catch (e) {
        r = { ok: false, error: toSqlError(e) };
      }
      // Sequence values first: rows this pass missed may be keyed by its placeholder values, and reading
      // them would put rows other sessions write into this transaction's read set.
      if (this.#sequences.unsettled(sequences) || this.#locks.unsettled()) {
        await this.#sequences.settle(sequences);
        await this.#locks.settle(); // advisory lock operations (a blocking one waits here)
        continue;
      }
      if (source.missing.size > 0 || source.missingScans.size > 0) {
        await this.#fetchMissing(txn, source);
        continue;
      }
      this.#sequences.finish(sequences);
      if (r.ok) {
        txn.deferred.absorb(deferred);
        this.#buffer(txn, statementWrites);
        await txn.settle();
      }
      return r;
    }
    // A foreign key cascade reaches one level further per pass (its scans are fetched level by level).
    throw new SqlError(SqlState.programLimitExceeded, `statement kept reading rows it had not fetched after ${FETCH_PASSES_MAX} rounds of reads (a foreign key cascade deeper than that is not supported on the cluster)`);
  }

  /** Fetches what a pass found missing: rows by point reads, scans by reconnaissance range reads. */
  readonly #fetchMissing: FetchMissing = async (txn, source) => {
    this.sql.stats.rowFetches += source.missing.size;
    await txn.beforeRead();
    await Promise.all([
      ...[...source.missing].map(async ([key, table]) => {
        const r = await txn.tx.read(key);
        txn.rows.set(key, r.value === null ? null : decodeRow(table, r.value));
      }),
      ...[...source.missingScans].map(async ([key, f]) => {
        const o = await this.#rangeRead(txn, f.sql, f.params, true, f.table);
        if (!o.ok) throw new SqlError(o.code, o.message, o.detail);
        txn.scans.set(key, o.rows);
      }),
    ]);
  };

  /** Moves a statement's writes into the transaction: the overlay for later statements, encoded rows for commit. */
  #buffer(txn: SqlTxn, w: WriteBuffer): void {
    if (!w.isEmpty) txn.xact.wrote();
    for (const [table, rows] of w.tables()) {
      for (const [key, row] of rows) txn.put(rowKey(table.id, key), row === null ? null : encodeRow(table, row));
    }
    txn.writes.absorb(w);
  }

  /** A range read of `sql` (PROTOCOL §4.2; 40001 when replicas cannot agree); `paramTypes`: the statement's own, which replicas lower it with. */
  async #rangeRead(txn: SqlTxn, sql: string, params: readonly SqlValue[], recon: boolean, table: TableDef | null, readsAsPredicates?: number, paramTypes?: readonly SqlType[]): Promise<StatementOutcome> {
    const s = this.sql.stats;
    if (recon) s.reconReads++;
    else s.rangeReads++;
    await txn.beforeRead();
    const shard = table === null ? 0 : shardOfTable(table.id, this.#shardCount);
    // A large result is decoded from the first full reply while the other replicas finish (decision 0052).
    const early = new EarlyOutcome();
    const spec = { shard: shard as never, sql, params: encodeParams(params, paramTypes), ownWrites: txn.ownWriteEntries(), recon, early: true, ...(readsAsPredicates === undefined ? {} : { readsAsPredicates }),
      ...(this.timeZone === UTC_ZONE ? {} : { timeZone: this.timeZone.name }) };
    const r = await txn.tx.rangeRead(spec, early.offer);
    if (r === null) {
      s.rangeReadsFailed++;
      throw serializationFailure('could not serialize access: replicas did not agree on a query result');
    }
    txn.checkReads();
    s.syncRounds += r.syncRounds;
    return early.outcome(r.result);
  }

  async #rangeQuery(txn: SqlTxn, sql: string, l: LoweredStatement, params: readonly SqlValue[], table: TableDef | null): Promise<ExecResult> {
    const o = await this.#rangeRead(txn, sql, params, false, table, undefined, l.paramTypes);
    if (!o.ok) return { ok: false, error: new SqlError(o.code, o.message, o.detail) };
    const rows = o.rows as SqlValue[][];
    return { ok: true, command: 'SELECT', rowCount: rows.length, columns: o.columns, rows, tag: `SELECT ${rows.length}` };
  }

  /**
   * UPDATE/DELETE/INSERT ... SELECT: replicas return the source rows, the client computes the writes;
   * `read` names the shard (a table the source scans).
   */
  async #runWithRecon(txn: SqlTxn, sql: string, l: LoweredStatement, params: readonly SqlValue[], read: TableDef): Promise<ExecResult> {
    const s = l.stmt as Extract<Statement, { k: 'dml' }>;
    const o = await this.#rangeRead(txn, sql, params, true, read, undefined, l.paramTypes);
    if (!o.ok) return { ok: false, error: new SqlError(o.code, o.message, o.detail) };
    const types = o.columns.map((c) => c.type);
    const source: Plan = { k: 'values', rows: o.rows.map((row) => row.map((v, i) => ({ k: 'const' as const, v, t: types[i]! }))) };
    const withRows: LoweredStatement = { ...l, stmt: { ...s, plan: { ...s.plan, source } } };
    return this.#runLocal(txn, withRows, params);
  }
}
