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

export function lowerOne(sql: SqlClient, text: string, catalog: CatalogVersion, hints: readonly SqlType[]): LoweredStatement {
  const stmts = sql.engine.parse(text).stmts;
  if (stmts.length !== 1) throw new SqlError(SqlState.syntaxError, stmts.length === 0 ? 'empty statement' : 'cannot run multiple commands in one statement');
  return lowerStatement(catalog.catalog, stmts[0] as Node, hints, text);
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
export async function catalogMiss(sql: SqlClient, err: SqlError, text: string, catalog: CatalogVersion, hints: readonly SqlType[], at: Timestamp | null): Promise<SqlError> {
  if (err.code !== SqlState.undefinedTable && err.code !== SqlState.undefinedColumn) return err;
  sql.markStale();
  const fresh = await peekCatalog(sql);
  if (fresh === catalog) return err;
  const version = sql.versionOf(fresh);
  if (at !== null && (version === null || !tsLess(version, at))) return err;
  try {
    lowerOne(sql, text, fresh, hints);
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
