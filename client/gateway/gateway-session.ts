// One client session after authentication: the simple and extended query protocols, the transaction
// state the client sees (ReadyForQuery I/T/E), prepared statements and portals, SET/SHOW, COPY and the
// catalog answers, over a BackendSession that runs the SQL.
//
// Protocol rules kept here (PostgreSQL 15 behaviour):
// - A multi-statement Query runs as one implicit transaction unless it contains its own BEGIN: an error
//   rolls back everything before it in the string and skips the rest.
// - In a failed explicit transaction ('E') every statement except COMMIT/ROLLBACK fails with 25P02;
//   COMMIT then reports ROLLBACK.
// - After an error in the extended protocol every message up to Sync is discarded.
// - Execute with a row limit sends that many rows and PortalSuspended; the statement itself runs once,
//   at the first Execute (the backend returns whole results), and later Executes page through them.
// Caveat: outside an explicit transaction each Execute commits on its own, rather than all Executes up
// to Sync together; drivers send one statement per Sync, where the two agree.

import { typeFromOid, typeOid, type SqlType, type SqlValue } from '../../sql/types.ts';
import { withSessionZone } from '../../sql/session-zone.ts';
import type { BackendWriter } from './backend-encoder.ts';
import type { CatalogContext } from './catalog-queries.ts';
import { copyIn, copyTarget, type CopySpec } from './copy-in.ts';
import { copyOutSource, writeCopyOut, type CopyOutSpec } from './copy-out.ts';
import type { FrontendMessage } from './frontend-decoder.ts';
import { atOffset, classify, splitStatements, type GatewayCommand } from './gateway-command.ts';
import { GatewayState } from './protocol-error.ts';
import type { SessionSettings } from './session-settings.ts';
import { SqlCursors } from './sql-cursors.ts';
import { declaredTypes, executeArgs, prepareError, type ExecuteSpec, type PrepareSpec } from './sql-prepare.ts';
import type { BackendColumn, BackendError, BackendOutcome, BackendResult, BackendRows, BackendSession, BackendStatement } from './sql-backend.ts';
import { decodeParam, fieldsOf, formatAt, writeDataRows } from './value-format.ts';

export interface SessionIo {
  readonly out: BackendWriter;
  /** Sends everything written so far. */
  flush(): void;
  /** The next frontend message (COPY reads its data through this), or null at end of stream. */
  next(): Promise<FrontendMessage | null>;
}

interface PreparedStatement {
  readonly name: string;
  readonly sql: string;
  readonly command: GatewayCommand;
  readonly paramTypes: readonly SqlType[];
  /** Null when the statement returns no rows (Describe answers NoData). */
  readonly columns: readonly BackendColumn[] | null;
  readonly backend: BackendStatement | null;
  readonly empty: boolean;
}

interface Portal {
  readonly statement: PreparedStatement;
  readonly params: readonly SqlValue[];
  readonly formats: readonly number[];
  result: BackendRows | null;
  offset: number;
}

type TxnStatus = 'I' | 'T' | 'E';

const err = (code: string, message: string): { ok: false; error: BackendError } => ({ ok: false, error: { code, message } });
const done = (tag: string, notices: BackendRows['notices'] = []): BackendRows => ({ ok: true, tag, returnsRows: false, columns: [], rows: [], notices });
const BACKEND_COMMAND: GatewayCommand = { k: 'backend' };
const BINARY = [1];
/** What a failed transaction ('E') still runs: its end, or a return to a savepoint. */
const acceptedWhenFailed = (c: GatewayCommand): boolean => c.k === 'commit' || c.k === 'rollback' || (c.k === 'savepoint' && c.op === 'rollback-to');

export class GatewaySession {
  private status: TxnStatus = 'I';
  /** True while a multi-statement Query runs in the implicit transaction it opened. */
  private implicitBlock = false;
  private skipUntilSync = false;
  private busy = false;
  private cancelRequested = false;
  private readonly statements = new Map<string, PreparedStatement>();
  private readonly portals = new Map<string, Portal>();
  private readonly cursors = new SqlCursors();
  private pendingReports: [string, string][] = [];
  private readonly catalogContext: CatalogContext;

