// Lowers libpg-query expression nodes into typed `Expr` trees: resolves column names against the scope
// chain (outer references for correlated subqueries), types every node, inserts implicit coercions and
// folds constants, infers parameter types from their context, and records aggregate calls for the
// grouping rewrite. Unsupported syntax fails with 0A000 (feature_not_supported), never an exception.

import { bindSequenceCall } from './lower-sequence.ts';
import { SET_FUNCTIONS, bindTargetSetFunction } from './lower-srf.ts';
import type { Node, A_Expr, A_Const, FuncCall, SubLink } from 'libpg-query';
import type { CmpOp, Expr } from './expr.ts';
import { mapExpr } from './expr.ts';
import { type Scope } from './bind-context.ts';
import { coerce, commonType, operatorError, unify, unifyAll } from './coerce.ts';
import { SqlError, SqlState, locate } from './errors.ts';
import { castValue, canCast, cannotCast } from './cast.ts';
import { Numeric } from './numeric.ts';
import { arrayTypeOf, isArrayType, isVectorType, isIntegerType, isNumericType, isStringType, typeDisplayName, type SqlType } from './types.ts';
import { resolveTypeName } from './lower-type.ts';
import { bindFunction } from './lower-func.ts';
import { bindJsonOperator } from './lower-json.ts';
import { jsonRowFunctions } from './json-ops.ts';
import { bindAnyArray, bindArrayConstructor, bindArrayOperator, bindSubscript, vectorArguments } from './lower-array.ts';
import { bindSubquery } from './lower-select.ts';
import type { AggFn, AggOrderKey } from './plan.ts';
import { aggNames, orderedAggs, twoArgAggs } from './agg.ts';

export function unsupported(what: string): SqlError {
  return new SqlError(SqlState.featureNotSupported, `${what} is not supported`);
}

export function strOf(n: Node | undefined): string {
  if (n !== undefined && 'String' in n) return n.String.sval ?? '';
  return '';
}

export function nodeKind(n: Node): string {
  return Object.keys(n)[0] ?? '';
}

function resolveColumn(scope: Scope, names: readonly string[]): Expr {
  const col = names[names.length - 1] ?? '';
  const relName = names.length >= 2 ? names[names.length - 2] : undefined;
  let sawRel = false;
  for (let s: Scope | null = scope; s !== null; s = s.parent) {
    let hit: Expr | null = null;
    for (const rel of s.rels) {
      if (relName !== undefined && rel.alias !== relName) continue;
      sawRel = true;
      const idx = rel.columns.findIndex((c) => c.name === col);
      if (idx < 0) continue;
      if (relName === undefined && s.usingHidden.has(rel.offset + idx)) continue;
      const c = rel.columns[idx];
      if (c === undefined) continue;
      if (hit !== null) throw new SqlError(SqlState.ambiguousColumn, `column reference "${col}" is ambiguous`);
      const i = rel.offset + idx;
      hit = s === scope ? { k: 'col', i, t: c.type } : { k: 'outer', level: s.level, i, t: c.type };
    }
    if (hit !== null) {
      if (hit.k === 'outer') for (let t: Scope | null = scope; t !== null && t !== s; t = t.parent) t.correlated = true;
      return hit;
    }
  }
  if (relName !== undefined && !sawRel) {
    throw new SqlError(SqlState.undefinedTable, `missing FROM-clause entry for table "${relName}"`);
  }
  // PostgreSQL quotes a bare name, not a qualified one.
  throw new SqlError(SqlState.undefinedColumn, relName !== undefined ? `column ${relName}.${col} does not exist` : `column "${col}" does not exist`);
}

function constOf(n: Node & { A_Const: unknown }): Expr {
  const c = (n as { A_Const: A_Const }).A_Const;
  if (c.isnull) return { k: 'const', v: null, t: 'unknown' };
  if (c.ival !== undefined) return { k: 'const', v: c.ival.ival ?? 0, t: 'int4' };
  if (c.fval !== undefined) {
    const s = c.fval.fval ?? '0';
    if (/^-?\d+$/.test(s)) {
      const b = BigInt(s);
      if (b >= -(2n ** 63n) && b < 2n ** 63n) {
        const num = Number(b);
        if (num >= -2147483648 && num <= 2147483647) return { k: 'const', v: num, t: 'int4' };
        return { k: 'const', v: Number.isSafeInteger(num) ? num : b, t: 'int8' };
      }
    }
    return { k: 'const', v: Numeric.parse(s), t: 'numeric' };
  }
  if (c.boolval !== undefined) return { k: 'const', v: c.boolval.boolval ?? false, t: 'bool' };
  if (c.sval !== undefined) return { k: 'const', v: c.sval.sval ?? '', t: 'unknown' };
  if (c.bsval !== undefined) throw unsupported('bit string literals');
  return { k: 'const', v: null, t: 'unknown' };
}

