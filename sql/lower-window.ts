// Binds window function calls (`f(...) OVER (...)`, `OVER w` with the SELECT's WINDOW clause) into
// `WindowCall`s of the query level, referenced from the select list and ORDER BY as `winref`s; the
// window plan node (window.ts) computes them after grouping and HAVING, before DISTINCT, ORDER BY and
// LIMIT, as PostgreSQL does. Rules and messages are PostgreSQL 15's (parse_agg.c, parse_clause.c).

import type { FuncCall, Node, SelectStmt, SortBy, WindowDef } from 'libpg-query';
import type { Scope } from './bind-context.ts';
import { coerce, unifyAll } from './coerce.ts';
import { SqlError, SqlState, locate } from './errors.ts';
import { noFunc } from './lower-func.ts';
import { mapExpr, someExpr, type Expr } from './expr.ts';
import { arithType, bindAggSpec, bindExpr } from './lower-expr.ts';
import { orderKey } from './lower-ordered-set.ts';
import { requireOperators } from './lower-select.ts';
import type { AggFn, AggOrderKey, FrameBound, Plan, WindowCall, WindowFn, WindowFrame } from './plan.ts';
import { isIntegerType, isNumericType, typeDisplayName, type SqlType } from './types.ts';

const WINDOWING_ERROR = '42P20';
const NESTED = 'window function calls cannot be nested';

/** The window functions proper and their argument counts. */
const ARITY: Record<WindowFn, readonly [number, number]> = {
  row_number: [0, 0], rank: [0, 0], dense_rank: [0, 0], percent_rank: [0, 0], cume_dist: [0, 0], ntile: [1, 1],
  lag: [1, 3], lead: [1, 3], first_value: [1, 1], last_value: [1, 1], nth_value: [2, 2],
};
export const WINDOW_FUNCTIONS: ReadonlySet<string> = new Set(Object.keys(ARITY));

// PostgreSQL's FRAMEOPTION_* bits (nodes/parsenodes.h), as libpg-query reports them in WindowDef.frameOptions.
const F = {
  nondefault: 0x1, range: 0x2, rows: 0x4, groups: 0x8,
  startUnboundedPreceding: 0x20, endUnboundedFollowing: 0x100, startCurrentRow: 0x200, endCurrentRow: 0x400,
  startOffsetPreceding: 0x800, endOffsetPreceding: 0x1000, startOffsetFollowing: 0x2000, endOffsetFollowing: 0x4000,
  excludeCurrentRow: 0x8000, excludeGroup: 0x10000, excludeTies: 0x20000,
} as const;

/** The SELECT's WINDOW clause by name; a later definition may build on an earlier one. */
export function windowDefinitions(stmt: SelectStmt): Map<string, WindowDef> {
  const defs = new Map<string, WindowDef>();
  for (const n of stmt.windowClause ?? []) {
    if (!('WindowDef' in n)) continue;
    const name = n.WindowDef.name ?? '';
    if (defs.has(name)) throw new SqlError(WINDOWING_ERROR, `window "${name}" is already defined`, undefined, undefined, undefined, n.WindowDef.location);
    defs.set(name, locate(n.WindowDef.location, [SqlState.undefinedObject, WINDOWING_ERROR], () => resolveWindow(defs, n.WindowDef)));
  }
  return defs;
}

/** A definition with its `refname` (OVER (w ...), WINDOW x AS (w ...)) merged in, PostgreSQL's rules. */
function resolveWindow(defs: ReadonlyMap<string, WindowDef>, w: WindowDef): WindowDef {
  if (w.refname === undefined) return w;
  const base = defs.get(w.refname);
  if (base === undefined) throw new SqlError(SqlState.undefinedObject, `window "${w.refname}" does not exist`);
  if ((w.partitionClause ?? []).length > 0) throw new SqlError(WINDOWING_ERROR, `cannot override PARTITION BY clause of window "${w.refname}"`);
  if ((w.orderClause ?? []).length > 0 && (base.orderClause ?? []).length > 0) {
    throw new SqlError(WINDOWING_ERROR, `cannot override ORDER BY clause of window "${w.refname}"`);
  }
  if (((base.frameOptions ?? 0) & F.nondefault) !== 0) throw new SqlError(WINDOWING_ERROR, `cannot copy window "${w.refname}" because it has a frame clause`);
  const { refname: _r, ...own } = w;
  return { ...own, partitionClause: base.partitionClause ?? [], orderClause: (w.orderClause ?? []).length > 0 ? w.orderClause ?? [] : base.orderClause ?? [] };
}