  constructor(
    private readonly backend: BackendSession,
    private readonly settings: SessionSettings,
    private readonly io: SessionIo,
    processId: number,
  ) {
    this.catalogContext = {
      settings, backend, processId,
      set: (name, value, local) => {
        const r = this.applySet(name, value, local);
        return r.ok ? null : r;
      },
    };
  }

  get transactionStatus(): TxnStatus {
    return this.status;
  }

  /** A CancelRequest for this session: the statement running now fails with 57014 (one waiting for an advisory lock stops waiting). */
  requestCancel(): void {
    if (!this.busy) return;
    this.cancelRequested = true;
    this.backend.cancel?.();
  }

  /** Handles one message; returns a promise only when the reply needs the backend (the rest is synchronous). */
  handle(m: FrontendMessage): Promise<void> | undefined {
    this.busy = true;
    if (this.skipUntilSync && m.kind !== 'sync') return;
    switch (m.kind) {
      case 'query':
        return this.simpleQuery(m.sql);
      case 'parse':
        return this.parse(m.name, m.sql, m.paramTypeOids);
      case 'bind':
        this.bind(m);
        return;
      case 'describe':
        this.describe(m.target, m.name);
        return;
      case 'execute':
        return this.execute(m.portal, m.maxRows);
      case 'close':
        this.close(m.target, m.name);
        return;
      case 'sync':
        this.skipUntilSync = false;
        if (this.status === 'I') this.portals.clear();
        this.readyForQuery();
        return;
      case 'flush':
        this.io.flush();
        return;
      case 'copyData':
      case 'copyDone':
      case 'copyFail':
        return; // PostgreSQL ignores these outside COPY (a COPY that failed early leaves them behind)
      case 'authResponse':
      case 'terminate':
        this.extendedError({ code: GatewayState.protocolViolation, message: `unexpected message "${m.kind}"` });
        return;
      case 'invalidText': {
        const e = err(m.code, m.message);
        if (!m.simple) {
          this.extendedError(e.error);
          return;
        }
        this.failed(e);
        this.writeError(e.error);
        this.readyForQuery();
        return;
      }
    }
  }

  /** The connection is gone: release everything and roll back an open transaction. */
  async end(): Promise<void> {
    this.dropStatements();
    this.portals.clear();
    this.cursors.close(null);
    if (this.status !== 'I') await this.backend.rollback();
    await this.backend.close();
  }

  private close(target: 'S' | 'P', name: string): void {
    if (target === 'S') this.dropStatement(name);
    else this.portals.delete(name);
    this.io.out.closeComplete();
  }

  // ---- Shared statement execution -----------------------------------------------------------------

  private readyForQuery(): void {
    for (const [k, v] of this.pendingReports) this.io.out.parameterStatus(k, v);
    this.pendingReports = [];
    this.io.out.readyForQuery(this.status);
    this.io.flush();
    this.busy = false;
    this.cancelRequested = false;
  }

  private applySet(name: string, value: string | null, local = false): BackendResult {
    const r = this.settings.set(name, value, local);
    if (!r.ok) return r;
    if (r.report !== null) this.pendingReports.push([r.report[0], r.report[1]]);
    return done('SET', r.warning === undefined ? [] : [{ severity: 'WARNING', code: GatewayState.noActiveSqlTransaction, message: r.warning }]);
  }

