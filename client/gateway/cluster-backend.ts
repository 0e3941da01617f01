// The cluster behind the gateway's SqlBackend interface (issue 5): each gateway session is one SQL
// session of a Pesto client (client/sql/sql-session.ts); the gateway process is one client in the BFT
// model. Statements outside BEGIN ... COMMIT run as their own transaction and are retried on a Pesto
// abort; inside a transaction a Pesto abort surfaces as SQLSTATE 40001 so drivers and tools retry.

import type { EnumTypeDef } from '../../sql/enum-types.ts';
import type { TableDef, ViewDef } from '../../sql/catalog.ts';
import type { SequenceDef } from '../../sql/sequences.ts';
import type { RoleDef } from '../../sql/roles.ts';
import type { SqlType, SqlValue } from '../../sql/types.ts';
import type { SqlClient, SqlPrepared, SqlSession } from '../sql/sql-session.ts';
import { columnsOf, connectRefusal, errorOf, outcomeOf, resultOf, roleCatalog, unknownDatabase } from './engine-backend.ts';
import { peekCatalog } from '../sql/catalog-miss.ts';
import { StatementSleeper } from './statement-sleep.ts';
import type { BackendOutcome, BackendResult, BackendSession, BackendStatement, OpenSessionResult, PrepareResult, RoleCatalog, SqlBackend } from './sql-backend.ts';
import type { SessionZone } from '../../sql/session-zone.ts';

export interface ClusterBackendOptions {
  /** Databases a client may name in its startup packet; any name when omitted. */
  readonly databases?: readonly string[];
}

export class ClusterBackend implements SqlBackend {
  constructor(
    readonly sql: SqlClient,
    private readonly options: ClusterBackendOptions = {},
  ) {}

  async openSession(user: string, database: string, bootstrap?: readonly string[]): Promise<OpenSessionResult> {
    const identity = { user, database, ...(bootstrap !== undefined ? { bootstrap } : {}) };
    const unknown = unknownDatabase(this.options.databases, database);
    if (unknown !== null) return unknown;
    // A catalog role needs CONNECT (the catalog its login just read).
    if (bootstrap?.includes(user) !== true) {
      const refused = connectRefusal((await peekCatalog(this.sql)).catalog, identity);
      if (refused !== null) return refused;
    }
    return { ok: true, session: new ClusterBackendSession(this.sql.session(identity)) };
  }

  /** Read from the cluster, not the cache: a role another gateway created or changed a moment ago logs in. */
  async loginRole(user: string): Promise<RoleDef | null> {
    return (await this.sql.freshCatalog()).catalog.role(user) ?? null;
  }
}

interface ClusterStatement extends BackendStatement {
  readonly prepared: SqlPrepared;
}

class ClusterBackendSession implements BackendSession {
  /** pg_sleep's waits (statement-sleep.ts), on the client's clock. */
  private readonly sleeper: StatementSleeper;

  constructor(private readonly session: SqlSession) {
    this.sleeper = new StatementSleeper(() => session.sql.engine.clockMicros());
  }

  async execute(sql: string): Promise<BackendResult> {
    this.sleeper.statement();
    return resultOf(await this.sleeper.after(await this.session.execute(sql)));
  }

  async prepare(sql: string, paramTypeHints: readonly (SqlType | null)[]): Promise<PrepareResult> {
    const r = await this.session.prepare(sql, paramTypeHints.map((t) => t ?? 'unknown'));
    if (!r.ok) return { ok: false, error: errorOf(r.error) };
    const info = r.statement.info;
    const statement: ClusterStatement = { prepared: r.statement, paramTypes: info.paramTypes, paramOids: info.paramOids, columns: columnsOf(info.columns), returnsRows: info.returnsRows };
    return { ok: true, statement };
  }

  async run(statement: BackendStatement, params: readonly SqlValue[]): Promise<BackendResult> {
    this.sleeper.statement();
    return resultOf(await this.sleeper.after(await this.session.run((statement as ClusterStatement).prepared, params)));
  }

  release(): void {}

  setTimeZone(zone: SessionZone): void {
    this.session.timeZone = zone;
  }

  async begin(): Promise<BackendOutcome> {
    return outcomeOf(await this.session.begin());
  }

  async commit(): Promise<BackendOutcome> {
    return outcomeOf(await this.session.commit());
  }

  async rollback(): Promise<void> {
    await this.session.rollback();
  }

  async close(): Promise<void> {
    this.sleeper.cancel();
    await this.session.close();
  }

  cancel(): void {
    this.session.cancel();
    this.sleeper.cancel();
  }

  async discardTemp(): Promise<void> {
    await this.session.discardTemp();
  }

  async tables(): Promise<readonly TableDef[]> {
    return this.session.temp.visibleTables((await this.session.catalog()).catalog.list());
  }

  async sequences(): Promise<readonly SequenceDef[]> {
    return this.session.temp.visibleSequences((await this.session.catalog()).catalog.listSequences());
  }

  async enums(): Promise<readonly EnumTypeDef[]> {
    return (await this.session.catalog()).catalog.listEnums();
  }

  async views(): Promise<readonly ViewDef[]> {
    return (await this.session.catalog()).catalog.listViews();
  }

  async roles(): Promise<RoleCatalog> {
    return roleCatalog((await this.session.catalog()).catalog, this.session.identity);
  }
}
