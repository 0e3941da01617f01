/**
 * Deferred foreign key checks on the cluster (sql/foreign-key-deferred.ts): SET CONSTRAINTS inside a
 * transaction, and the checks that wait for COMMIT. They run at the client over the transaction's
 * rows, in passes as any client-side statement does (sql-session.ts): a pass that reads a row or a
 * scan not fetched yet has it fetched (a point read, a reconnaissance range read) and runs again. So
 * the checks are reads of the Pesto transaction, made before its prepare and validated with it: a
 * concurrent transaction deleting a referenced row cannot commit alongside one whose deferred check
 * read that row.
 */
import { SqlTimestamp } from '../../sql/datetime.ts';
import { ok, type ExecResult } from '../../sql/engine.ts';
import type { Catalog } from '../../sql/catalog.ts';
import { SqlError, SqlState, toSqlError } from '../../sql/errors.ts';
import { makeEnv } from '../../sql/eval.ts';
import type { ExecContext, SessionIdentity } from '../../sql/exec-context.ts';
import { foreignKeyGraph, runDeferredChecks } from '../../sql/foreign-key-checks.ts';
import { constraintsNamed, SET_CONSTRAINTS_OUTSIDE_BLOCK, type DeferredCheck } from '../../sql/foreign-key-deferred.ts';
import type { Statement } from '../../sql/lower-statement.ts';
import { OverlaySource } from '../../sql/overlay-source.ts';
import { FetchingSource, type SqlTxn } from './sql-txn.ts';

/** Fetches the rows and scans a pass found missing (the session's point and reconnaissance reads). */
export type FetchMissing = (txn: SqlTxn, source: FetchingSource) => Promise<void>;

/** A pass that keeps finding rows it has not fetched gives up after this many passes. */
const PASSES_MAX = 16;

/** Runs `checks` over the transaction's rows; throws the first violation (23503). */
export async function runDeferredAtClient(txn: SqlTxn, checks: readonly DeferredCheck[], identity: SessionIdentity, fetchMissing: FetchMissing): Promise<void> {
  if (checks.length === 0) return;
  const catalog = txn.catalog.catalog;
  const graph = foreignKeyGraph(catalog);
  for (let pass = 0; pass < PASSES_MAX; pass++) {
    const source = new FetchingSource(txn.rows, txn.scans, txn.load);
    const ctx: ExecContext = {
      source: new OverlaySource(source, [txn.writes]), writes: null, recorder: null, now: new SqlTimestamp(BigInt(txn.ts.micros)), identity,
      nextRowId: () => txn.nextRowId(), sequences: undefined,
    };
    let failure: unknown = null;
    try {
      runDeferredChecks(graph, catalog, makeEnv([], ctx), ctx, checks);
    } catch (e) {
      failure = e;
    }
    if (source.missing.size > 0 || source.missingScans.size > 0) {
      await fetchMissing(txn, source);
      continue;
    }
    if (failure !== null) throw failure;
    return;
  }
  throw new SqlError(SqlState.programLimitExceeded, `deferred foreign key checks kept reading rows they had not fetched after ${PASSES_MAX} rounds of reads`);
}

/** Before the prepare: the deferred checks; a violation (returned) aborts the transaction. */
export async function checksAtCommit(txn: SqlTxn, identity: SessionIdentity, fetchMissing: FetchMissing): Promise<SqlError | null> {
  try {
    await runDeferredAtClient(txn, txn.deferred.takeAll(), identity, fetchMissing);
    return null;
  } catch (e) {
    txn.tx.abort();
    return toSqlError(e);
  }
}

/** SET CONSTRAINTS in an open transaction: the new modes, and the checks made IMMEDIATE run now. */
export async function setConstraintsAtClient(txn: SqlTxn, s: Extract<Statement, { k: 'constraints' }>, identity: SessionIdentity, fetchMissing: FetchMissing): Promise<ExecResult> {
  const catalog = txn.catalog.catalog;
  const names = s.names === null ? null : constraintsNamed(catalog, s.names, s.deferred);
  await runDeferredAtClient(txn, txn.deferred.set(names, s.deferred, catalog), identity, fetchMissing);
  return ok('SET CONSTRAINTS', 'SET CONSTRAINTS');
}

/** SET CONSTRAINTS outside a transaction block: PostgreSQL's WARNING after checking the names; nothing changes. */
export function setConstraintsOutsideBlock(catalog: Catalog, s: Extract<Statement, { k: 'constraints' }>): ExecResult {
  try {
    if (s.names !== null) constraintsNamed(catalog, s.names, s.deferred);
  } catch (e) {
    return { ok: false, error: toSqlError(e) };
  }
  return ok('SET CONSTRAINTS', 'SET CONSTRAINTS', [SET_CONSTRAINTS_OUTSIDE_BLOCK]);
}
