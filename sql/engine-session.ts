// A single-node engine session (sql/engine.ts's `Engine.session()`): statements run synchronously and
// never throw; a transaction block buffers its writes and validates its reads at COMMIT; DDL in a block
// holds the engine until it ends; settings (sql/engine-settings.ts) and the session's TimeZone, which
// every statement is bound and run in (sql/session-zone.ts).

import { LocalSequences, SequenceSession } from './sequences.ts';
import { outcomeNotices } from './notices.ts';
import type { Node } from 'libpg-query';
import { WriteBuffer } from './write-buffer.ts';
import { OverlaySource } from './overlay-source.ts';
import { SqlError, SqlState, toSqlError } from './errors.ts';
import { lowerStatement, type LoweredStatement, type SavepointOp } from './lower-statement.ts';
import { Savepoints, savepointOutsideBlock, savepointTag } from './savepoints.ts';
import { SqlTimestamp } from './datetime.ts';
import { EngineSettings } from './engine-settings.ts';
import { currentSessionZone, withSessionZone, type SessionZone } from './session-zone.ts';
import { ReadRecorder, type ExecContext, type SessionIdentity } from './exec-context.ts';
import { readsStillValid } from './occ.ts';
import { constraintsNamed, DeferredConstraints, SET_CONSTRAINTS_OUTSIDE_BLOCK, type DeferredCheck, type StatementDeferrals } from './foreign-key-deferred.ts';
import { foreignKeyGraph, runDeferredChecks } from './foreign-key-checks.ts';
import { makeEnv } from './eval.ts';
import { checkStatementPrivileges } from './statement-privileges.ts';
import { followsWithRows, refuseMatviewWrite } from './matviews.ts';
import { LockWait } from './advisory-locks.ts';
import { EngineSessionLocks } from './engine-locks.ts';
import type { TempTables } from './temp-tables.ts';
import { shownError } from './temp-tables.ts';
import type { RowSource, WriteSink } from './row-source.ts';
import type { SqlType, SqlValue } from './types.ts';
import { serializationFailure, showSetting, type DdlState, type Txn } from './engine-state.ts';
import { XactId } from './session-time.ts';

import { describe, ok, runStatement, thenOutcome, type ExecResult, type PreparedInfo } from './statement-result.ts';
import type { CacheEntry, Engine } from './engine.ts';

/** Runs `body` in the session's zone with `now` as the transaction's timestamp (sql/session-zone.ts). */
function atNow<T>(now: SqlTimestamp, body: () => T): T {
  return withSessionZone(currentSessionZone(), body, now.micros);
}

export class Session {
  private txn: Txn | null = null;
  /** When the running statement of a transaction block started (its statement_timestamp()). */
  private statementStart = 0n;
  private readonly settings = new EngineSettings();
  private readonly prepared = new Map<string, { sql: string; lowered: LoweredStatement }>();
  /** When set, every execution records its read set, predicates and scanned versions here. */
  recorder: ReadRecorder | null = null;
  private readonly sequences: LocalSequences;
  /** The session's advisory locks; a statement that must wait for one fails with LockWait (the caller waits and runs it again). */
  readonly advisory: EngineSessionLocks;

  constructor(
    private readonly engine: Engine,
    private readonly identity: SessionIdentity,
    /** Its temporary tables (sql/temp-tables.ts): statements naming them are rewritten, lowered without the plan cache. */
    readonly temp: TempTables,
  ) {
    this.sequences = new LocalSequences(() => engine.catalog, engine.store, new SequenceSession());
    this.advisory = new EngineSessionLocks(engine.locks);
  }

  /** The session ended: its transaction is rolled back, its temporary tables dropped and its advisory locks given back. */
  close(): void {
    if (this.txn !== null) this.execute('ROLLBACK');
    this.discardTemp();
    this.advisory.close();
  }

  /** DISCARD TEMP (and the session's end): its temporary tables are dropped. */
  discardTemp(): void {
    const drop = this.temp.dropAll(this.engine.catalog);
    if (drop !== null) this.execute(drop);
  }

  /** `entry`'s statement `i` lowered, rewritten first when it names the session's temporary tables (then without the cache). */
  private lower(entry: CacheEntry, i: number, hints: readonly SqlType[]): LoweredStatement {
    const node = entry.stmts[i] as Node;
    const own = this.temp.resolve(node, entry.sql, this.engine.catalog);
    checkStatementPrivileges(this.engine.catalog, this.identity, own ?? node);
    return own === null ? this.engine.lowerAt(entry, i, hints) : this.temp.plan(own, hints, () => lowerStatement(this.engine.catalog, own, hints, entry.sql));
  }