export function toBool(scope: Scope, e: Expr, what: string): Expr {
  if (e.t === 'bool') return e;
  if (e.t === 'unknown') return coerce(scope.ctx, e, 'bool');
  throw new SqlError(SqlState.datatypeMismatch, `argument of ${what} must be type boolean, not type ${typeDisplayName[e.t]}`);
}

const cmpOps = new Set(['=', '<>', '!=', '<', '<=', '>', '>=']);

export function bindCompare(scope: Scope, opName: string, l: Expr, r: Expr): Expr {
  const op = (opName === '!=' ? '<>' : opName) as CmpOp;
  const [a, b, ct] = unify(scope.ctx, l, r, op);
  return { k: 'cmp', op, l: a, r: b, ct, t: 'bool' };
}

/** Row-wise comparison: = and <> pairwise, ordering operators lexicographically (as PostgreSQL). */
function bindRowCompare(scope: Scope, opName: string, ls: readonly Node[], rs: readonly Node[]): Expr {
  if (ls.length !== rs.length) throw new SqlError(SqlState.syntaxError, 'unequal number of entries in row expressions');
  const l = ls.map((n) => bindExpr(scope, n));
  const r = rs.map((n) => bindExpr(scope, n));
  const op = opName === '!=' ? '<>' : opName;
  if (op === '=' || op === '<>') {
    const parts = l.map((x, i) => bindCompare(scope, op, x, r[i] as Expr));
    return { k: op === '=' ? 'and' : 'or', args: parts, t: 'bool' };
  }
  const strict = op === '<' || op === '<=' ? '<' : '>';
  const build = (i: number): Expr => {
    const x = l[i] as Expr;
    const y = r[i] as Expr;
    if (i === l.length - 1) return bindCompare(scope, op, x, y);
    return { k: 'or', args: [bindCompare(scope, strict, x, y), { k: 'and', args: [bindCompare(scope, '=', x, y), build(i + 1)], t: 'bool' }], t: 'bool' };
  };
  return build(0);
}

function arithType(scope: Scope, op: string, l: Expr, r: Expr): [Expr, Expr, SqlType] {
  const ctx = scope.ctx;
  if (op === '||') {
    // bytea || bytea (an untyped literal taken as bytea); bytea with text is text's || (anynonarray).
    if ((l.t === 'bytea' && (r.t === 'bytea' || r.t === 'unknown')) || (r.t === 'bytea' && l.t === 'unknown')) {
      return [coerce(ctx, l, 'bytea'), coerce(ctx, r, 'bytea'), 'bytea'];
    }
    if (isStringType(l.t) || isStringType(r.t) || l.t === 'unknown' || r.t === 'unknown') {
      const txt = (e: Expr): Expr => (e.t === 'unknown' || isStringType(e.t) ? coerce(ctx, e, 'text') : { k: 'cast', e, t: 'text', typmod: -1, explicit: true });
      return [txt(l), txt(r), 'text'];
    }
    throw operatorError(op, l.t, r.t);
  }
  const withInterval = intervalArithType(scope, op, l, r);
  if (withInterval !== null) return withInterval;
  // date arithmetic
  if (l.t === 'date' || r.t === 'date') {
    if (l.t === 'date' && (op === '+' || op === '-') && (isIntegerType(r.t) || r.t === 'unknown') ) {
      return [l, coerce(ctx, r, 'int4'), 'date'];
    }
    if (r.t === 'date' && op === '+' && (isIntegerType(l.t) || l.t === 'unknown')) return [coerce(ctx, l, 'int4'), r, 'date'];
    if (l.t === 'date' && op === '-' && (r.t === 'date' || r.t === 'unknown')) return [l, coerce(ctx, r, 'date'), 'int4'];
    throw operatorError(op, l.t, r.t);
  }
  let t: SqlType | null;
  if (l.t === 'unknown' && r.t === 'unknown') throw new SqlError('42725', `operator is not unique: unknown ${op} unknown`);
  else t = commonType(l.t, r.t);
  if (t === null || !isNumericType(t)) throw operatorError(op, l.t, r.t);
  if (op === '%' && (t === 'float4' || t === 'float8')) throw operatorError(op, l.t, r.t);
  return [coerce(ctx, l, t), coerce(ctx, r, t), t];
}

const isTs = (t: SqlType): t is 'timestamp' | 'timestamptz' => t === 'timestamp' || t === 'timestamptz';

/**
 * The operators PostgreSQL 15 has for intervals and timestamps: timestamp[tz] ± interval, interval +
 * timestamp[tz], date ± interval (a timestamp), timestamp - timestamp, interval ± interval, interval *
 * and / a number (as float8), a number * interval. An untyped literal takes the other side's type, except
 * that timestamp + 'literal' is an interval (there is no timestamp + timestamp). Null when none applies.
 */