  /** Runs one statement, keeping the transaction status; `exec` runs a backend statement; `params` are a catalog query's. */
  private async run(cmd: GatewayCommand, exec: () => Promise<BackendResult>, params: readonly SqlValue[] = []): Promise<BackendResult> {
    if (this.cancelRequested) {
      this.cancelRequested = false;
      return this.failed(err(GatewayState.queryCanceled, 'canceling statement due to user request'));
    }
    if (this.status === 'E' && !acceptedWhenFailed(cmd)) {
      return err(GatewayState.inFailedTransaction, 'current transaction is aborted, commands ignored until end of transaction block');
    }
    switch (cmd.k) {
      case 'begin': {
        if (this.status === 'T') {
          if (this.implicitBlock) {
            this.implicitBlock = false;
            return done(cmd.tag);
          }
          return done(cmd.tag, [{ severity: 'WARNING', code: GatewayState.activeSqlTransaction, message: 'there is already a transaction in progress' }]);
        }
        const b = await this.backend.begin();
        if (!b.ok) return b;
        this.status = 'T';
        this.settings.begin();
        return done(cmd.tag);
      }
      case 'commit': {
        this.implicitBlock = false;
        if (this.status === 'I') return done('COMMIT', [{ severity: 'WARNING', code: GatewayState.noActiveSqlTransaction, message: 'there is no transaction in progress' }]);
        if (this.status === 'E') {
          await this.rollbackBackend();
          return done('ROLLBACK');
        }
        const c = await this.commitBackend();
        return c.ok ? done('COMMIT') : c;
      }
      case 'rollback':
        this.implicitBlock = false;
        if (this.status === 'I') return done('ROLLBACK', [{ severity: 'WARNING', code: GatewayState.noActiveSqlTransaction, message: 'there is no transaction in progress' }]);
        await this.rollbackBackend();
        return done('ROLLBACK');
      case 'set': {
        const r = this.applySet(cmd.name, cmd.value, cmd.local);
        return r.ok ? done(cmd.tag, r.notices) : this.failed(r);
      }
      case 'resetAll':
        for (const r of this.settings.resetAll()) this.pendingReports.push(r);
        return done('RESET');
      case 'setIgnored':
        return done('SET');
      case 'discard':
        if (cmd.what === 'ALL' && this.status !== 'I') return this.failed(err(GatewayState.activeSqlTransaction, 'DISCARD ALL cannot run inside a transaction block'));
        if (cmd.what === 'ALL' || cmd.what === 'TEMP') await this.backend.discardTemp?.();
        if (cmd.what !== 'ALL') return done(`DISCARD ${cmd.what}`);
        for (const r of this.settings.resetAll()) this.pendingReports.push(r);
        this.dropStatements();
        this.portals.clear();
        this.cursors.close(null);
        return done('DISCARD ALL');
      case 'deallocate':
        if (cmd.name === null) {
          this.dropStatements();
          return done('DEALLOCATE ALL');
        }
        if (!this.statements.has(cmd.name)) return this.failed(err(GatewayState.invalidSqlStatementName, `prepared statement "${cmd.name}" does not exist`));
        this.dropStatement(cmd.name);
        return done('DEALLOCATE');
      case 'prepare':
        return this.failed(await this.prepareSql(cmd.spec));
      case 'executePrepared':
        return this.executePrepared(cmd.spec);
      case 'declare':
        return this.failed(await this.cursors.declare(cmd.spec, this.status === 'T', this.portals.has(cmd.spec.name), exec));
      case 'fetch':
        return this.failed(this.cursors.fetch(cmd.spec));
      case 'closeCursor':
        return this.failed(this.cursors.close(cmd.name));
      case 'unlisten':
        return done('UNLISTEN');
      case 'show':
        return this.failed(this.settings.show(cmd.name));
      case 'unsupported':
        return this.failed(err(cmd.code ?? GatewayState.featureNotSupported, cmd.message));
      case 'copyFrom':
      case 'copyTo':
        return this.failed(err(GatewayState.featureNotSupported, `COPY ${cmd.k === 'copyFrom' ? 'FROM STDIN' : 'TO STDOUT'} is only supported in the simple query protocol`));
      case 'catalog':
        return this.failed(await cmd.query.answer(this.catalogContext, params));
      case 'composite':
        return this.failed(await cmd.run(this.backend, this.status === 'T'));
      case 'backend':
        return this.failed(await exec());
      case 'savepoint': {
        // Run by the backend; the settings follow. A failed transaction is usable again from a ROLLBACK TO's savepoint on.
        const r = await exec();
        if (!r.ok) return this.failed(r);
        if (cmd.op === 'rollback-to') this.status = 'T';
        if (cmd.name !== null) this.pendingReports.push(...this.settings.followSavepoint(cmd.op, cmd.name));
        return r;
      }
    }
  }