/** Why a window function may not appear here, or null when it may. */
function banned(scope: Scope): SqlError | null {
  const agg = scope.aggForbidden;
  if (agg !== null && agg.startsWith('aggregate function calls')) {
    return new SqlError(SqlState.groupingError, 'aggregate function calls cannot contain window function calls');
  }
  if (scope.windowBan === NESTED) return new SqlError(WINDOWING_ERROR, NESTED);
  const where = agg ?? scope.windowBan ?? (scope.windows === null ? 'this context' : null);
  return where === null ? null : new SqlError(WINDOWING_ERROR, `window functions are not allowed in ${where}`);
}

/** `name(args) OVER ...`: an aggregate (`agg`) or a window function over a window; a `winref` to the call. */
export function bindWindowCall(scope: Scope, f: FuncCall, name: string, agg: AggFn | undefined): Expr {
  return locate(f.location, CALL_ERRORS, () => bindCall(scope, f, name, agg));
}

/** Errors about the call itself, which PostgreSQL reports at the call's position. */
const CALL_ERRORS = [WINDOWING_ERROR, SqlState.groupingError, SqlState.wrongObjectType, SqlState.featureNotSupported];

function bindCall(scope: Scope, f: FuncCall, name: string, agg: AggFn | undefined): Expr {
  const ban = banned(scope);
  if (ban !== null) throw ban;
  const fn = WINDOW_FUNCTIONS.has(name) ? (name as WindowFn) : null;
  if (fn === null && agg === undefined) {
    throw new SqlError(SqlState.wrongObjectType, `OVER specified, but ${name} is not a window function nor an aggregate function`);
  }
  if (f.agg_distinct === true) throw new SqlError(SqlState.featureNotSupported, 'DISTINCT is not implemented for window functions');
  if ((f.agg_order ?? []).length > 0) throw new SqlError(SqlState.featureNotSupported, 'aggregate ORDER BY is not implemented for window functions');
  const over = f.over as WindowDef;
  const def = locate(over.location, [SqlState.undefinedObject, WINDOWING_ERROR], () => {
    if (over.name === undefined) return resolveWindow(scope.windowDefs, over);
    const named = scope.windowDefs.get(over.name);
    if (named === undefined) throw new SqlError(SqlState.undefinedObject, `window "${over.name}" does not exist`);
    return named;
  });
  const windows = scope.windows as WindowCall[];
  // Arguments and the window's definition may hold aggregates of this level but no window functions.
  const saved = scope.windows;
  const savedBan = scope.windowBan;
  scope.windows = null;
  scope.windowBan = 'window definitions';
  try {
    const partition = (def.partitionClause ?? []).map((n) => bindExpr(scope, n));
    const order = (def.orderClause ?? []).map((n) => windowOrderKey(scope, n));
    for (const e of partition) requireOperators(e.t, 'equality');
    for (const k of order) requireOperators(k.e.t, 'ordering');
    const frame = locate(over.location, [WINDOWING_ERROR], () => bindFrame(scope, def, order));
    scope.windowBan = NESTED;
    let call: WindowCall;
    if (fn === null) {
      if (f.agg_filter !== undefined) scope.windowBan = 'FILTER';
      const spec = bindAggSpec(scope, agg as AggFn, f);
      call = { fn: null, agg: spec, args: [], partition, order, frame, t: spec.t };
    } else {
      if (f.agg_star) throw new SqlError(SqlState.syntaxError, `${name}(*) specified, but ${name} is not an aggregate function`);
      if (f.agg_filter !== undefined) throw new SqlError(SqlState.wrongObjectType, 'FILTER is not implemented for non-aggregate window functions');
      const [args, t] = windowArgs(scope, fn, (f.args ?? []).map((n) => bindExpr(scope, n)));
      call = { fn, agg: null, args, partition, order, frame, t };
    }
    windows.push(call);
    return { k: 'winref', i: windows.length - 1, t: call.t };
  } finally {
    scope.windows = saved;
    scope.windowBan = savedBan;
  }
}

