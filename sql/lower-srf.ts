// Set-returning functions (unnest, generate_series, regexp_matches, regexp_split_to_table): their binding, shared by a FROM item
// (lower-from.ts) and a select list (PostgreSQL's ProjectSet: the function's values become extra
// columns after the FROM row, `projectset` in plan.ts, added by lower-select.ts). Elsewhere (WHERE,
// GROUP BY, ...) they are refused, as PostgreSQL refuses them.

import type { BindContext, Scope } from './bind-context.ts';
import { coerce, unifyAll } from './coerce.ts';
import { SqlError, SqlState } from './errors.ts';
import { someExpr, type Expr } from './expr.ts';
import { bindRegexFunction } from './lower-match.ts';
import type { SetFunctionPlan } from './plan.ts';
import { vectorArguments } from './lower-array.ts';
import { arrayElementType, isArrayType, isDateTimeType, isIntegerType, typeDisplayName } from './types.ts';
import { timestampKind } from './lower-builtins.ts';
import { noFunc } from './lower-func.ts';
import type { EnumTypeDef } from './enum-types.ts';
import { enumOfExpr, withEnumType } from './lower-enum.ts';

export const SET_FUNCTIONS: ReadonlySet<string> = new Set(['unnest', 'generate_series', 'generate_subscripts', 'regexp_matches', 'regexp_split_to_table']);

/**
 * unnest(array), generate_series(start, stop[, step]), generate_subscripts(array, dim), regexp_matches or
 * regexp_split_to_table over bound arguments, with PostgreSQL's errors. generate_subscripts is the series
 * from array_lower to array_upper (none for an empty or NULL array or another dimension); its reverse
 * form is 0A000.
 */
export function bindSetFunction(ctx: BindContext, name: string, bound: readonly Expr[]): SetFunctionPlan {
  const args = vectorArguments(name, bound);
  // regexp_matches and regexp_split_to_table unnest the list their scalar call computes (regex-eval.ts).
  if (name === 'regexp_matches' || name === 'regexp_split_to_table') {
    return { k: 'unnest', arr: bindRegexFunction(ctx, name, args), t: name === 'regexp_matches' ? '_text' : 'text' };
  }
  if (name === 'generate_subscripts') {
    if (args.length === 3) throw new SqlError(SqlState.featureNotSupported, 'generate_subscripts with reverse is not supported');
    const [arr, dim] = args;
    if (arr === undefined || dim === undefined || args.length !== 2 || !isArrayType(arr.t)) {
      throw new SqlError(SqlState.undefinedFunction, `function generate_subscripts(${args.map((a) => typeDisplayName[a.t]).join(', ')}) does not exist`);
    }
    const d = coerce(ctx, dim, 'int4');
    const end = (fn: string): Expr => ({ k: 'func', fn, args: [arr, d], t: 'int4' });
    return { k: 'series', start: end('array_lower'), stop: end('array_upper'), step: null, t: 'int4' };
  }
  if (name === 'unnest') {
    if (args.length !== 1) throw new SqlError(SqlState.undefinedFunction, 'function unnest with this many arguments does not exist');
    const arr = args[0] as Expr;
    if (arr.t === 'unknown') throw new SqlError('42725', 'function unnest(unknown) is not unique');
    if (!isArrayType(arr.t)) throw new SqlError(SqlState.undefinedFunction, `function unnest(${typeDisplayName[arr.t]}) does not exist`);
    return { k: 'unnest', arr, t: arrayElementType(arr.t) };
  }
  if (args.length < 2 || args.length > 3) throw new SqlError(SqlState.undefinedFunction, 'function generate_series with this many arguments does not exist');
  const datetime = args.some((a) => a.t === 'interval' || isDateTimeType(a.t));
  if (datetime) {
    // (timestamp, timestamp, interval) and (timestamptz, timestamptz, interval); a date or an untyped
    // literal takes the preferred timestamptz unless a timestamp is there.
    const t = timestampKind(args.slice(0, 2));
    const ok = args.length === 3 && args.every((a, i) => a.t === 'unknown' || (i === 2 ? a.t === 'interval' : isDateTimeType(a.t)));
    if (!ok) throw noFunc(name, args);
    return { k: 'series', start: coerce(ctx, args[0] as Expr, t), stop: coerce(ctx, args[1] as Expr, t), step: coerce(ctx, args[2] as Expr, 'interval'), t };
  }
  let [typed, t] = unifyAll(ctx, args.map((a) => (a.t === 'unknown' ? coerce(ctx, a, 'int4') : a)), 'generate_series');
  if (!isIntegerType(t) && t !== 'numeric') throw new SqlError(SqlState.featureNotSupported, `generate_series over ${t} is not supported`);
  if (t === 'int2') {
    typed = typed.map((a) => coerce(ctx, a, 'int4'));
    t = 'int4';
  }
  return { k: 'series', start: typed[0] as Expr, stop: typed[1] as Expr, step: typed[2] ?? null, t };
}

/**
 * A set-returning function in a select list: its plan joins `scope.srfs` and the call becomes the
 * column after the FROM row that will hold its values. Outside a select list (`scope.srfs` null),
 * nested in another such function's arguments, and for the json ones, 0A000.
 */
export function bindTargetSetFunction(scope: Scope, name: string, args: readonly Expr[]): Expr {
  // The json set-returning functions give several columns: FROM only.
  if (!SET_FUNCTIONS.has(name)) throw new SqlError(SqlState.featureNotSupported, `${name} outside FROM is not supported`);
  const srfs = scope.srfs;
  if (srfs === null) throw new SqlError(SqlState.featureNotSupported, `set-returning function ${name} is not supported here (only in FROM and in a select list)`);
  if (args.some((a) => someExpr(a, (x) => x.k === 'col' && x.i >= scope.width))) {
    throw new SqlError(SqlState.featureNotSupported, 'set-returning functions nested in the arguments of another are not supported');
  }
  const plan = bindSetFunction(scope.ctx, name, args);
  srfs.push(plan);
  return withEnumType({ k: 'col', i: scope.width + srfs.length - 1, t: plan.t }, setFunctionEnum(scope, plan));
}

/** The enum whose labels a set function's values are (unnest of an enum array), else null. */
export function setFunctionEnum(scope: Scope, plan: SetFunctionPlan): EnumTypeDef | null {
  return plan.k === 'unnest' && plan.t === 'enum' ? enumOfExpr(scope, plan.arr) : null;
}
