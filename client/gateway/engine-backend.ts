// The single-node SQL engine behind the gateway's SqlBackend interface: one engine Session per gateway
// session, named prepared statements for Parse, the engine's own BEGIN/COMMIT/ROLLBACK. Everything the
// engine does is synchronous; the promises only satisfy the interface the cluster backend needs.

import { shown, shownError } from '../../sql/temp-tables.ts';
import type { EnumTypeDef } from '../../sql/enum-types.ts';
import { defaultAclEntries } from '../../sql/privileges.ts';
import { splitNotices } from '../../sql/notices.ts';
import type { Catalog, TableDef, ViewDef } from '../../sql/catalog.ts';
import type { SequenceDef } from '../../sql/sequences.ts';
import { bootstrapOf, type RoleDef } from '../../sql/roles.ts';
import { connectRefused, databaseAcl, databaseComment, schemaAcl } from '../../sql/schema-privileges.ts';
import type { SessionIdentity } from '../../sql/exec-context.ts';
import { SET_CONSTRAINTS_OUTSIDE_BLOCK } from '../../sql/foreign-key-deferred.ts';
import { LockWait } from '../../sql/advisory-locks.ts';
import { StatementSleeper } from './statement-sleep.ts';
import { SqlError, SqlState } from '../../sql/errors.ts';
import type { Engine, ExecResult, ResultColumn, Session } from '../../sql/engine.ts';
import type { SqlType, SqlValue } from '../../sql/types.ts';
import type { SessionZone } from '../../sql/session-zone.ts';
import type {
  BackendColumn,
  BackendError, BackendNotice, BackendOutcome, BackendResult, BackendSession, BackendStatement, OpenSessionResult,
  PrepareResult, RoleCatalog, SqlBackend,
} from './sql-backend.ts';

export interface EngineBackendOptions {
  /** Databases a client may name in its startup packet; any name when omitted. */
  readonly databases?: readonly string[];
}

export class EngineBackend implements SqlBackend {
  constructor(
    private readonly engine: Engine,
    private readonly options: EngineBackendOptions = {},
  ) {}

  openSession(user: string, database: string, bootstrap?: readonly string[]): Promise<OpenSessionResult> {
    const identity = { user, database, ...(bootstrap !== undefined ? { bootstrap } : {}) };
    return Promise.resolve(unknownDatabase(this.options.databases, database) ?? connectRefusal(this.engine.catalog, identity)
      ?? { ok: true, session: new EngineBackendSession(this.engine.session(identity), this.engine, identity) });
  }

  loginRole(user: string): Promise<RoleDef | null> {
    return Promise.resolve(this.engine.catalog.role(user) ?? null);
  }
}

interface EngineStatement extends BackendStatement {
  readonly name: string;
}

/** The startup packet named a database this backend does not serve (`databases` omitted: any name). */
export function unknownDatabase(databases: readonly string[] | undefined, database: string): OpenSessionResult | null {
  if (databases === undefined || databases.includes(database)) return null;
  return { ok: false, error: { code: '3D000', message: `database "${database}" does not exist` } };
}

/** The session may not start: its role lacks CONNECT on the database. */
export function connectRefusal(catalog: Catalog, identity: SessionIdentity): OpenSessionResult | null {
  const e = connectRefused(catalog, identity);
  return e === null ? null : { ok: false, error: { code: e.code, message: e.message, detail: e.detail } };
}

/** The roles of `catalog` as a session of `identity` sees them. */
export function roleCatalog(catalog: Catalog, identity: SessionIdentity): RoleCatalog {
  const database = databaseAcl(catalog);
  return {
    roles: catalog.listRoles(), members: catalog.listMembers(), bootstrap: bootstrapOf(catalog, identity),
    schemaAcl: schemaAcl(catalog).acl, databaseAcl: database.explicit ? database.acl : null,
    schemaComment: catalog.objectComment('schema public') ?? (catalog.objectComment('schema public') === null ? null : 'standard public schema'),
    databaseComment: databaseComment(catalog),
    defaultAcls: defaultAclEntries(catalog.listObjectAcls()),
  };
}

export function columnsOf(cols: readonly ResultColumn[]): BackendColumn[] {
  return cols.map((c) => ({ name: c.name, type: c.type, typmod: c.typmod }));
}

export function noticeOf(message: string): BackendNotice {
  if (message.startsWith("you don't own a lock")) return { severity: 'WARNING', code: '01000', message };
  // IF NOT EXISTS found the object: PostgreSQL's notice carries the error it would have raised.
  const exists = /^(relation|column|extension) "[^"]*"(?: of relation "[^"]*")? already exists, skipping$/.exec(message);
  if (exists !== null) return { severity: 'NOTICE', code: exists[1] === 'relation' ? '42P07' : exists[1] === 'column' ? '42701' : '42710', message };
  if (message.includes('already a transaction in progress')) return { severity: 'WARNING', code: '25001', message };
  // COMMENT ON DATABASE naming another database: PostgreSQL warns and does nothing.
  if (/^database "[^"]*" does not exist$/.test(message)) return { severity: 'WARNING', code: '3D000', message };
  if (message.includes('no transaction in progress') || message === SET_CONSTRAINTS_OUTSIDE_BLOCK) return { severity: 'WARNING', code: '25P01', message };
  return { severity: 'NOTICE', code: '00000', message };
}

