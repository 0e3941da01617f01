// What a statement's execution returns (`ExecResult`), what a prepared statement describes
// (`PreparedInfo`), and running a lowered query or DML statement over any execution context: the
// engine's sessions, a cluster client's, and replicas use these (sql/engine.ts re-exports them).

import { coerceParam } from './cast.ts';
import type { DdlOutcome } from './ddl-build.ts';
import { runDml } from './dml.ts';
import { SqlError, SqlState } from './errors.ts';
import { makeEnv } from './eval.ts';
import type { ExecContext } from './exec-context.ts';
import { runPlan } from './executor.ts';
import type { LoweredStatement } from './lower-statement.ts';
import type { OutputColumn } from './plan.ts';
import type { SleepRequest } from './session-time.ts';
import { typeOidOf, type SqlType, type SqlValue } from './types.ts';

export interface ResultColumn {
  readonly name: string;
  readonly type: SqlType;
  readonly typmod: number;
}

export type ExecResult =
  | {
      readonly ok: true;
      /** PostgreSQL command tag word(s), e.g. 'SELECT', 'INSERT', 'CREATE TABLE'. */
      readonly command: string;
      readonly rowCount: number;
      readonly columns: readonly ResultColumn[];
      readonly rows: SqlValue[][];
      /** Exact CommandComplete tag, e.g. 'INSERT 0 3', 'SELECT 2', 'UPDATE 1'. */
      readonly tag: string;
      readonly notices?: readonly string[];
      /** The waits its pg_sleep calls asked for, in order (sql/session-time.ts): the session's shell waits them out before it answers. */
      readonly sleeps?: readonly SleepRequest[];
    }
  | { readonly ok: false; readonly error: SqlError };

export interface PreparedInfo {
  readonly paramTypes: readonly SqlType[];
  /** The parameters' wire oids (ParameterDescription): an enum parameter's is its enum's. */
  readonly paramOids: readonly number[];
  readonly columns: readonly ResultColumn[];
  /** False for statements that return no rows (DML without RETURNING, DDL, ...). */
  readonly returnsRows: boolean;
  readonly command: string;
}

export function describe(l: LoweredStatement): PreparedInfo {
  const s = l.stmt;
  const cols = s.k === 'query' || s.k === 'dml' ? s.columns.map(resultColumn) : s.k === 'show' ? [{ name: s.name, type: 'text' as const, typmod: -1 }] : [];
  const returnsRows = s.k === 'query' || s.k === 'show' || (s.k === 'dml' && s.plan.returning !== null);
  const command = s.k === 'query' ? 'SELECT' : s.k === 'dml' ? s.tag ?? s.plan.k.toUpperCase() : s.k === 'ddl' ? s.tag : s.k === 'txn' ? s.op.toUpperCase()
    : s.k === 'savepoint' ? (s.op === 'savepoint' ? 'SAVEPOINT' : s.op === 'release' ? 'RELEASE' : 'ROLLBACK')
    : s.k === 'set' ? 'SET' : s.k === 'show' ? 'SHOW' : s.k === 'constraints' ? 'SET CONSTRAINTS' : s.tag;
  return { paramTypes: l.paramTypes, paramOids: l.paramTypes.map((t, i) => typeOidOf(t, l.paramEnums?.[i]?.oid ?? -1)), columns: cols, returnsRows, command };
}

function resultColumn(c: OutputColumn): ResultColumn {
  return { name: c.name, type: c.type === 'unknown' ? 'text' : c.type, typmod: c.typmod };
}


/**
 * Executes a lowered query or DML statement against an arbitrary context (replica or client side).
 * Parameters may be JS values or PostgreSQL text; they are converted to the inferred parameter types.
 */
export function runStatement(l: LoweredStatement, rawParams: readonly SqlValue[], ctx: ExecContext): ExecResult {
  const stmt = l.stmt;
  if (rawParams.length === 0 && l.paramTypes.length > 0) throw new SqlError(SqlState.undefinedParameter, 'there is no parameter $1');
  if (rawParams.length < l.paramTypes.length) {
    throw new SqlError(SqlState.protocolViolation, `bind message supplies ${rawParams.length} parameters, but prepared statement requires ${l.paramTypes.length}`);
  }
  const params = rawParams.map((v, i) => coerceParam(v, l.paramTypes[i] ?? 'unknown', l.paramEnums?.[i]));
  const env = makeEnv(params, ctx);
  if (stmt.k === 'query') {
    const rows = runPlan(stmt.plan, env);
    const sleeps = ctx.sleeps !== undefined && ctx.sleeps.length > 0 ? { sleeps: ctx.sleeps } : {};
    return { ok: true, command: 'SELECT', rowCount: rows.length, columns: stmt.columns.map(resultColumn), rows, tag: `SELECT ${rows.length}`, ...sleeps };
  }
  if (stmt.k === 'dml') {
    const r = runDml(stmt.plan, env);
    const command = stmt.tag ?? stmt.plan.k.toUpperCase();
    const tag = stmt.tag ?? (command === 'INSERT' ? `INSERT 0 ${r.count}` : `${command} ${r.count}`);
    return { ok: true, command, rowCount: r.count, columns: stmt.plan.returning === null ? [] : stmt.columns.map(resultColumn), rows: r.returned, tag };
  }
  throw new SqlError(SqlState.featureNotSupported, `statement kind ${stmt.k} cannot run through runStatement`);
}

/** A DDL statement's result after the statement it ran next (`DdlOutcome.then`) gave `r`. */
export function thenOutcome(out: DdlOutcome, r: ExecResult, notices: readonly string[] | undefined): ExecResult {
  if (!r.ok) return r;
  const tag = out.then?.countTag === undefined ? out.tag : `${out.then.countTag} ${r.rowCount}`;
  return { ok: true, command: out.tag, rowCount: r.rowCount, columns: [], rows: [], tag, ...(notices !== undefined ? { notices } : {}) };
}

export function ok(command: string, tag: string, notices?: readonly string[]): ExecResult {
  return { ok: true, command, rowCount: 0, columns: [], rows: [], tag, ...(notices !== undefined && notices.length > 0 ? { notices } : {}) };
}
