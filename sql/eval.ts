// The expression evaluator: one interpreter for every place SQL expressions are evaluated (projections,
// filters, scan predicates on a replica, UPDATE's new-row computation on a client), so a predicate
// evaluates identically wherever it is stored. NULL follows SQL three-valued logic: comparisons and
// arithmetic with NULL yield NULL, AND/OR use Kleene logic, a filter keeps a row only when its predicate
// is true. `evalPredicate(pred, row)` evaluates a bound predicate (no parameters, no outer rows).

import { enumCast } from './lower-enum.ts';
import { SqlRecord, recordNullTest } from './record.ts';
import type { Expr, SubqueryExpr } from './expr.ts';
import { arrayElementType, isArrayType, type Row, type SqlValue } from './types.ts';
import { SqlArray, evalAnyArray } from './sql-array.ts';
import { SqlError, SqlState, InvariantError } from './errors.ts';
import { arith, compareValues, comparisonHolds, negate } from './ops.ts';
import { castValue } from './cast.ts';
import { bytesAsLatin1, concatBytes } from './bytea.ts';
import { evalFunction } from './functions.ts';
import { likeMatcher } from './like.ts';
import type { ExecContext } from './exec-context.ts';
import { runSubquery } from './subquery.ts';

/** What an expression may read besides its input row. */
export interface Env {
  readonly params: readonly SqlValue[];
  /** Rows of enclosing contexts, indexed by nesting level (see Expr 'outer'). */
  readonly outer: Row[];
  /** The statement's execution context; null when evaluating a stored predicate. */
  readonly ctx: ExecContext | null;
  /** Results of uncorrelated subqueries, computed once per statement. */
  readonly subqueryCache: Map<SubqueryExpr, unknown>;
  /** The current iteration's rows of each WITH RECURSIVE term, by slot. */
  readonly worktables: Map<number, Row[]>;
}

export const emptyEnv: Env = { params: [], outer: [], ctx: null, subqueryCache: new Map(), worktables: new Map() };

export function makeEnv(params: readonly SqlValue[], ctx: ExecContext | null): Env {
  return { params, outer: [], ctx, subqueryCache: new Map(), worktables: new Map() };
}

/** A strict function's argument values, or null when one is NULL (the function's result then). */
export function strictArgs(args: readonly Expr[], row: Row, env: Env): SqlValue[] | null {
  const v: SqlValue[] = [];
  for (const x of args) {
    const y = evalExpr(x, row, env);
    if (y === null) return null;
    v.push(y);
  }
  return v;
}

/** True when a bound predicate holds for the row (NULL counts as false). A null predicate holds always. */
export function evalPredicate(pred: Expr | null, row: Row): boolean {
  return pred === null || evalExpr(pred, row, emptyEnv) === true;
}

export function evalExpr(e: Expr, row: Row, env: Env): SqlValue {
  switch (e.k) {
    case 'const':
      return e.v;
    case 'col': {
      const v = row[e.i];
      if (v === undefined) throw new InvariantError(`column ${e.i} outside row of ${row.length}`);
      return v;
    }
    case 'param': {
      const v = env.params[e.i];
      if (v === undefined) {
        throw new SqlError(SqlState.undefinedParameter, `there is no parameter $${e.i + 1}`);
      }
      return v;
    }
    case 'outer': {
      const r = env.outer[e.level];
      const v = r?.[e.i];
      if (v === undefined) throw new InvariantError(`outer reference ${e.level}.${e.i} unset`);
      return v;
    }
    case 'cmp': {
      const l = evalExpr(e.l, row, env);
      if (l === null) return null;
      const r = evalExpr(e.r, row, env);
      if (r === null) return null;
      return comparisonHolds(e.op, compareValues(l, r, e.ct));
    }
    case 'and': {
      let sawNull = false;
      for (const a of e.args) {
        const v = evalExpr(a, row, env);
        if (v === false) return false;
        if (v === null) sawNull = true;
      }
      return sawNull ? null : true;
    }
    case 'or': {
      let sawNull = false;
      for (const a of e.args) {
        const v = evalExpr(a, row, env);
        if (v === true) return true;
        if (v === null) sawNull = true;
      }
      return sawNull ? null : false;
    }
    case 'not': {
      const v = evalExpr(e.e, row, env);
      return v === null ? null : !v;
    }
    case 'arith': {
      const l = evalExpr(e.l, row, env);
      if (l === null) return null;
      const r = evalExpr(e.r, row, env);
      if (r === null) return null;
      if (e.op === '||') {
        if (e.t !== 'bytea') return String(l) + String(r);
        if (l instanceof Uint8Array && r instanceof Uint8Array) return concatBytes(l, r);
        throw new InvariantError('bytea || with an operand that is not bytea');
      }
      return arith(e.op, l, r, e.t);
    }
    case 'neg': {
      const v = evalExpr(e.e, row, env);
      return v === null ? null : negate(v, e.t);
    }
    case 'isnull': {
      const v = evalExpr(e.e, row, env);
      // A row is NULL when all its fields are, NOT NULL when none is (record.ts).
      if (v instanceof SqlRecord) return recordNullTest(v, e.neg);
      return (v === null) !== e.neg;
    }
    case 'booltest': {
      const v = evalExpr(e.e, row, env);
      const r = e.test === 'unknown' ? v === null : e.test === 'true' ? v === true : v === false;
      return r !== e.neg;
    }
    case 'distinct': {
      const l = evalExpr(e.l, row, env);
      const r = evalExpr(e.r, row, env);
      const same = l === null || r === null ? l === r : compareValues(l, r, e.ct) === 0;
      return same === e.neg;
    }
    case 'in': {
      const v = evalExpr(e.e, row, env);
      if (v === null) return null;
      let sawNull = false;
      for (const x of e.list) {
        const w = evalExpr(x, row, env);
        if (w === null) sawNull = true;
        else if (compareValues(v, w, e.ct) === 0) return !e.neg;
      }
      return sawNull ? null : e.neg;
    }
    case 'anyarr':
      return evalAnyArray(e.op, e.all, evalExpr(e.e, row, env), evalExpr(e.arr, row, env), e.ct);
    case 'array': {
      const t = e.t;
      if (!isArrayType(t)) throw new InvariantError(`ARRAY[] of type ${t}`);
      return new SqlArray(arrayElementType(t), e.items.map((x) => evalExpr(x, row, env)));
    }
    case 'like': {
      const v = evalExpr(e.e, row, env);
      if (v === null) return null;
      const p = evalExpr(e.pat, row, env);
      if (p === null) return null;
      if (v instanceof Uint8Array && p instanceof Uint8Array) return likeMatcher(bytesAsLatin1(p), false)(bytesAsLatin1(v)) !== e.neg;
      return likeMatcher(String(p), e.ci)(String(v)) !== e.neg;
    }
    case 'case': {
      for (const w of e.whens) {
        if (evalExpr(w.when, row, env) === true) return evalExpr(w.then, row, env);
      }
      return e.els === null ? null : evalExpr(e.els, row, env);
    }
    case 'func':
      return evalFunction(e, row, env);
    case 'cast': {
      const v = evalExpr(e.e, row, env);
      if (e.enumType !== undefined) return enumCast(v, e.e.t, e.t, e.enumType);
      return castValue(v, e.e.t, e.t, e.typmod, e.explicit, env.ctx?.now ?? null);
    }
    case 'subquery':
      return runSubquery(e, row, env);
    case 'aggref':
      throw new InvariantError('aggregate reference outside an aggregation');
    case 'winref':
      throw new InvariantError('window function reference outside a window');
  }
}