/** A window's ORDER BY item; an untyped literal sorts as text. */
function windowOrderKey(scope: Scope, n: Node): AggOrderKey {
  const sb = (n as { SortBy: SortBy }).SortBy;
  const e = bindExpr(scope, sb.node as Node);
  return orderKey(sb, e.t === 'unknown' ? coerce(scope.ctx, e, 'text') : e);
}

function windowArgs(scope: Scope, fn: WindowFn, args: Expr[]): [Expr[], SqlType] {
  const [min, max] = ARITY[fn];
  const noFunction = (): SqlError => noFunc(fn, args);
  if (args.length < min || args.length > max) throw noFunction();
  const int4 = (e: Expr): Expr => {
    if (e.t !== 'unknown' && e.t !== 'int2' && e.t !== 'int4') throw noFunction();
    return coerce(scope.ctx, e, 'int4');
  };
  switch (fn) {
    case 'row_number':
    case 'rank':
    case 'dense_rank':
      return [[], 'int8'];
    case 'percent_rank':
    case 'cume_dist':
      return [[], 'float8'];
    case 'ntile':
      return [[int4(args[0] as Expr)], 'int4'];
    case 'first_value':
    case 'last_value':
      return [args, polymorphic(args[0] as Expr)];
    case 'nth_value':
      return [[args[0] as Expr, int4(args[1] as Expr)], polymorphic(args[0] as Expr)];
    case 'lag':
    case 'lead': {
      const offset = args.length > 1 ? int4(args[1] as Expr) : null;
      if (args.length < 3) {
        const v = args[0] as Expr;
        return [offset === null ? [v] : [v, offset], polymorphic(v)];
      }
      // lag(anycompatible, integer, anycompatible): the value and the default share one type.
      const [vd, t] = unifyPair(scope, args[0] as Expr, args[2] as Expr, noFunction);
      return [[vd[0] as Expr, offset as Expr, vd[1] as Expr], t];
    }
  }
}

function unifyPair(scope: Scope, v: Expr, d: Expr, fail: () => SqlError): [Expr[], SqlType] {
  try {
    const [both, t] = unifyAll(scope.ctx, [v, d], 'lag');
    return [both, t === 'unknown' ? 'text' : t];
  } catch (e) {
    if (e instanceof SqlError && e.code === SqlState.datatypeMismatch) throw fail();
    throw e;
  }
}

function polymorphic(e: Expr): SqlType {
  if (e.t === 'unknown') throw new SqlError(SqlState.datatypeMismatch, 'could not determine polymorphic type because input has type unknown');
  return e.t;
}

function bindFrame(scope: Scope, def: WindowDef, order: readonly AggOrderKey[]): WindowFrame {
  const o = def.frameOptions ?? 0;
  const mode = (o & F.rows) !== 0 ? 'rows' : (o & F.groups) !== 0 ? 'groups' : 'range';
  if (mode === 'groups' && order.length === 0) throw new SqlError(WINDOWING_ERROR, 'GROUPS mode requires an ORDER BY clause');
  const bound = (unbounded: number, current: number, preceding: number, following: number, offset: Node | undefined): FrameBound => {
    if ((o & unbounded) !== 0) return { k: 'unbounded' };
    if ((o & current) !== 0) return { k: 'current' };
    const k = (o & preceding) !== 0 ? 'preceding' : (o & following) !== 0 ? 'following' : null;
    if (k === null) return { k: 'current' };
    const at = offset === undefined ? undefined : exprLocation(offset);
    return { k, ...locate(at, [SqlState.invalidColumnReference, SqlState.featureNotSupported, SqlState.datatypeMismatch], () => frameOffset(scope, mode, offset as Node, order)) };
  };
  const start = bound(F.startUnboundedPreceding, F.startCurrentRow, F.startOffsetPreceding, F.startOffsetFollowing, def.startOffset);
  const end = bound(F.endUnboundedFollowing, F.endCurrentRow, F.endOffsetPreceding, F.endOffsetFollowing, def.endOffset);
  const exclude = (o & F.excludeCurrentRow) !== 0 ? 'current' : (o & F.excludeGroup) !== 0 ? 'group' : (o & F.excludeTies) !== 0 ? 'ties' : 'none';
  return { mode, start, end, exclude };
}

