// Subquery evaluation: scalar (at most one row, else 21000), ARRAY(SELECT ...), EXISTS, IN / ANY / ALL with SQL's NULL
// rules. An uncorrelated subquery runs once per statement (cached in the Env); a correlated one runs per
// outer row, which it reads through `outer[level]`.

import type { SubqueryExpr } from './expr.ts';
import { evalExpr, type Env } from './eval.ts';
import { runPlan } from './executor.ts';
import { compareValues, comparisonHolds } from './ops.ts';
import { SqlError, SqlState } from './errors.ts';
import { arrayElementType, type ArrayType, type Row, type SqlValue } from './types.ts';
import { SqlArray } from './sql-array.ts';

export function runSubquery(e: SubqueryExpr, row: Row, env: Env): SqlValue {
  let rows: Row[];
  if (e.correlated) {
    const saved = env.outer[e.level];
    if (e.publish === undefined) env.outer[e.level] = row;
    else {
      const r: SqlValue[] = new Array<SqlValue>(e.publish.width).fill(null);
      for (const m of e.publish.map) r[m.to] = row[m.from] ?? null;
      env.outer[e.level] = r;
    }
    rows = runPlan(e.plan, env);
    if (saved !== undefined) env.outer[e.level] = saved;
  } else {
    const cached = env.subqueryCache.get(e) as Row[] | undefined;
    if (cached !== undefined) rows = cached;
    else {
      rows = runPlan(e.plan, env);
      env.subqueryCache.set(e, rows);
    }
  }
  switch (e.mode) {
    case 'scalar':
      if (rows.length > 1) {
        throw new SqlError(SqlState.cardinalityViolation, 'more than one row returned by a subquery used as an expression');
      }
      return rows.length === 0 ? null : (rows[0]?.[0] ?? null);
    case 'exists':
      return rows.length > 0;
    case 'array':
      return new SqlArray(arrayElementType(e.t as ArrayType), rows.map((r) => r[0] ?? null));
    case 'in':
    case 'any':
    case 'all': {
      if (rows.length === 0) return e.mode === 'all';
      const v = e.e === null ? null : evalExpr(e.e, row, env);
      if (v === null) return null;
      const op = e.mode === 'in' ? '=' : e.op;
      let sawNull = false;
      for (const r of rows) {
        const w = r[0] ?? null;
        if (w === null) {
          sawNull = true;
          continue;
        }
        const ok = comparisonHolds(op, compareValues(v, w, e.ct));
        if (e.mode === 'all' && !ok) return false;
        if (e.mode !== 'all' && ok) return true;
      }
      if (sawNull) return null;
      return e.mode === 'all';
    }
  }
}