function intervalArithType(scope: Scope, op: string, l: Expr, r: Expr): [Expr, Expr, SqlType] | null {
  const ctx = scope.ctx;
  const iv = (e: Expr): Expr => coerce(ctx, e, 'interval');
  const isIv = (t: SqlType): boolean => t === 'interval';
  const isIvOrUnknown = (t: SqlType): boolean => t === 'interval' || t === 'unknown';
  const number = (t: SqlType): boolean => isNumericType(t) || t === 'unknown';
  if (!isIv(l.t) && !isIv(r.t) && !(isTs(l.t) && (isTs(r.t) || r.t === 'unknown')) && !(isTs(r.t) && l.t === 'unknown')) return null;
  if (op === '+' || op === '-') {
    if ((isTs(l.t) || l.t === 'date') && (isIv(r.t) || (op === '+' && r.t === 'unknown'))) {
      const t = l.t === 'date' ? 'timestamp' : l.t;
      return [coerce(ctx, l, t), iv(r), t];
    }
    if (op === '+' && isIvOrUnknown(l.t) && (isTs(r.t) || r.t === 'date')) {
      const t = r.t === 'date' ? 'timestamp' : r.t;
      return [iv(l), coerce(ctx, r, t), t];
    }
    if (op === '-' && isTs(l.t) && (isTs(r.t) || r.t === 'unknown')) {
      const t = l.t === 'timestamptz' || r.t === 'timestamptz' ? 'timestamptz' : 'timestamp';
      return [coerce(ctx, l, t), coerce(ctx, r, t), 'interval'];
    }
    if (op === '-' && l.t === 'unknown' && isTs(r.t)) return [coerce(ctx, l, r.t), r, 'interval'];
    if (isIvOrUnknown(l.t) && isIvOrUnknown(r.t)) return [iv(l), iv(r), 'interval'];
  }
  if (op === '*' || op === '/') {
    if (isIv(l.t) && number(r.t)) return [l, coerce(ctx, r, 'float8'), 'interval'];
    if (op === '*' && number(l.t) && isIv(r.t)) return [coerce(ctx, l, 'float8'), r, 'interval'];
  }
  throw operatorError(op, l.t, r.t);
}

function foldConst(e: Expr): Expr {
  return e;
}

/**
 * The query level an aggregate belongs to: PostgreSQL assigns it to the level of the variables in its
 * arguments, so `min(p.id)` inside a subquery over `q` aggregates the outer query's rows.
 */
function aggregateOwner(scope: Scope, f: FuncCall): Scope {
  if (f.agg_star || scope.parent === null || (f.args ?? []).length === 0) return scope;
  const saved = scope.aggForbidden;
  scope.aggForbidden = 'aggregate function calls cannot be nested';
  let probe: Expr[];
  try {
    probe = (f.args ?? []).map((a) => bindExpr(scope, a));
  } finally {
    scope.aggForbidden = saved;
  }
  const levels = new Set<number>();
  let local = false;
  for (const e of probe) {
    mapExpr(e, (x) => {
      if (x.k === 'col') local = true;
      if (x.k === 'outer') levels.add(x.level);
      return undefined;
    });
  }
  if (local || levels.size !== 1) return scope;
  const level = [...levels][0];
  for (let s: Scope | null = scope.parent; s !== null; s = s.parent) if (s.level === level) return s;
  return scope;
}

/**
 * An aggregate's ORDER BY: bound for string_agg, whose result depends on it; checked and dropped for the
 * others, whose results do not. With DISTINCT every key must be an argument, as PostgreSQL requires.
 */
function aggOrder(scope: Scope, f: FuncCall, fnName: AggFn, distinct: boolean, args: readonly Expr[]): AggOrderKey[] | null {
  if (f.agg_order === undefined || f.agg_order.length === 0) return null;
  const keys: AggOrderKey[] = [];
  for (const n of f.agg_order) {
    if (!('SortBy' in n)) continue;
    const sb = n.SortBy;
    if (sb.useOp !== undefined) throw unsupported('ORDER BY ... USING');
    const e = bindExpr(scope, sb.node as Node);
    if (distinct && !args.some((a) => JSON.stringify(a) === JSON.stringify(e))) {
      throw new SqlError(SqlState.invalidColumnReference, 'in an aggregate with DISTINCT, ORDER BY expressions must appear in argument list');
    }
    const desc = sb.sortby_dir === 'SORTBY_DESC';
    keys.push({ e, desc, nullsFirst: sb.sortby_nulls === 'SORTBY_NULLS_FIRST' ? true : sb.sortby_nulls === 'SORTBY_NULLS_LAST' ? false : desc });
  }
  return orderedAggs.has(fnName) && keys.length > 0 ? keys : null;
}