  /** Ends the transaction block with the backend's COMMIT (40001 when Pesto aborts it). */
  private async commitBackend(): Promise<BackendOutcome> {
    const c = await this.backend.commit();
    this.status = 'I';
    this.pendingReports.push(...this.settings.end(c.ok));
    this.cursors.endTransaction(c.ok);
    return c;
  }

  private async rollbackBackend(): Promise<void> {
    await this.backend.rollback();
    this.status = 'I';
    this.pendingReports.push(...this.settings.end(false));
    this.cursors.endTransaction(false);
  }

  /** An error inside a transaction aborts it (PostgreSQL's 'E' state). */
  private failed(r: BackendResult): BackendResult {
    if (!r.ok && this.status === 'T') this.status = 'E';
    return r;
  }

  private writeError(e: BackendError): void {
    this.io.out.errorResponse({ severity: 'ERROR', code: e.code, message: e.message, detail: e.detail, hint: e.hint, position: e.position, context: e.context });
  }

  private writeNotices(r: BackendRows): void {
    for (const n of r.notices) this.io.out.noticeResponse({ severity: n.severity, code: n.code, message: n.message, detail: n.detail });
  }

  // ---- Simple query protocol ----------------------------------------------------------------------

  private async simpleQuery(sql: string): Promise<void> {
    this.dropStatement('');
    this.portals.delete('');
    const stmts = splitStatements(sql);
    if (stmts.length === 0) {
      this.io.out.emptyQueryResponse();
      this.readyForQuery();
      return;
    }
    const multi = stmts.length > 1;
    for (const { text, offset } of stmts) {
      const cmd = classify(text);
      if (multi && this.status === 'I' && (cmd.k === 'backend' || cmd.k === 'catalog' || cmd.k === 'copyFrom' || cmd.k === 'copyTo' || cmd.k === 'declare' || cmd.k === 'executePrepared')) {
        const b = await this.backend.begin();
        if (!b.ok) {
          this.writeError(b.error);
          break;
        }
        this.status = 'T';
        this.implicitBlock = true;
      }
      const r = cmd.k === 'copyFrom' ? await this.copyFrom(cmd.spec)
        : cmd.k === 'copyTo' ? await this.copyTo(cmd.spec)
        : await this.run(cmd, () => this.backend.execute(cmd.k === 'declare' ? cmd.spec.query : text));
      if (!r.ok) {
        this.writeError(atOffset(r.error, offset));
        if (this.implicitBlock) {
          this.implicitBlock = false;
          await this.rollbackBackend();
        }
        break;
      }
      this.writeNotices(r);
      if (r.returnsRows) {
        // A BINARY cursor's rows are binary even here.
        const formats = cmd.k === 'fetch' && this.cursors.shape(cmd.spec.name)?.binary === true ? BINARY : [];
        this.io.out.rowDescription(fieldsOf(r.columns, formats));
        withSessionZone(this.settings.zone, () => writeDataRows(this.io.out, r, formats, 0, r.rows.length));
      }
      this.io.out.commandComplete(r.tag);
    }
    if (this.implicitBlock) {
      this.implicitBlock = false;
      const c = await this.commitBackend();
      if (!c.ok) this.writeError(c.error);
    }
    this.readyForQuery();
  }

