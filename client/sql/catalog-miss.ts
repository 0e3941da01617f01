/**
 * The catalog a SQL session binds statements against when no transaction is open, and what a statement
 * that names a relation or column its catalog lacks means (sql-session.ts).
 */
import type { Node } from 'libpg-query';
import { SqlError, SqlState } from '../../sql/errors.ts';
import { lowerStatement, type LoweredStatement } from '../../sql/lower-statement.ts';
import type { SqlType } from '../../sql/types.ts';
import { tsLess, type Timestamp } from '../../protocol/timestamp.ts';
import type { CatalogVersion } from '../../sql/replicated-catalog.ts';
import type { SqlClient } from './sql-session.ts';
import { runDdl, type DdlEnv } from './ddl-storage.ts';
import type { SqlTxn } from './sql-txn.ts';
import type { TempTables } from '../../sql/temp-tables.ts';

/** The catalog outside a transaction (for Parse): the cached one, else read in a throwaway transaction. */
export async function peekCatalog(sql: SqlClient): Promise<CatalogVersion> {
  const cached = sql.currentCatalog;
  if (cached !== null) return cached;
  const tx = sql.client.session().begin();
  try {
    return await sql.catalogFor(tx);
  } finally {
    tx.abort();
  }
}

/**
 * `text` lowered against `catalog`; with `temp`, the session's temporary tables named in it are its own
 * (sql/temp-tables.ts), and a statement naming one runs at the client (its rows are fetched, so the
 * replicas never lower a text whose names mean another table to them).
 */
export function lowerOne(sql: SqlClient, text: string, catalog: CatalogVersion, hints: readonly SqlType[], temp: TempTables | null = null): LoweredStatement {
  temp?.refuseForeign(text);
  const stmts = sql.engine.parse(text).stmts;
  if (stmts.length !== 1) throw new SqlError(SqlState.syntaxError, stmts.length === 0 ? 'empty statement' : 'cannot run multiple commands in one statement');
  const own = temp?.rewrite(stmts[0] as Node, text, catalog.catalog) ?? null;
  if (own === null) return lowerStatement(catalog.catalog, stmts[0] as Node, hints, text);
  return { ...lowerStatement(catalog.catalog, own, hints, text), atClient: true };
}

/**
 * A statement that names a relation or column the catalog it was bound against lacks (42P01, 42703)
 * may come right after another client's DDL, which this client's cached catalog has not seen yet
 * (issue 4). The catalog is read again at a fresh timestamp: if the statement binds against that
 * version and that version is older than the transaction (`at`; null: no transaction yet), the
 * failure is 40001 (the transaction read a stale catalog; a retry reads the fresh one: autocommit
 * statements retry by themselves), otherwise the original error stands (DDL after T is not visible
 * at T).
 */
export async function catalogMiss(sql: SqlClient, err: SqlError, text: string, catalog: CatalogVersion, hints: readonly SqlType[], at: Timestamp | null, temp: TempTables | null = null): Promise<SqlError> {
  if (err.code !== SqlState.undefinedTable && err.code !== SqlState.undefinedColumn) return err;
  sql.markStale();
  const fresh = await peekCatalog(sql);
  if (fresh === catalog) return err;
  const version = sql.versionOf(fresh);
  if (at !== null && (version === null || !tsLess(version, at))) return err;
  try {
    lowerOne(sql, text, fresh, hints, temp);
  } catch {
    return err;
  }
  return new SqlError(SqlState.serializationFailure, 'could not serialize access: the statement names a relation or column newer than the catalog this transaction read (another client\'s DDL); retry');
}

/**
 * A DDL statement that failed against a catalog this client had cached (a role "that owns nothing", a
 * relation "that does not exist") may have met a catalog older than the cluster's: as `catalogMiss`,
 * 40001 when a fresher catalog older than the transaction exists (the retry runs the statement on it),
 * otherwise the error stands.
 */
export async function ddlMiss(sql: SqlClient, err: SqlError, catalog: CatalogVersion, at: Timestamp | null): Promise<SqlError> {
  if (err.code === SqlState.serializationFailure) return err;
  sql.markStale();
  const fresh = await peekCatalog(sql);
  if (fresh === catalog) return err;
  const version = sql.versionOf(fresh);
  if (at !== null && (version === null || !tsLess(version, at))) return err;
  return new SqlError(SqlState.serializationFailure, 'could not serialize access: the statement ran on a catalog older than another client\'s DDL; retry');
}

/** runDdl, its failure on a stale catalog reported as ddlMiss decides. */
export async function runDdlFresh(sql: SqlClient, env: DdlEnv, txn: SqlTxn, node: Node, explicit: boolean): Promise<Awaited<ReturnType<typeof runDdl>>> {
  try {
    return await runDdl(env, txn, node);
  } catch (e) {
    if (!(e instanceof SqlError)) throw e;
    throw await ddlMiss(sql, e, txn.catalog, explicit ? txn.ts : null);
  }
}