function bindAggregate(scope: Scope, fnName: AggFn, f: FuncCall): Expr {
  const owner = aggregateOwner(scope, f);
  if (owner !== scope) {
    const ref = bindAggregate(owner, fnName, f);
    if (ref.k !== 'aggref') return ref;
    for (let s: Scope | null = scope; s !== null && s !== owner; s = s.parent) s.correlated = true;
    // Read through the owner's published row: FROM columns first, then its aggregates (see toPostAgg).
    return { k: 'outer', level: owner.level, i: owner.width + ref.i, t: ref.t };
  }
  if (scope.aggForbidden !== null) {
    const nested = scope.aggForbidden.startsWith('aggregate function calls');
    throw new SqlError(SqlState.groupingError, nested ? scope.aggForbidden : `aggregate functions are not allowed in ${scope.aggForbidden}`);
  }
  if (scope.aggs === null) scope.aggs = [];
  const aggs = scope.aggs;
  if (f.over !== undefined) throw unsupported('window functions');
  // Arguments are bound with aggregates forbidden inside them (no nesting).
  scope.aggForbidden = 'aggregate function calls cannot be nested';
  try {
    if (f.agg_star) {
      const filter = f.agg_filter !== undefined ? toBool(scope, bindExpr(scope, f.agg_filter), 'FILTER') : null;
      const spec = { fn: 'count_star' as const, arg: null, arg2: null, distinct: false, t: 'int8' as const, filter, order: null };
      aggs.push(spec);
      return { k: 'aggref', i: aggs.length - 1, t: 'int8' };
    }
    const args = (f.args ?? []).map((a) => bindExpr(scope, a));
    const want = twoArgAggs.has(fnName) ? 2 : 1;
    if (args.length !== want) throw new SqlError(SqlState.undefinedFunction, `function ${fnName} with ${args.length} arguments does not exist`);
    let arg = args[0] as Expr;
    let t: SqlType;
    switch (fnName) {
      case 'count':
        t = 'int8';
        break;
      case 'sum':
        if (arg.t === 'unknown') arg = coerce(scope.ctx, arg, 'numeric');
        if (arg.t === 'interval') { t = 'interval'; break; }
        if (!isNumericType(arg.t)) throw new SqlError(SqlState.undefinedFunction, `function sum(${typeDisplayName[arg.t]}) does not exist`);
        t = arg.t === 'int2' || arg.t === 'int4' ? 'int8' : arg.t === 'int8' ? 'numeric' : arg.t;
        break;
      case 'avg':
        if (arg.t === 'unknown') arg = coerce(scope.ctx, arg, 'numeric');
        if (arg.t === 'interval') { t = 'interval'; break; }
        if (!isNumericType(arg.t)) throw new SqlError(SqlState.undefinedFunction, `function avg(${typeDisplayName[arg.t]}) does not exist`);
        t = arg.t === 'float4' || arg.t === 'float8' ? 'float8' : 'numeric';
        if (t === 'float8' && arg.t === 'float4') arg = coerce(scope.ctx, arg, 'float8');
        break;
      case 'min':
      case 'max':
        if (arg.t === 'unknown') arg = coerce(scope.ctx, arg, 'text');
        // PostgreSQL 15 has no min or max of uuid, bytea or boolean (bool_and and bool_or instead).
        if (arg.t === 'uuid' || arg.t === 'bytea' || arg.t === 'bool') throw new SqlError(SqlState.undefinedFunction, `function ${fnName}(${typeDisplayName[arg.t]}) does not exist`);
        t = arg.t;
        break;
      case 'bool_and':
      case 'bool_or':
        arg = toBool(scope, arg, fnName);
        t = 'bool';
        break;
      case 'string_agg':
        // string_agg(bytea, bytea) is bytea; anything else is text's.
        t = arg.t === 'bytea' ? 'bytea' : 'text';
        if (t === 'bytea' && args[1]!.t !== 'bytea' && args[1]!.t !== 'unknown') {
          throw new SqlError(SqlState.undefinedFunction, `function string_agg(bytea, ${typeDisplayName[args[1]!.t]}) does not exist`);
        }
        arg = coerce(scope.ctx, arg, t);
        break;
      case 'array_agg':
        // PostgreSQL has array_agg(anynonarray) and array_agg(anyarray): an untyped literal fits both.
        if (arg.t === 'unknown') throw new SqlError('42725', 'function array_agg(unknown) is not unique');
        if (isArrayType(arg.t) || isVectorType(arg.t)) throw new SqlError(SqlState.featureNotSupported, isVectorType(arg.t) ? 'arrays of int2vector and oidvector are not supported' : 'multidimensional arrays are not supported');
        t = arrayTypeOf(arg.t);
        break;
      case 'count_star':
        t = 'int8';
        break;
      case 'json_agg':
      case 'jsonb_agg':
      case 'json_object_agg':
      case 'jsonb_object_agg':
        // json_agg(anyelement) has no type for an untyped literal; the object aggregates take "any" (text).
        if (arg.t === 'unknown' && !twoArgAggs.has(fnName)) throw new SqlError(SqlState.datatypeMismatch, 'could not determine polymorphic type because input has type unknown');
        if (arg.t === 'unknown') arg = coerce(scope.ctx, arg, 'text');
        t = fnName.startsWith('jsonb') ? 'jsonb' : 'json';
        break;
    }
    const second = args[1] as Expr;
    const arg2 = fnName === 'string_agg' ? coerce(scope.ctx, second, t)
      : twoArgAggs.has(fnName) ? (second.t === 'unknown' ? coerce(scope.ctx, second, 'text') : second) : null;
    const filter = f.agg_filter !== undefined ? toBool(scope, bindExpr(scope, f.agg_filter), 'FILTER') : null;
    const distinct = f.agg_distinct === true;
    aggs.push({ fn: fnName, arg, arg2, distinct, t, filter, order: aggOrder(scope, f, fnName, distinct, args) });
    return { k: 'aggref', i: aggs.length - 1, t };
  } finally {
    scope.aggForbidden = null;
  }
}