  /** COPY ... TO STDOUT: the query's rows, one CopyData per row (copy-out.ts). */
  private async copyTo(spec: CopyOutSpec): Promise<BackendResult> {
    const q = await copyOutSource(this.backend, spec);
    if (!q.ok) return q;
    const r = await this.run(BACKEND_COMMAND, () => this.backend.execute(q.query));
    return r.ok ? done(withSessionZone(this.settings.zone, () => writeCopyOut(this.io.out, r, spec))) : r;
  }

  private async copyFrom(spec: CopySpec): Promise<BackendResult> {
    if (this.status === 'E') return err(GatewayState.inFailedTransaction, 'current transaction is aborted, commands ignored until end of transaction block');
    const t = await copyTarget(this.backend, spec);
    if (!t.ok) return this.failed(t);
    const own = this.status === 'I';
    if (own) {
      const b = await this.backend.begin();
      if (!b.ok) return b;
      this.status = 'T';
    }
    this.io.out.copyInResponse(t.target.columns.length, spec.format === 'binary');
    this.io.flush();
    const r = await copyIn(this.backend, spec, t.target, this.io.next, () => this.cancelRequested, this.settings.zone);
    if (!r.ok) {
      if (own) await this.rollbackBackend();
      return this.failed(r);
    }
    if (own) {
      const c = await this.commitBackend();
      if (!c.ok) return c;
    }
    return done(`COPY ${r.count}`);
  }

  // ---- Extended query protocol --------------------------------------------------------------------

  /**
   * An error ends the extended-protocol batch until Sync. It is sent at once, as PostgreSQL does: a
   * client that sent Parse, Describe and Flush (postgres.js) waits for it before it sends the Sync.
   */
  private extendedError(e: BackendError): void {
    this.writeError(e);
    this.io.flush();
    this.skipUntilSync = true;
  }

  private dropStatements(): void {
    for (const name of [...this.statements.keys()]) this.dropStatement(name);
  }

  private dropStatement(name: string): void {
    const s = this.statements.get(name);
    if (s === undefined) return;
    if (s.backend !== null) this.backend.release(s.backend);
    this.statements.delete(name);
  }

  private async parse(name: string, sql: string, oids: readonly number[]): Promise<void> {
    if (name !== '' && this.statements.has(name)) {
      this.extendedError({ code: GatewayState.duplicatePreparedStatement, message: `prepared statement "${name}" already exists` });
      return;
    }
    const texts = splitStatements(sql);
    if (texts.length > 1) {
      this.extendedError({ code: GatewayState.syntaxError, message: 'cannot insert multiple commands into a prepared statement' });
      return;
    }
    const { text, offset } = texts[0] ?? { text: '', offset: 0 };
    const hints: (SqlType | null)[] = oids.map((o) => (o === 0 ? null : typeFromOid(o) ?? null));
    const command = text === '' ? ({ k: 'backend' } as const) : classify(text);
    if (this.status === 'E' && !acceptedWhenFailed(command)) {
      this.extendedError({ code: GatewayState.inFailedTransaction, message: 'current transaction is aborted, commands ignored until end of transaction block' });
      return;
    }
    const built = await this.buildStatement(name, sql, text, command, hints);
    if (!built.ok) {
      if (this.status === 'T') this.status = 'E';
      this.extendedError(atOffset(built.error, offset));
      return;
    }
    this.dropStatement(name);
    this.statements.set(name, built.stmt);
    this.io.out.parseComplete();
  }

