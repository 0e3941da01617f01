// Binding an aggregate call's ORDER BY: inside the call (`string_agg(x, ',' ORDER BY y)`) and WITHIN
// GROUP for the ordered-set aggregates percentile_cont, percentile_disc and mode, and the
// hypothetical-set ones rank, dense_rank, percent_rank and cume_dist (ordered-set-agg.ts).
// As in PostgreSQL, an ordered-set aggregate's signature is its direct arguments followed by its WITHIN
// GROUP value, so a wrong shape is 42883 naming them all; the direct argument (the fraction) may use
// only grouped columns.

import type { FuncCall, Node, SortBy } from 'libpg-query';
import { recordArrays } from './record.ts';
import { exprEquals, type Expr } from './expr.ts';
import type { Scope } from './bind-context.ts';
import type { AggFn, AggOrderKey, AggSpec, OrderedSetFn } from './plan.ts';
import { SqlError, SqlState } from './errors.ts';
import { bindExpr, toBool, unsupported } from './lower-expr.ts';
import { requireOperators } from './lower-select.ts';
import { coerce, commonType } from './coerce.ts';
import { arrayTypeOf, isArrayType, isVectorType, isNumericType, typeDisplayName, type SqlType } from './types.ts';
import { arrayOfElement } from './lower-array.ts';
import { orderedAggs, orderedSetAggs } from './agg.ts';

/**
 * An aggregate's ORDER BY: bound for string_agg, whose result depends on it; checked and dropped for the
 * others, whose results do not. With DISTINCT every key must be an argument, as PostgreSQL requires.
 */
export function aggOrder(scope: Scope, f: FuncCall, fnName: AggFn, distinct: boolean, args: readonly Expr[]): AggOrderKey[] | null {
  if (f.agg_order === undefined || f.agg_order.length === 0) return null;
  const keys: AggOrderKey[] = [];
  for (const n of f.agg_order) {
    if (!('SortBy' in n)) continue;
    const sb = n.SortBy;
    if (sb.useOp !== undefined) throw unsupported('ORDER BY ... USING');
    const e = bindExpr(scope, sb.node as Node);
    if (distinct && !args.some((a) => exprEquals(a, e))) {
      throw new SqlError(SqlState.invalidColumnReference, 'in an aggregate with DISTINCT, ORDER BY expressions must appear in argument list');
    }
    keys.push(orderKey(sb, e));
  }
  return orderedAggs.has(fnName) && keys.length > 0 ? keys : null;
}

/**
 * Whether bindOrderedSet binds this call: an ordered-set aggregate, or WITHIN GROUP on another aggregate
 * (an error there). GROUPING is never called by name (it is its own node, lower-grouping.ts).
 */
export function isOrderedSetCall(fn: AggFn, f: FuncCall): fn is OrderedSetFn | 'grouping' {
  return f.agg_within_group === true || orderedSetAggs.has(fn) || fn === 'grouping';
}

/**
 * ORDER BY or WITHIN GROUP on a function that is not an aggregate: 42809, or for WITHIN GROUP 42883
 * naming the arguments and the WITHIN GROUP values (PostgreSQL looks for such an ordered-set aggregate).
 */
export function orderOnFunction(scope: Scope, name: string, f: FuncCall): SqlError {
  if (f.agg_within_group !== true) return new SqlError(SqlState.wrongObjectType, `ORDER BY specified, but ${name} is not an aggregate function`);
  const args = [...(f.args ?? []), ...(f.agg_order ?? []).flatMap((n) => ('SortBy' in n && n.SortBy.node !== undefined ? [n.SortBy.node] : []))];
  return new SqlError(SqlState.undefinedFunction, `function ${name}(${args.map((a) => typeDisplayName[bindExpr(scope, a).t]).join(', ')}) does not exist`);
}