function bindFuncCall(scope: Scope, f: FuncCall): Expr {
  const names = (f.funcname ?? []).map(strOf);
  const name = (names[names.length - 1] ?? '').toLowerCase();
  const agg = aggNames[name];
  if (agg !== undefined) return bindAggregate(scope, agg, f);
  if (f.over !== undefined) throw unsupported('window functions');
  if (f.agg_star) throw new SqlError(SqlState.syntaxError, `${name}(*) specified, but ${name} is not an aggregate function`);
  if (SET_FUNCTIONS.has(name) || Object.hasOwn(jsonRowFunctions, name)) return bindTargetSetFunction(scope, name, (f.args ?? []).map((a) => bindExpr(scope, a)));
  return bindSequenceCall(scope, name, f, bindExpr) ?? bindFunction(scope.ctx, name, vectorArguments(name, (f.args ?? []).map((a) => bindExpr(scope, a))));
}

function bindAExpr(scope: Scope, a: A_Expr): Expr {
  const op = strOf(a.name?.[0]);
  switch (a.kind) {
    case 'AEXPR_OP': {
      if (a.lexpr === undefined) {
        const r = bindExpr(scope, a.rexpr as Node);
        if (op === '+') return r;
        if (op !== '-') throw unsupported(`prefix operator ${op}`);
        if (r.k === 'const' && r.v !== null && isNumericType(r.t)) {
          const v = r.v;
          if (typeof v === 'number') {
            if (r.t === 'int4' && v === 2147483648) return { k: 'const', v: -v, t: 'int4' };
            return { k: 'const', v: -v, t: r.t };
          }
          if (typeof v === 'bigint') return { k: 'const', v: castValue(-v, 'numeric', 'int8'), t: 'int8' };
          if (v instanceof Numeric) return { k: 'const', v: v.neg(), t: r.t };
        }
        const rr = r.t === 'unknown' ? coerce(scope.ctx, r, 'numeric') : r;
        if (rr.t === 'interval') return { k: 'neg', e: rr, t: rr.t };
        if (!isNumericType(rr.t)) throw new SqlError(SqlState.undefinedFunction, `operator does not exist: - ${typeDisplayName[rr.t]}`);
        return { k: 'neg', e: rr, t: rr.t };
      }
      if (cmpOps.has(op) && 'RowExpr' in a.lexpr && a.rexpr !== undefined && 'RowExpr' in a.rexpr) {
        return bindRowCompare(scope, op, a.lexpr.RowExpr.args ?? [], a.rexpr.RowExpr.args ?? []);
      }
      const l = bindExpr(scope, a.lexpr);
      const r = bindExpr(scope, a.rexpr as Node);
      const special = bindArrayOperator(scope.ctx, op, l, r) ?? bindJsonOperator(scope.ctx, op, l, r);
      if (special !== null) return special;
      if (cmpOps.has(op)) return bindCompare(scope, op, l, r);
      if (op === '+' || op === '-' || op === '*' || op === '/' || op === '%' || op === '||') {
        const [x, y, t] = arithType(scope, op, l, r);
        return foldConst({ k: 'arith', op, l: x, r: y, t });
      }
      if (op === '~~' || op === '!~~' || op === '~~*' || op === '!~~*') return bindLike(scope, l, r, op.startsWith('!'), op.endsWith('*'));
      if (op === '^') return bindFunction(scope.ctx, 'power', [l, r]);
      throw unsupported(`operator ${op}`);
    }
    case 'AEXPR_LIKE':
    case 'AEXPR_ILIKE': {
      const l = bindExpr(scope, a.lexpr as Node);
      const r = likePattern(scope, a.rexpr as Node);
      return bindLike(scope, l, r, op.startsWith('!'), a.kind === 'AEXPR_ILIKE');
    }
    case 'AEXPR_DISTINCT':
    case 'AEXPR_NOT_DISTINCT': {
      const [l, r, ct] = unify(scope.ctx, bindExpr(scope, a.lexpr as Node), bindExpr(scope, a.rexpr as Node), '=');
      return { k: 'distinct', l, r, ct, neg: a.kind === 'AEXPR_NOT_DISTINCT', t: 'bool' };
    }
    case 'AEXPR_NULLIF': {
      const [l, r] = unify(scope.ctx, bindExpr(scope, a.lexpr as Node), bindExpr(scope, a.rexpr as Node), '=');
      return { k: 'func', fn: 'nullif', args: [l, r], t: l.t };
    }
    case 'AEXPR_IN': {
      const e = bindExpr(scope, a.lexpr as Node);
      const items = a.rexpr !== undefined && 'List' in a.rexpr ? (a.rexpr.List.items ?? []) : [];
      const list = items.map((n) => bindExpr(scope, n));
      const [all, ct] = unifyAll(scope.ctx, [e, ...list], 'IN');
      return { k: 'in', e: all[0] as Expr, list: all.slice(1), neg: op === '<>', ct, t: 'bool' };
    }
    case 'AEXPR_BETWEEN':
    case 'AEXPR_NOT_BETWEEN':
    case 'AEXPR_BETWEEN_SYM':
    case 'AEXPR_NOT_BETWEEN_SYM': {
      const e = bindExpr(scope, a.lexpr as Node);
      const items = a.rexpr !== undefined && 'List' in a.rexpr ? (a.rexpr.List.items ?? []) : [];
      const lo = bindExpr(scope, items[0] as Node);
      const hi = bindExpr(scope, items[1] as Node);
      let both: Expr = { k: 'and', args: [bindCompare(scope, '>=', e, lo), bindCompare(scope, '<=', e, hi)], t: 'bool' };
      if (a.kind === 'AEXPR_BETWEEN_SYM' || a.kind === 'AEXPR_NOT_BETWEEN_SYM') {
        both = { k: 'or', args: [both, { k: 'and', args: [bindCompare(scope, '>=', e, hi), bindCompare(scope, '<=', e, lo)], t: 'bool' }], t: 'bool' };
      }
      return a.kind === 'AEXPR_NOT_BETWEEN' || a.kind === 'AEXPR_NOT_BETWEEN_SYM' ? { k: 'not', e: both, t: 'bool' } : both;
    }
    case 'AEXPR_OP_ANY':
    case 'AEXPR_OP_ALL': {
      // x = ANY (ARRAY[...]) and x <> ALL (ARRAY[...]) over a literal array are IN / NOT IN lists.
      const r = a.rexpr;
      const inList = (op === '=' && a.kind === 'AEXPR_OP_ANY') || (op === '<>' && a.kind === 'AEXPR_OP_ALL');
      if (r === undefined) throw unsupported('ANY/ALL without an array');
      if (!inList || !('A_ArrayExpr' in r)) {
        const cop = op === '!=' ? '<>' : op;
        if (!['=', '<>', '<', '<=', '>', '>='].includes(cop)) throw unsupported(`operator ${op} with ANY/ALL`);
        return bindAnyArray(scope, cop as CmpOp, a.kind === 'AEXPR_OP_ALL', a.lexpr as Node, r);
      }
      const e = bindExpr(scope, a.lexpr as Node);
      const list = (r.A_ArrayExpr.elements ?? []).map((n) => bindExpr(scope, n));
      if (list.length === 0) throw new SqlError(SqlState.indeterminateDatatype, 'cannot determine type of empty array');
      const [all, ct] = unifyAll(scope.ctx, [e, ...list], 'ARRAY');
      return { k: 'in', e: all[0] as Expr, list: all.slice(1), neg: op === '<>', ct, t: 'bool' };
    }
    default:
      throw unsupported(`expression ${String(a.kind)}`);
  }
}