/**
 * A frame offset: a count of rows or peer groups (int8), or for RANGE a distance in the ORDER BY key's own
 * terms, with the expressions that move a key by it (PostgreSQL's in_range support functions).
 */
function frameOffset(scope: Scope, mode: WindowFrame['mode'], n: Node, order: readonly AggOrderKey[]): { offset: Expr; lo: Expr | null; hi: Expr | null } {
  const raw = bindExpr(scope, n);
  if (someExpr(raw, (x) => x.k === 'col' || x.k === 'outer' || x.k === 'aggref' || x.k === 'subquery')) {
    throw new SqlError(SqlState.invalidColumnReference, `argument of ${mode.toUpperCase()} must not contain variables`);
  }
  if (mode !== 'range') {
    if (raw.t !== 'unknown' && !isIntegerType(raw.t)) {
      throw new SqlError(SqlState.datatypeMismatch, `argument of ${mode.toUpperCase()} must be type bigint, not type ${typeDisplayName[raw.t]}`);
    }
    return { offset: coerce(scope.ctx, raw, 'int8'), lo: null, hi: null };
  }
  if (order.length !== 1) throw new SqlError(WINDOWING_ERROR, 'RANGE with offset PRECEDING/FOLLOWING requires exactly one ORDER BY column');
  const kt = (order[0] as AggOrderKey).e.t;
  const temporal = kt === 'date' || kt === 'time' || kt === 'timestamp' || kt === 'timestamptz' || kt === 'interval';
  if (!isNumericType(kt) && !temporal) {
    throw new SqlError(SqlState.featureNotSupported, `RANGE with offset PRECEDING/FOLLOWING is not supported for column type ${typeDisplayName[kt]}`);
  }
  const want: SqlType = temporal ? 'interval' : isIntegerType(kt) ? (raw.t === 'unknown' || isIntegerType(raw.t) ? 'int8' : kt) : kt;
  if (raw.t !== 'unknown' && raw.t !== want && !(isNumericType(raw.t) && isNumericType(want))) {
    throw new SqlError(SqlState.featureNotSupported,
      `RANGE with offset PRECEDING/FOLLOWING is not supported for column type ${typeDisplayName[kt]} and offset type ${typeDisplayName[raw.t]}`);
  }
  const offset = coerce(scope.ctx, raw, want);
  const key: Expr = { k: 'col', i: 0, t: kt };
  const moved = (op: '+' | '-'): Expr => {
    const [l, r, t] = arithType(scope, op, key, offset);
    return { k: 'arith', op, l, r, t };
  };
  return { offset, lo: moved('-'), hi: moved('+') };
}

/**
 * The window node over `input` (the FROM row, or the aggregate's output when grouped: `post` rewrites the
 * calls' expressions onto it), and the rewrite of `winref`s into the columns it appends after `width`.
 */
export function windowNode(input: Plan, width: number, calls: readonly WindowCall[], post: (e: Expr) => Expr): { plan: Plan; resolve: (e: Expr) => Expr } {
  const opt = (e: Expr | null): Expr | null => (e === null ? null : post(e));
  const mapped = calls.map((c): WindowCall => ({
    ...c,
    agg: c.agg === null ? null : { ...c.agg, arg: opt(c.agg.arg), arg2: opt(c.agg.arg2), filter: opt(c.agg.filter) },
    args: c.args.map(post),
    partition: c.partition.map(post),
    order: c.order.map((k) => ({ ...k, e: post(k.e) })),
  }));
  return {
    plan: { k: 'window', input, calls: mapped },
    resolve: (e) => mapExpr(e, (x) => (x.k === 'winref' ? { k: 'col', i: width + x.i, t: x.t } : undefined)),
  };
}

/** A parse node's own location (libpg-query puts it on the node's single property). */
function exprLocation(n: Node): number | undefined {
  const inner = Object.values(n)[0] as { location?: number } | undefined;
  return inner?.location;
}