  /** Runs what ends the transaction for ON COMMIT DROP / DELETE ROWS tables, once it has ended. */
  private endTemp(): void {
    if (this.txn === null) for (const sql of this.temp.afterTransaction(this.engine.catalog)) this.executeEach(sql, []);
  }

  /** The session's TimeZone (its rows' timestamptz values are written in it); a gateway sets it as its own setting changes. */
  get timeZone(): SessionZone {
    return this.settings.zone;
  }

  set timeZone(zone: SessionZone) {
    this.settings.set('timezone', zone.name, false);
  }

  get inTransaction(): boolean {
    return this.txn !== null;
  }

  get transactionFailed(): boolean {
    return this.txn?.failed ?? false;
  }

  /** Executes SQL; a multi-statement string runs statement by statement and returns the last result (or the first error). */
  execute(sql: string, params: readonly SqlValue[] = []): ExecResult {
    const all = this.executeAll(sql, params);
    return all[all.length - 1] ?? ok('', '');
  }

  /** Executes every statement of `sql`, stopping after the first error (whose result is last). */
  executeAll(sql: string, params: readonly SqlValue[] = []): ExecResult[] {
    const out = this.executeEach(sql, params).map((r) => (r.ok ? r : { ok: false as const, error: shownError(r.error) }));
    this.endTemp();
    return out;
  }

  private executeEach(sql: string, params: readonly SqlValue[]): ExecResult[] {
    let entry: ReturnType<Engine['parse']>;
    try {
      this.temp.refuseForeign(sql);
      entry = this.engine.parse(sql);
    } catch (e) {
      this.failTxn();
      return [{ ok: false, error: toSqlError(e) }];
    }
    if (entry.stmts.length > 1 && params.length > 0) {
      return [{ ok: false, error: new SqlError(SqlState.syntaxError, 'cannot insert multiple commands into a prepared statement') }];
    }
    const out: ExecResult[] = [];
    for (let i = 0; i < entry.stmts.length; i++) {
      let r: ExecResult;
      try {
        this.heldOff(entry.stmts[i] as Node);
        // Each statement in the zone its session has when it starts (after an earlier SET of the text).
        r = withSessionZone(this.settings.zone, () => this.run(this.lower(entry, i, []), params));
      } catch (e) {
        r = { ok: false, error: toSqlError(e) };
      }
      if (!r.ok && !(r.error instanceof LockWait)) this.failTxn();
      out.push(r);
      if (!r.ok) break;
    }
    if (out.length === 0) out.push(ok('', ''));
    return out;
  }

  /** Creates a named prepared statement (the wire protocol's Parse); '' is the unnamed one. */
  prepare(name: string, sql: string, paramHints: readonly SqlType[] = []): { ok: true; info: PreparedInfo } | { ok: false; error: SqlError } {
    try {
      this.temp.refuseForeign(sql);
      const lowered = withSessionZone(this.settings.zone, () => this.lowerOne(sql, paramHints));
      this.prepared.set(name, { sql, lowered });
      return { ok: true, info: describe(lowered) };
    } catch (e) {
      return { ok: false, error: shownError(toSqlError(e)) };
    }
  }

  describePrepared(name: string): PreparedInfo | undefined {
    const p = this.prepared.get(name);
    return p === undefined ? undefined : describe(p.lowered);
  }

  deallocate(name: string): void {
    this.prepared.delete(name);
  }

  /** Executes a named prepared statement (the wire protocol's Bind + Execute). */
  executePrepared(name: string, params: readonly SqlValue[] = []): ExecResult {
    const p = this.prepared.get(name);
    if (p === undefined) {
      return { ok: false, error: new SqlError(SqlState.invalidSqlStatementName, `prepared statement "${name}" does not exist`) };
    }
    try {
      let lowered = p.lowered;
      const entry = this.engine.parse(p.sql);
      const node = entry.stmts[0];
      if (node !== undefined) this.heldOff(node);
      if (entry.version !== this.engine.catalog.version || lowered.stmt.k === 'noop' || node === undefined) {
        lowered = withSessionZone(this.settings.zone, () => this.lowerOne(p.sql, p.lowered.paramTypes));
        this.prepared.set(name, { sql: p.sql, lowered });
      } else checkStatementPrivileges(this.engine.catalog, this.identity, this.temp.resolve(node, p.sql, this.engine.catalog) ?? node);
      const r = withSessionZone(this.settings.zone, () => this.run(lowered, params));
      if (!r.ok) this.failTxn();
      this.endTemp();
      return r.ok ? r : { ok: false, error: shownError(r.error) };
    } catch (e) {
      if (e instanceof LockWait) return { ok: false, error: e };
      this.failTxn();
      return { ok: false, error: shownError(toSqlError(e)) };
    }
  }