/** A LIKE pattern; `ESCAPE 'c'` is rewritten at bind time into the default backslash escape. */
function likePattern(scope: Scope, n: Node): Expr {
  if (!('FuncCall' in n) || strOf(n.FuncCall.funcname?.[n.FuncCall.funcname.length - 1]) !== 'like_escape') return bindExpr(scope, n);
  const [p, e] = (n.FuncCall.args ?? []).map((x) => bindExpr(scope, x));
  if (p?.k !== 'const' || e?.k !== 'const' || typeof p.v !== 'string' || typeof e.v !== 'string') throw unsupported('non-constant LIKE ... ESCAPE');
  const esc = e.v;
  if (esc.length > 1) throw new SqlError('22019', 'invalid escape string', 'Escape string must be empty or one character.');
  let out = '';
  const s = p.v;
  for (let i = 0; i < s.length; i++) {
    const ch = s[i] as string;
    if (esc !== '' && ch === esc) {
      const next = s[i + 1] ?? '';
      i++;
      out += '\\' + next;
    } else if (ch === '\\') out += '\\\\';
    else out += ch;
  }
  return { k: 'const', v: out, t: 'unknown' };
}

function bindLike(scope: Scope, l: Expr, r: Expr, neg: boolean, ci: boolean): Expr {
  // bytea LIKE bytea matches byte by byte (an untyped pattern taken as bytea); there is no bytea ILIKE.
  if (!ci && ((l.t === 'bytea' && (r.t === 'bytea' || r.t === 'unknown')) || (r.t === 'bytea' && l.t === 'unknown'))) {
    return { k: 'like', e: coerce(scope.ctx, l, 'bytea'), pat: coerce(scope.ctx, r, 'bytea'), neg, ci, t: 'bool' };
  }
  const ok = (e: Expr): boolean => isStringType(e.t) || e.t === 'unknown';
  if (!ok(l) || !ok(r)) throw operatorError(ci ? '~~*' : '~~', l.t, r.t);
  const text = (e: Expr): Expr => (e.t === 'bpchar' ? { k: 'cast', e, t: 'text', typmod: -1, explicit: false } : coerce(scope.ctx, e, 'text'));
  return { k: 'like', e: text(l), pat: text(r), neg, ci, t: 'bool' };
}