  /** A prepared statement of `text` (Parse, PREPARE): the backend prepares what it runs, the gateway knows the shape of the rest. */
  private async buildStatement(name: string, sql: string, text: string, command: GatewayCommand, hints: readonly (SqlType | null)[]): Promise<{ ok: true; stmt: PreparedStatement } | { ok: false; error: BackendError }> {
    if (text === '') return { ok: true, stmt: { name, sql, command, paramTypes: hints.map((h) => h ?? 'text'), columns: null, backend: null, empty: true } };
    if (command.k === 'backend' || command.k === 'declare') { // DECLARE prepares its query: Bind gives its parameters, Execute declares the cursor.
      const p = await this.backend.prepare(command.k === 'declare' ? command.spec.query : text, hints);
      if (!p.ok) return p;
      const b = p.statement;
      return { ok: true, stmt: { name, sql, command, paramTypes: b.paramTypes, columns: b.returnsRows && command.k === 'backend' ? b.columns : null, backend: b, empty: false } };
    }
    if (command.k === 'catalog' && command.query.error !== undefined) return { ok: false, error: command.query.error };
    const columns = command.k === 'show' ? this.settings.showColumns(command.name)
      : command.k === 'catalog' ? command.query.columns : command.k === 'composite' ? command.columns
      : command.k === 'executePrepared' ? this.statements.get(command.spec.name)?.columns ?? null
      : command.k === 'fetch' && !command.spec.move ? this.cursors.shape(command.spec.name)?.columns ?? null : null;
    const paramTypes = command.k === 'catalog' && command.query.paramTypes !== undefined ? command.query.paramTypes : hints.map((h) => h ?? 'text');
    return { ok: true, stmt: { name, sql, command, paramTypes, columns, backend: null, empty: false } };
  }

  /** PREPARE: a named statement, as Parse makes one (sql-prepare.ts). */
  private async prepareSql(spec: PrepareSpec): Promise<BackendResult> {
    if (this.statements.has(spec.name)) return err(GatewayState.duplicatePreparedStatement, `prepared statement "${spec.name}" already exists`);
    const types = declaredTypes(spec, spec.typeNames.length > 0 ? await this.backend.enums() : []);
    if (!types.ok) return types;
    const built = await this.buildStatement(spec.name, spec.query, spec.query, classify(spec.query), types.types);
    if (!built.ok) return prepareError(built.error, spec);
    this.statements.set(spec.name, built.stmt);
    return done('PREPARE');
  }

  /** EXECUTE: the named statement with the arguments' values, as Bind and Execute run it. */
  private async executePrepared(spec: ExecuteSpec): Promise<BackendResult> {
    const stmt = this.statements.get(spec.name);
    if (stmt === undefined || stmt.empty) return this.failed(err(GatewayState.invalidSqlStatementName, `prepared statement "${spec.name}" does not exist`));
    if (stmt.command.k === 'executePrepared') return this.failed(err(GatewayState.featureNotSupported, 'EXECUTE of a prepared EXECUTE is not supported'));
    const args = await executeArgs(spec, stmt.paramTypes, this.backend, this.settings.zone);
    if (!args.ok) return this.failed(args);
    const b = stmt.backend;
    return this.run(stmt.command, () => (b !== null ? this.backend.run(b, args.params) : Promise.resolve(done(''))), args.params);
  }

  private bind(m: Extract<FrontendMessage, { kind: 'bind' }>): void {
    const stmt = this.statements.get(m.statement);
    if (stmt === undefined) {
      const what = m.statement === '' ? 'unnamed prepared statement does not exist' : `prepared statement "${m.statement}" does not exist`;
      this.extendedError({ code: GatewayState.invalidSqlStatementName, message: what });
      return;
    }
    if (m.params.length !== stmt.paramTypes.length) {
      this.extendedError({
        code: GatewayState.protocolViolation,
        message: `bind message supplies ${m.params.length} parameters, but prepared statement "${m.statement}" requires ${stmt.paramTypes.length}`,
      });
      return;
    }
    if (m.paramFormats.length > 1 && m.paramFormats.length !== m.params.length) {
      this.extendedError({ code: GatewayState.protocolViolation, message: `bind message has ${m.paramFormats.length} parameter formats but ${m.params.length} parameters` });
      return;
    }
    if (this.status === 'E' && !acceptedWhenFailed(stmt.command)) {
      this.extendedError({ code: GatewayState.inFailedTransaction, message: 'current transaction is aborted, commands ignored until end of transaction block' });
      return;
    }
    if (m.portal !== '' && (this.portals.has(m.portal) || this.cursors.has(m.portal))) {
      this.extendedError({ code: GatewayState.duplicateCursor, message: `cursor "${m.portal}" already exists` });
      return;
    }
    const params: SqlValue[] = [];
    for (let i = 0; i < m.params.length; i++) {
      try {
        params.push(withSessionZone(this.settings.zone, () => decodeParam(m.params[i] ?? null, formatAt(m.paramFormats, i), stmt.paramTypes[i] as SqlType)));
      } catch (e) {
        const x = e as { code?: unknown; message?: unknown; detail?: unknown };
        const code = typeof x.code === 'string' ? x.code : GatewayState.invalidTextRepresentation;
        // The input function's DETAIL too (json's 'Token "tru" is invalid.'), as PostgreSQL reports it.
        const detail = typeof x.detail === 'string' ? x.detail : undefined;
        this.extendedError({ code, message: typeof x.message === 'string' ? x.message : String(e), detail });
        return;
      }
    }
    this.portals.set(m.portal, { statement: stmt, params, formats: m.resultFormats, result: null, offset: 0 });
    this.io.out.bindComplete();
  }