/** Binds an ordered-set aggregate call into `aggs` (aggregates already forbidden in its arguments). */
export function bindOrderedSet(scope: Scope, aggs: AggSpec[], fn: AggFn, f: FuncCall): Expr {
  if (f.agg_star === true) throw new SqlError(SqlState.wrongObjectType, `${fn} is not an ordered-set aggregate, so it cannot have WITHIN GROUP`);
  const direct = (f.args ?? []).map((a) => bindExpr(scope, a));
  const sorts = (f.agg_order ?? []).flatMap((n) => ('SortBy' in n ? [n.SortBy] : []));
  const values = sorts.map((sb) => bindExpr(scope, sb.node as Node));
  const noSuch = (): SqlError => new SqlError(SqlState.undefinedFunction,
    `function ${fn}(${[...direct, ...values].map((e) => typeDisplayName[e.t]).join(', ')}) does not exist`);
  const filter = f.agg_filter !== undefined ? toBool(scope, bindExpr(scope, f.agg_filter), 'FILTER') : null;
  if (hypothetical.has(fn)) return bindHypothetical(scope, aggs, { fn, direct, sorts, values, filter }, noSuch);
  const sb = sorts[0];
  let v = values[0];
  if (f.agg_within_group !== true || !orderedSetAggs.has(fn) || sb === undefined || v === undefined || values.length !== 1) throw noSuch();
  if (direct.length !== (fn === 'mode' ? 0 : 1)) throw noSuch();
  const polymorphic = (): SqlError => new SqlError(SqlState.datatypeMismatch, 'could not determine polymorphic type because input has type unknown');
  let fraction: Expr | null = direct[0] ?? null;
  const many = fraction !== null && isArrayType(fraction.t);
  if (fraction !== null) {
    try {
      fraction = coerce(scope.ctx, fraction, many ? '_float8' : 'float8');
    } catch (e) {
      if (e instanceof SqlError && direct[0]?.t !== 'unknown') throw noSuch();
      throw e;
    }
  }
  let t: SqlType;
  if (fn === 'percentile_cont') {
    if (v.t !== 'interval' && v.t !== 'unknown' && !isNumericType(v.t)) throw noSuch();
    if (v.t !== 'interval') v = coerce(scope.ctx, v, 'float8');
    t = many ? arrayTypeOf(v.t === 'interval' ? 'interval' : 'float8') : v.t;
  } else {
    if (v.t === 'unknown') throw polymorphic();
    requireOperators(v.t, 'ordering');
    if (many && (isArrayType(v.t) || isVectorType(v.t))) throw new SqlError(SqlState.featureNotSupported, 'multidimensional arrays are not supported');
    if (many && v.t === 'record') throw recordArrays();
    t = many && !isArrayType(v.t) && !isVectorType(v.t) && v.t !== 'record' ? arrayOfElement(v.t) : v.t;
  }
  aggs.push({ fn, arg: v, arg2: fraction, distinct: false, t, filter, order: [orderKey(sb, v)] });
  return { k: 'aggref', i: aggs.length - 1, t };
}

const hypothetical: ReadonlySet<AggFn> = new Set(['rank', 'dense_rank', 'percent_rank', 'cume_dist']);

/** One ORDER BY item over its bound expression: DESC, and NULLS FIRST/LAST with PostgreSQL's default. */
export function orderKey(sb: SortBy, e: Expr): AggOrderKey {
  if (sb.useOp !== undefined) throw unsupported('ORDER BY ... USING');
  const desc = sb.sortby_dir === 'SORTBY_DESC';
  return { e, desc, nullsFirst: sb.sortby_nulls === 'SORTBY_NULLS_FIRST' ? true : sb.sortby_nulls === 'SORTBY_NULLS_LAST' ? false : desc };
}

interface BoundCall {
  readonly fn: AggFn;
  readonly direct: readonly Expr[];
  readonly sorts: readonly SortBy[];
  readonly values: readonly Expr[];
  readonly filter: Expr | null;
}

/** rank, dense_rank, percent_rank, cume_dist WITHIN GROUP: one direct argument per key, of a common type. */
function bindHypothetical(scope: Scope, aggs: AggSpec[], call: BoundCall, noSuch: () => SqlError): Expr {
  const { fn, direct, sorts, values, filter } = call;
  if (direct.length === 0 || direct.length !== values.length) throw noSuch();
  const order: AggOrderKey[] = [];
  const args: Expr[] = [];
  direct.forEach((d, i) => {
    const v = values[i] as Expr;
    const common = commonType(d.t, v.t);
    if (common === null) throw new SqlError(SqlState.datatypeMismatch, `WITHIN GROUP types ${typeDisplayName[v.t]} and ${typeDisplayName[d.t]} cannot be matched`);
    const t = common === 'unknown' ? 'text' : common;
    requireOperators(t, 'ordering');
    args.push(coerce(scope.ctx, d, t));
    order.push(orderKey(sorts[i] as SortBy, coerce(scope.ctx, v, t)));
  });
  const t: SqlType = fn === 'rank' || fn === 'dense_rank' ? 'int8' : 'float8';
  aggs.push({ fn, arg: null, arg2: null, distinct: false, t, filter, order, direct: args });
  return { k: 'aggref', i: aggs.length - 1, t };
}

/** An ordered-set aggregate's direct argument may use only grouped columns (`post` checks, as toPostAgg). */
export function checkDirectArgs(aggs: readonly AggSpec[], post: (e: Expr) => Expr): void {
  for (const a of aggs) {
    if (!orderedSetAggs.has(a.fn)) continue;
    try {
      for (const d of [...(a.arg2 === null ? [] : [a.arg2]), ...(a.direct ?? [])]) post(d);
    } catch (e) {
      if (!(e instanceof SqlError) || e.code !== SqlState.groupingError) throw e;
      throw new SqlError(e.code, e.message, 'Direct arguments of an ordered-set aggregate must use only grouped columns.');
    }
  }
}