function bindSubLink(scope: Scope, s: SubLink): Expr {
  const sub = bindSubquery(scope, s.subselect as Node);
  const correlated = sub.correlated;
  const base = { k: 'subquery' as const, plan: sub.plan, correlated, level: scope.level };
  switch (s.subLinkType) {
    case 'EXISTS_SUBLINK':
      return { ...base, mode: 'exists', e: null, op: '=', ct: 'bool', t: 'bool' };
    case 'EXPR_SUBLINK': {
      if (sub.columns.length !== 1) throw new SqlError(SqlState.syntaxError, 'subquery must return only one column');
      const t = sub.columns[0]?.type ?? 'text';
      return { ...base, mode: 'scalar', e: null, op: '=', ct: t, t: t === 'unknown' ? 'text' : t };
    }
    case 'ANY_SUBLINK':
    case 'ALL_SUBLINK': {
      if (sub.columns.length !== 1) throw new SqlError(SqlState.syntaxError, 'subquery has too many columns');
      const opName = s.operName !== undefined ? strOf(s.operName[0]) : '=';
      if (!cmpOps.has(opName)) throw unsupported(`operator ${opName} with a subquery`);
      const left = bindExpr(scope, s.testexpr as Node);
      const st = sub.columns[0]?.type ?? 'text';
      const ct = commonType(left.t, st);
      if (ct === null) throw operatorError(opName, left.t, st);
      const e = coerce(scope.ctx, left, ct);
      if (st !== ct && !canCast(st, ct)) throw cannotCast(st, ct);
      const plan = st === ct || st === 'unknown' ? sub.plan : {
        k: 'project' as const, input: sub.plan,
        exprs: [{ k: 'cast' as const, e: { k: 'col' as const, i: 0, t: st }, t: ct, typmod: -1, explicit: false }],
      };
      const op = (opName === '!=' ? '<>' : opName) as CmpOp;
      const mode = s.subLinkType === 'ALL_SUBLINK' ? 'all' : s.operName === undefined ? 'in' : 'any';
      return { ...base, plan, mode, e, op, ct, t: 'bool' };
    }
    default:
      throw unsupported(`subquery kind ${String(s.subLinkType)}`);
  }
}