/** A statement's error as the client sees it: temporary tables' internal names (sql/temp-tables.ts) shown as their users wrote them. */
export function errorOf(error: SqlError): BackendError {
  const e = shownError(error);
  return { code: e.code, message: e.message, detail: e.detail, hint: e.hint, position: e.position };
}

export function resultOf(r: ExecResult): BackendResult {
  if (!r.ok) return { ok: false, error: errorOf(r.error) };
  return {
    ok: true,
    tag: r.tag,
    returnsRows: r.command === 'SELECT' || r.command === 'SHOW' || r.columns.length > 0,
    columns: columnsOf(r.columns),
    rows: r.rows,
    notices: splitNotices((r.notices ?? []).map(shown)).map((n) => ({ ...noticeOf(n.message), ...(n.detail === undefined ? {} : { detail: n.detail }) })),
  };
}

export function outcomeOf(r: ExecResult): BackendOutcome {
  return r.ok ? { ok: true } : { ok: false, error: { code: r.error.code, message: r.error.message } };
}

class EngineBackendSession implements BackendSession {
  private nextId = 0;
  private onCancel: () => void = () => undefined;
  /** pg_sleep's waits (statement-sleep.ts). */
  private readonly sleeper: StatementSleeper;

  constructor(
    private readonly session: Session,
    private readonly engine: Engine,
    private readonly identity: SessionIdentity,
  ) {
    this.sleeper = new StatementSleeper(() => engine.clockMicros());
  }

  execute(sql: string): Promise<BackendResult> {
    return this.waiting(() => this.session.execute(sql));
  }

  /**
   * Runs `statement`, again each time another session gives back an advisory lock while it waits for
   * one (until a cancel), then waits out its pg_sleep calls.
   */
  private async waiting(statement: () => ExecResult): Promise<BackendResult> {
    this.sleeper.statement();
    for (;;) {
      const released = this.engine.locks.released();
      const r = statement();
      if (r.ok || !(r.error instanceof LockWait)) {
        const slept = await this.sleeper.after(r);
        // Cancelled while it waited: as any failed statement, it fails the transaction block.
        if (!slept.ok && r.ok) this.session.cancelStatement();
        return resultOf(slept);
      }
      const cancelled = new Promise<true>((resolve) => (this.onCancel = () => resolve(true)));
      if (await Promise.race([released.then(() => false), cancelled])) {
        this.session.cancelStatement();
        return resultOf({ ok: false, error: new SqlError(SqlState.queryCanceled, 'canceling statement due to user request') });
      }
    }
  }

  cancel(): void {
    this.onCancel();
    this.sleeper.cancel();
  }

  setTimeZone(zone: SessionZone): void {
    this.session.timeZone = zone;
  }

  prepare(sql: string, paramTypeHints: readonly (SqlType | null)[]): Promise<PrepareResult> {
    const name = `gw${++this.nextId}`;
    const hints: SqlType[] = paramTypeHints.map((t) => t ?? 'unknown');
    const r = this.session.prepare(name, sql, hints);
    if (!r.ok) {
      const e = r.error;
      return Promise.resolve({ ok: false, error: { code: e.code, message: e.message, detail: e.detail, hint: e.hint, position: e.position } });
    }
    const statement: EngineStatement = {
      name,
      paramTypes: r.info.paramTypes,
      paramOids: r.info.paramOids,
      columns: columnsOf(r.info.columns),
      returnsRows: r.info.returnsRows,
    };
    return Promise.resolve({ ok: true, statement });
  }

  run(statement: BackendStatement, params: readonly SqlValue[]): Promise<BackendResult> {
    return this.waiting(() => this.session.executePrepared((statement as EngineStatement).name, params));
  }

  release(statement: BackendStatement): void {
    this.session.deallocate((statement as EngineStatement).name);
  }

  begin(): Promise<BackendOutcome> {
    return Promise.resolve(outcomeOf(this.session.execute('BEGIN')));
  }

  commit(): Promise<BackendOutcome> {
    return Promise.resolve(outcomeOf(this.session.execute('COMMIT')));
  }

  rollback(): Promise<void> {
    this.session.execute('ROLLBACK');
    return Promise.resolve();
  }

  close(): Promise<void> {
    this.sleeper.cancel();
    this.session.close();
    return Promise.resolve();
  }

  discardTemp(): Promise<void> {
    this.session.discardTemp();
    return Promise.resolve();
  }

  tables(): Promise<readonly TableDef[]> {
    return Promise.resolve(this.session.temp.visibleTables(this.engine.catalog.list()));
  }

  sequences(): Promise<readonly SequenceDef[]> {
    return Promise.resolve(this.session.temp.visibleSequences(this.engine.catalog.listSequences()));
  }

  enums(): Promise<readonly EnumTypeDef[]> {
    return Promise.resolve(this.engine.catalog.listEnums());
  }

  views(): Promise<readonly ViewDef[]> {
    return Promise.resolve(this.engine.catalog.listViews());
  }

  roles(): Promise<RoleCatalog> {
    return Promise.resolve(roleCatalog(this.engine.catalog, this.identity));
  }
}