  private describe(target: 'S' | 'P', name: string): void {
    const out = this.io.out;
    if (target === 'S') {
      const stmt = this.statements.get(name);
      if (stmt === undefined) {
        this.extendedError({ code: GatewayState.invalidSqlStatementName, message: `prepared statement "${name}" does not exist` });
        return;
      }
      out.parameterDescription(stmt.paramTypes.map((t, i) => stmt.backend?.paramOids?.[i] ?? typeOid[t]));
      if (stmt.columns === null) out.noData();
      else out.rowDescription(fieldsOf(stmt.columns, []));
      return;
    }
    const portal = this.portals.get(name);
    if (portal === undefined) {
      // A declared cursor is a portal too (psycopg describes its server-side cursors so).
      const cursor = this.cursors.shape(name);
      if (cursor !== undefined) out.rowDescription(fieldsOf(cursor.columns, cursor.binary ? BINARY : []));
      else this.extendedError({ code: GatewayState.invalidCursorName, message: `portal "${name}" does not exist` });
      return;
    }
    const cols = portal.statement.columns;
    if (cols === null) out.noData();
    else out.rowDescription(fieldsOf(cols, portal.formats));
  }

  private async execute(name: string, maxRows: number): Promise<void> {
    const portal = this.portals.get(name);
    if (portal === undefined) {
      this.extendedError({ code: GatewayState.invalidCursorName, message: `portal "${name}" does not exist` });
      return;
    }
    const stmt = portal.statement;
    if (stmt.empty) {
      this.io.out.emptyQueryResponse();
      return;
    }
    let r = portal.result;
    if (r === null) {
      const backendStmt = stmt.backend;
      // Savepoint statements have no backend statement (they are parsed here; ROLLBACK TO may come while the transaction is failed).
      const res = await this.run(stmt.command, () => (backendStmt !== null ? this.backend.run(backendStmt, portal.params)
        : stmt.command.k === 'savepoint' ? this.backend.execute(stmt.sql) : Promise.resolve(done(''))), portal.params);
      if (!res.ok) {
        this.extendedError(res.error);
        return;
      }
      this.writeNotices(res);
      r = portal.result = res;
    }
    if (!r.returnsRows) {
      this.io.out.commandComplete(r.tag);
      return;
    }
    const remaining = r.rows.length - portal.offset;
    const n = maxRows > 0 ? Math.min(maxRows, remaining) : remaining;
    withSessionZone(this.settings.zone, () => writeDataRows(this.io.out, r, portal.formats, portal.offset, n));
    portal.offset += n;
    if (portal.offset < r.rows.length) this.io.out.portalSuspended();
    else this.io.out.commandComplete(r.tag.startsWith('SELECT') ? `SELECT ${n}` : r.tag);
  }
}
