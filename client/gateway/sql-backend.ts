// The seam between the wire protocol and whatever runs the SQL. The gateway's session logic (simple and
// extended protocol, transaction states, SET/SHOW, COPY, catalog answers) talks only to this interface;
// today the single-node engine implements it (engine-backend.ts), later the Pesto cluster client will,
// reporting a Pesto abort as SQLSTATE 40001 so drivers and tools retry.
//
// Contract:
// - Statements run one at a time per session (the gateway never overlaps calls on one session).
// - `execute` and `run` get exactly one statement, never transaction control: the gateway recognises
//   BEGIN/START TRANSACTION, COMMIT/END and ROLLBACK/ABORT itself and calls `begin`/`commit`/`rollback`.
// - Outside `begin`...`commit`/`rollback` every statement is its own transaction (autocommit); a failed
//   autocommit statement leaves nothing behind.
// - After a statement fails inside a transaction the gateway only ever calls `rollback` (it reports 25P02
//   for everything else itself), so a backend need not track the aborted state.
// - Nothing throws for SQL-level failures: they come back as `{ ok: false, error }` with a SQLSTATE.

import type { EnumTypeDef } from '../../sql/enum-types.ts';
import type { TableDef, ViewDef } from '../../sql/catalog.ts';
import type { SequenceDef } from '../../sql/sequences.ts';
import type { RoleDef, RoleMember } from '../../sql/roles.ts';
import type { AclItem } from '../../sql/privileges.ts';
import type { SqlType, SqlValue } from '../../sql/types.ts';
import type { SessionZone } from '../../sql/session-zone.ts';

export interface BackendColumn {
  readonly name: string;
  readonly type: SqlType;
  /** PostgreSQL typmod (varchar(n) = n + 4, numeric(p,s) = ((p << 16) | s) + 4), -1 for none. */
  readonly typmod: number;
}

export interface BackendError {
  readonly code: string;
  readonly message: string;
  readonly detail?: string | undefined;
  readonly hint?: string | undefined;
  /** Where it happened (PostgreSQL's CONTEXT line), e.g. `COPY t, line 2, column id: "abc"`. */
  readonly context?: string | undefined;
  /** 1-based character position in the statement, when known. */
  readonly position?: number | undefined;
}

export interface BackendNotice {
  readonly severity: 'WARNING' | 'NOTICE';
  readonly code: string;
  readonly message: string;
  /** PostgreSQL's DETAIL field (DROP ... CASCADE's list of what it dropped). */
  readonly detail?: string;
}

export interface BackendRows {
  readonly ok: true;
  /** Exact CommandComplete tag: 'SELECT 2', 'INSERT 0 3', 'UPDATE 1', 'CREATE TABLE', ... */
  readonly tag: string;
  /** True when the statement produces a result set (RowDescription + DataRows), even an empty one. */
  readonly returnsRows: boolean;
  readonly columns: readonly BackendColumn[];
  readonly rows: readonly (readonly SqlValue[])[];
  readonly notices: readonly BackendNotice[];
}

export type BackendResult = BackendRows | { readonly ok: false; readonly error: BackendError };

export type BackendOutcome = { readonly ok: true } | { readonly ok: false; readonly error: BackendError };

/** A statement prepared by a backend; the gateway passes it back to `run` and `release`. */
export interface BackendStatement {
  readonly paramTypes: readonly SqlType[];
  /** The parameters' wire oids when they differ from their types' (an enum's own oid); absent: the types'. */
  readonly paramOids?: readonly number[];
  readonly columns: readonly BackendColumn[];
  readonly returnsRows: boolean;
}

export type PrepareResult = { readonly ok: true; readonly statement: BackendStatement } | { readonly ok: false; readonly error: BackendError };

export interface BackendSession {
  /** Runs one statement given as text, without parameters (the simple query protocol). */
  execute(sql: string): Promise<BackendResult>;
  /**
   * Parses and binds one statement: parameter types (from the hints where given, inferred elsewhere)
   * and result columns. `paramTypeHints[i] === null` means "infer".
   */
  prepare(sql: string, paramTypeHints: readonly (SqlType | null)[]): Promise<PrepareResult>;
  /** Runs a prepared statement with parameters already converted to `statement.paramTypes`. */
  run(statement: BackendStatement, params: readonly SqlValue[]): Promise<BackendResult>;
  release(statement: BackendStatement): void;
  begin(): Promise<BackendOutcome>;
  /** Commits; a backend that cannot commit (a Pesto abort) returns 40001 and the transaction is over. */
  commit(): Promise<BackendOutcome>;
  rollback(): Promise<void>;
  close(): Promise<void>;
  /** DISCARD TEMP / ALL: drops the session's temporary tables (sql/temp-tables.ts). */
  discardTemp?(): Promise<void>;
  /** The client asked to cancel the running statement: a statement waiting for an advisory lock stops with 57014. */
  cancel?(): void;
  /** The session's TimeZone changed (and at the start): statements are bound and run in it (sql/session-zone.ts). */
  setTimeZone?(zone: SessionZone): void;
  /** The tables this session's statements see now (psql's `\d`; client/gateway/psql-describe.ts). */
  tables(): Promise<readonly TableDef[]>;
  /** The sequences this session's statements see now (the catalog, psql's `\d`). */
  sequences(): Promise<readonly SequenceDef[]>;
  /** The views this session's statements see now. */
  views(): Promise<readonly ViewDef[]>;
  /** The enum types this session's statements see now (pg_type, pg_enum, psql's `\dT`). */
  enums(): Promise<readonly EnumTypeDef[]>;
  /** The roles this session's statements see now (pg_roles, pg_authid, owners' names, psql's `\du`). */
  roles(): Promise<RoleCatalog>;
}

/** The roles a session sees: the catalog's, their memberships, and the bootstrap superusers' names (sql/roles.ts). */
/** One ALTER DEFAULT PRIVILEGES entry: its role, kind (pg_default_acl.defaclobjtype), schema and ACL. */
export interface DefaultAclEntry {
  readonly role: number;
  readonly kind: string;
  readonly inPublic: boolean;
  readonly acl: readonly AclItem[];
}

export interface RoleCatalog {
  readonly roles: readonly RoleDef[];
  readonly members: readonly RoleMember[];
  readonly bootstrap: readonly string[];
  /** The schema public's ACL (sql/schema-privileges.ts). */
  readonly schemaAcl: readonly AclItem[];
  /** The database's ACL; null: the default (datacl NULL). */
  readonly databaseAcl: readonly AclItem[] | null;
  /** COMMENT ON SCHEMA public (sql/comments.ts): PostgreSQL's 'standard public schema' until one is set; null: removed. */
  readonly schemaComment: string | null;
  /** COMMENT ON DATABASE (sql/schema-privileges.ts); null: none. */
  readonly databaseComment: string | null;
  /** ALTER DEFAULT PRIVILEGES' entries (sql/default-privileges.ts). */
  readonly defaultAcls: readonly DefaultAclEntry[];
}

export type OpenSessionResult = { readonly ok: true; readonly session: BackendSession } | { readonly ok: false; readonly error: BackendError };

export interface SqlBackend {
  /**
   * `bootstrap`: the gateway's configured users (bootstrap superusers: sql/roles.ts); absent when the
   * gateway asks no passwords, where a user that is no catalog role is one.
   */
  openSession(user: string, database: string, bootstrap?: readonly string[]): Promise<OpenSessionResult>;
  /** The catalog role `user` names, as the latest catalog has it (login: its verifier, LOGIN, VALID UNTIL); null when none does. */
  loginRole(user: string): Promise<RoleDef | null>;
}