  /** One statement's text lowered for this session (Parse; a prepared statement after DDL). */
  private lowerOne(sql: string, hints: readonly SqlType[]): LoweredStatement {
    const entry = this.engine.parse(sql);
    if (entry.stmts.length !== 1) return this.engine.lowerOne(sql, hints); // none (noop), or several (the error)
    return this.lower(entry, 0, hints);
  }

  /** The statement waiting for an advisory lock was cancelled: as any failed statement, it fails the transaction block. */
  cancelStatement(): void {
    this.failTxn();
  }

  private failTxn(): void {
    if (this.txn !== null) this.txn.failed = true;
  }

  /** `query`: a query's context, where pg_sleep may record waits (sql/session-time.ts). */
  private context(source: RowSource, writes: WriteSink | null, now: SqlTimestamp, deferred?: StatementDeferrals, query = false): ExecContext {
    const engine = this.engine;
    const txn = this.txn;
    // Outside a transaction block the statement is its transaction: it starts when the statement does.
    const statementTime = txn === null || this.statementStart <= txn.now.micros ? now : new SqlTimestamp(this.statementStart);
    return {
      ...(deferred !== undefined ? { deferred } : {}),
      clock: { statementTime, readMicros: () => engine.clockMicros() },
      xact: txn?.xact ?? XactId.of(now.micros, 0),
      ...(query ? { sleeps: [] } : {}),
      source, writes, recorder: this.recorder ?? this.txn?.reads ?? null, now,
      nextRowId: () => engine.nextRowId(),
      sequences: this.sequences,
      random: engine.random,
      identity: this.identity,
      catalog: engine.catalog,
      advisory: this.advisory,
    };
  }

  /** Runs one statement; outside a transaction block it is its transaction, so its transaction-level advisory locks go after it. */
  private run(l: LoweredStatement, rawParams: readonly SqlValue[]): ExecResult {
    this.advisory.statement();
    if (this.txn !== null) this.statementStart = BigInt(Math.round(this.engine.clockMicros()));
    let r: ExecResult;
    try {
      r = this.runIn(l, rawParams);
    } finally {
      if (this.txn === null) this.advisory.endTransaction();
    }
    const warnings = this.advisory.warnings();
    return warnings.length === 0 || !r.ok ? r : { ...r, notices: [...(r.notices ?? []), ...warnings] };
  }

  private runIn(l: LoweredStatement, rawParams: readonly SqlValue[]): ExecResult {
    const stmt = l.stmt;
    const txn = this.txn;
    if (txn?.failed && !(stmt.k === 'txn' && stmt.op !== 'begin') && !(stmt.k === 'savepoint' && stmt.op === 'rollback-to')) {
      throw new SqlError(SqlState.inFailedTransaction, 'current transaction is aborted, commands ignored until end of transaction block');
    }
    if (stmt.k === 'txn' && stmt.op === 'commit' && txn !== null && !txn.buffer.isEmpty) this.heldOff(null);
    switch (stmt.k) {
      case 'query':
      case 'dml': {
        if (stmt.k === 'dml') refuseMatviewWrite(stmt.plan);
        const now = txn?.now ?? this.engine.now();
        if (stmt.k === 'query') {
          const source: RowSource = txn === null ? this.engine.store : new OverlaySource(this.engine.store, [txn.buffer]);
          return atNow(now, () => runStatement(l, rawParams, this.context(source, null, now, undefined, true)));
        }
        const stmtBuf = new WriteBuffer();
        const source = new OverlaySource(this.engine.store, txn === null ? [stmtBuf] : [txn.buffer, stmtBuf]);
        // Outside a transaction block the statement is its transaction: deferred checks run after it.
        const deferred = txn?.deferred ?? new DeferredConstraints();
        const queued = deferred.statement();
        const r = atNow(now, () => runStatement(l, rawParams, this.context(source, stmtBuf, now, queued)));
        deferred.absorb(queued);
        if (!stmtBuf.isEmpty) txn?.xact.wrote();
        if (txn === null) {
          this.runDeferred(source, now, deferred.takeAll());
          this.engine.store.apply(stmtBuf);
        } else txn.buffer.absorb(stmtBuf);
        return r;
      }
      case 'ddl': {
        // A statement that may write rows after its DDL (a materialized view's) is one transaction.
        if (txn === null && followsWithRows(stmt.node)) return this.asTransaction(() => this.run(l, rawParams));
        if (txn !== null) this.lockForDdl(txn);
        // The context of expressions evaluated per existing row (ADD COLUMN ... DEFAULT now()).
        const ddlNow = txn?.now ?? this.engine.now();
        const out = atNow(ddlNow, () => this.engine.runDdl(stmt, this.context(this.engine.store, null, ddlNow)));
        const notices = outcomeNotices(out);
        if (out.then === undefined) return ok(out.tag, out.tag, notices);
        return thenOutcome(out, this.run(this.engine.lowerOne(out.then.sql, []), []), notices);
      }
      case 'txn':
        return this.txnCommand(stmt.op);
      case 'savepoint':
        return this.savepoint(stmt.op, stmt.name);
      case 'set': {
        const warning = this.settings.set(stmt.name, stmt.value, stmt.local);
        return ok(stmt.tag, stmt.tag, warning === null ? undefined : [warning]);
      }
      case 'show':
        return showSetting(this.settings, stmt.name);
      case 'constraints':
        return this.setConstraints(stmt.names, stmt.deferred);
      case 'noop':
        return ok(stmt.tag, stmt.tag, stmt.notice === undefined ? undefined : [stmt.notice]);
    }
  }