export function bindExpr(scope: Scope, n: Node): Expr {
  if ('ColumnRef' in n) {
    const fields = n.ColumnRef.fields ?? [];
    if (fields.some((f) => 'A_Star' in f)) throw new SqlError(SqlState.syntaxError, 'row expansion via "*" is not supported here');
    return locate(n.ColumnRef.location, [SqlState.undefinedColumn, SqlState.undefinedTable], () => resolveColumn(scope, fields.map(strOf)));
  }
  if ('A_Const' in n) return constOf(n);
  if ('ParamRef' in n) {
    const i = (n.ParamRef.number ?? 0) - 1;
    if (i < 0) throw new SqlError(SqlState.undefinedParameter, 'there is no parameter $0');
    scope.ctx.noteParam(i);
    return { k: 'param', i, t: scope.ctx.paramTypes[i] ?? 'unknown' };
  }
  if ('A_Expr' in n) return locate(n.A_Expr.location, [SqlState.undefinedFunction], () => bindAExpr(scope, n.A_Expr));
  if ('BoolExpr' in n) {
    const b = n.BoolExpr;
    const kw = b.boolop === 'AND_EXPR' ? 'AND' : b.boolop === 'OR_EXPR' ? 'OR' : 'NOT';
    const args = (b.args ?? []).map((x) => toBool(scope, bindExpr(scope, x), kw));
    if (kw === 'NOT') return { k: 'not', e: args[0] as Expr, t: 'bool' };
    return { k: kw === 'AND' ? 'and' : 'or', args, t: 'bool' };
  }
  if ('NullTest' in n) {
    const e = bindExpr(scope, n.NullTest.arg as Node);
    return { k: 'isnull', e, neg: n.NullTest.nulltesttype === 'IS_NOT_NULL', t: 'bool' };
  }
  if ('BooleanTest' in n) {
    const e = toBool(scope, bindExpr(scope, n.BooleanTest.arg as Node), 'IS TRUE');
    const bt = n.BooleanTest.booltesttype ?? 'IS_TRUE';
    const test = bt.includes('TRUE') ? 'true' : bt.includes('FALSE') ? 'false' : 'unknown';
    return { k: 'booltest', e, test, neg: bt.startsWith('IS_NOT'), t: 'bool' };
  }
  if ('TypeCast' in n) {
    const rt = resolveTypeName(n.TypeCast.typeName ?? {});
    if (n.TypeCast.arg !== undefined && 'A_ArrayExpr' in n.TypeCast.arg) {
      return bindArrayConstructor(scope, n.TypeCast.arg.A_ArrayExpr.elements ?? [], rt.type);
    }
    const e = bindExpr(scope, n.TypeCast.arg as Node);
    if (e.k === 'param' && e.t === 'unknown') return coerce(scope.ctx, e, rt.type, rt.typmod);
    if (!canCast(e.t, rt.type)) throw cannotCast(e.t, rt.type);
    if (e.k === 'const') return { k: 'const', v: castValue(e.v, e.t, rt.type, rt.typmod, true), t: rt.type };
    return { k: 'cast', e, t: rt.type, typmod: rt.typmod, explicit: true };
  }
  if ('FuncCall' in n) return locate(n.FuncCall.location, [SqlState.undefinedFunction], () => bindFuncCall(scope, n.FuncCall));
  if ('CaseExpr' in n) {
    const c = n.CaseExpr;
    const operand = c.arg !== undefined ? bindExpr(scope, c.arg) : null;
    const whens = (c.args ?? []).map((w) => {
      const cw = 'CaseWhen' in w ? w.CaseWhen : {};
      const cond = bindExpr(scope, cw.expr as Node);
      return { when: operand === null ? toBool(scope, cond, 'CASE/WHEN') : bindCompare(scope, '=', operand, cond), then: bindExpr(scope, cw.result as Node) };
    });
    const els = c.defresult !== undefined ? bindExpr(scope, c.defresult) : null;
    const [results, t] = unifyAll(scope.ctx, [...whens.map((w) => w.then), ...(els === null ? [] : [els])], 'CASE');
    return { k: 'case', whens: whens.map((w, i) => ({ when: w.when, then: results[i] as Expr })), els: els === null ? null : (results[whens.length] as Expr), t };
  }
  if ('CoalesceExpr' in n) {
    const [args, t] = unifyAll(scope.ctx, (n.CoalesceExpr.args ?? []).map((x) => bindExpr(scope, x)), 'COALESCE');
    return { k: 'func', fn: 'coalesce', args, t };
  }
  if ('MinMaxExpr' in n) {
    const [args, t] = unifyAll(scope.ctx, (n.MinMaxExpr.args ?? []).map((x) => bindExpr(scope, x)), n.MinMaxExpr.op === 'IS_GREATEST' ? 'GREATEST' : 'LEAST');
    return { k: 'func', fn: n.MinMaxExpr.op === 'IS_GREATEST' ? 'greatest' : 'least', args, t };
  }
  if ('SQLValueFunction' in n) {
    const op = n.SQLValueFunction.op ?? '';
    if (op.startsWith('SVFOP_CURRENT_TIMESTAMP')) return bindFunction(scope.ctx, 'now', []);
    if (op.startsWith('SVFOP_LOCALTIMESTAMP')) return bindFunction(scope.ctx, 'localtimestamp', []);
    if (op === 'SVFOP_CURRENT_DATE') return bindFunction(scope.ctx, 'current_date', []);
    if (op === 'SVFOP_CURRENT_USER' || op === 'SVFOP_SESSION_USER' || op === 'SVFOP_USER') return bindFunction(scope.ctx, 'current_user', []);
    if (op === 'SVFOP_CURRENT_SCHEMA') return bindFunction(scope.ctx, 'current_schema', []);
    if (op === 'SVFOP_CURRENT_CATALOG') return bindFunction(scope.ctx, 'current_database', []);
    throw unsupported(op.replace('SVFOP_', '').toLowerCase());
  }
  if ('SubLink' in n) return bindSubLink(scope, n.SubLink);
  if ('A_ArrayExpr' in n) return bindArrayConstructor(scope, n.A_ArrayExpr.elements ?? []);
  if ('A_Indirection' in n) return bindSubscript(scope, n.A_Indirection);
  if ('SetToDefault' in n) throw new SqlError(SqlState.syntaxError, 'DEFAULT is not allowed in this context');
  throw unsupported(`expression ${nodeKind(n)}`);
}