  /** SET CONSTRAINTS: outside a transaction block a WARNING (names still checked); IMMEDIATE runs the pending checks it makes immediate. */
  private setConstraints(names: readonly { readonly schema: string | null; readonly name: string }[] | null, deferred: boolean): ExecResult {
    const catalog = this.engine.catalog;
    const named = names === null ? null : constraintsNamed(catalog, names, deferred);
    const txn = this.txn;
    if (txn === null) return ok('SET CONSTRAINTS', 'SET CONSTRAINTS', [SET_CONSTRAINTS_OUTSIDE_BLOCK]);
    const now = txn.deferred.set(named, deferred, catalog);
    this.runDeferred(new OverlaySource(this.engine.store, [txn.buffer]), txn.now, now);
    return ok('SET CONSTRAINTS', 'SET CONSTRAINTS');
  }

  /** Deferred foreign key checks over `source` (the transaction's rows), recorded in its reads. */
  private runDeferred(source: RowSource, now: SqlTimestamp, checks: readonly DeferredCheck[]): void {
    if (checks.length === 0) return;
    const catalog = this.engine.catalog;
    const ctx = this.context(source, null, now);
    atNow(now, () => runDeferredChecks(foreignKeyGraph(catalog), catalog, makeEnv([], ctx), ctx, checks));
  }

  /**
   * While another session's transaction has run DDL, this one's statements (bar transaction control and
   * settings; `node` null: a COMMIT with writes) fail with 40001, before they bind names against a
   * catalog that transaction may still roll back.
   */
  private heldOff(node: Node | null): void {
    const lock = this.engine.ddlLock;
    if (lock === null || lock.owner === this) return;
    if (node !== null && ('TransactionStmt' in node || 'VariableSetStmt' in node || 'VariableShowStmt' in node)) return;
    throw new SqlError(SqlState.serializationFailure, 'could not serialize access: another transaction has uncommitted DDL');
  }

  /**
   * Before a transaction's first DDL: its reads must still hold (no other session commits from here on),
   * the engine's state is kept to go back to, and its buffered writes go into the store, where DDL
   * rewrites rows.
   */
  private lockForDdl(txn: Txn): void {
    const engine = this.engine;
    if (engine.ddlLock === null) {
      if (!readsStillValid(engine.store, engine.catalog, txn.reads, (t, k) => txn.buffer.lookup(t, k) !== undefined)) throw serializationFailure();
      engine.ddlLock = { owner: this, before: { catalog: engine.catalog.snapshot(), store: engine.store.snapshot() } };
    }
    if (!txn.buffer.isEmpty) {
      engine.store.apply(txn.buffer);
      txn.buffer.restore(new WriteBuffer());
    }
  }

  /** The transaction ends: a rolled-back one's DDL is undone and the engine is free again. */
  private releaseDdl(committed: boolean): void {
    const lock = this.engine.ddlLock;
    if (lock === null || lock.owner !== this) return;
    if (!committed) this.restoreDdl(lock.before);
    this.engine.ddlLock = null;
  }

  private restoreDdl(s: DdlState): void {
    this.engine.catalog.restore(s.catalog);
    this.engine.store.restore(s.store);
  }

  /**
   * Savepoints restore the buffered writes and the settings, and after DDL the catalog and rows; reads stay recorded
   * (validation stays conservative). An unknown name fails the transaction, as any error does (`execute`).
   */
  private savepoint(op: SavepointOp, name: string): ExecResult {
    const txn = this.txn;
    if (txn === null) throw savepointOutsideBlock(op);
    const locked = this.engine.ddlLock?.owner === this;
    if (op === 'savepoint') {
      txn.savepoints.take(name, {
        buffer: txn.buffer.clone(), settings: this.settings.snapshot(),
        ddl: locked ? { catalog: this.engine.catalog.snapshot(), store: this.engine.store.snapshot() } : null,
      });
    } else if (op === 'release') txn.savepoints.release(name);
    else {
      const s = txn.savepoints.rollbackTo(name);
      // Taken before the transaction's first DDL: back to the state before it, and the engine is free.
      if (s.ddl !== null) this.restoreDdl(s.ddl);
      else this.releaseDdl(false);
      txn.buffer.restore(s.buffer);
      this.settings.restore(s.settings);
      txn.failed = false;
    }
    const tag = savepointTag(op);
    return ok(tag, tag);
  }

  /** Runs `body` in a transaction of its own: committed when it succeeds, rolled back when it fails. */
  private asTransaction(body: () => ExecResult): ExecResult {
    this.txnCommand('begin');
    let r: ExecResult;
    try {
      r = body();
    } catch (e) {
      this.txnCommand('rollback');
      throw e;
    }
    if (!r.ok) {
      this.txnCommand('rollback');
      return r;
    }
    const c = this.txnCommand('commit');
    return c.ok ? r : c;
  }

  private txnCommand(op: 'begin' | 'commit' | 'rollback'): ExecResult {
    const txn = this.txn;
    switch (op) {
      case 'begin': {
        if (txn !== null) return ok('BEGIN', 'BEGIN', ['there is already a transaction in progress']);
        const now = this.engine.now();
        this.txn = { buffer: new WriteBuffer(), reads: this.recorder ?? new ReadRecorder(), savepoints: new Savepoints(), now, xact: XactId.of(now.micros, 0), deferred: new DeferredConstraints(), failed: false };
        this.settings.begin();
        return ok('BEGIN', 'BEGIN');
      }
      case 'commit': {
        if (txn === null) return ok('COMMIT', 'COMMIT', ['there is no transaction in progress']);
        // Its SET LOCALs end; a transaction that did not commit takes its SETs back.
        let r: ExecResult | null = null;
        try {
          r = this.commit(txn);
          return r;
        } finally {
          this.settings.end(r !== null && r.ok && r.tag === 'COMMIT');
        }
      }
      case 'rollback':
        this.releaseDdl(false);
        this.txn = null;
        this.settings.end(false);
        return ok('ROLLBACK', 'ROLLBACK', txn === null ? ['there is no transaction in progress'] : undefined);
    }
  }

  /** COMMIT of an open block: its deferred checks, validation, then its writes go into the store. */
  private commit(txn: Txn): ExecResult {
    try {
      // Deferred checks read (recorded in the transaction's reads) before it validates.
      if (!txn.failed) this.runDeferred(new OverlaySource(this.engine.store, [txn.buffer]), txn.now, txn.deferred.takeAll());
    } catch (e) {
      // A deferred check failing fails the COMMIT: the transaction is rolled back.
      this.txn = null;
      this.releaseDdl(false);
      throw e;
    }
    this.txn = null;
    if (txn.failed) {
      this.releaseDdl(false);
      return ok('ROLLBACK', 'ROLLBACK');
    }
    // Holding the DDL lock, nothing was committed since its reads were checked (lockForDdl).
    if (this.engine.ddlLock?.owner !== this && !txn.buffer.isEmpty
      && !readsStillValid(this.engine.store, this.engine.catalog, txn.reads, (t, k) => txn.buffer.lookup(t, k) !== undefined)) {
      throw serializationFailure();
    }
    this.engine.store.apply(txn.buffer);
    this.releaseDdl(true);
    return ok('COMMIT', 'COMMIT');
  }
}
