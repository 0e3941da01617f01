// Lowers libpg-query expression nodes into typed `Expr` trees: resolves column names against the scope
// chain (outer references for correlated subqueries), types every node, inserts implicit coercions and
// folds constants, infers parameter types from their context, and records aggregate calls for the
// grouping rewrite. Unsupported syntax fails with 0A000 (feature_not_supported), never an exception.

import { ENUM_FUNCTIONS, bindEnumFunction, enumOfExpr, enumOperands, toEnum, toEnumArray } from './lower-enum.ts';
import { bindSequenceCall } from './lower-sequence.ts';
import { SET_FUNCTIONS, bindTargetSetFunction } from './lower-srf.ts';
import type { Node, A_Expr, A_Const, FuncCall } from 'libpg-query';
import { mapExpr, type CmpOp, type Expr } from './expr.ts';
import { type Scope, unreachableReference } from './bind-context.ts';
import { coerce, commonType, foldCast, operatorError, unify, unifyAll } from './coerce.ts';
import { SqlError, SqlState, locate } from './errors.ts';
import { castValue, canCast, cannotCast } from './cast.ts';
import { Numeric } from './numeric.ts';
import { isArrayType, isVectorType, isIntegerType, isNumericType, isStringType, typeDisplayName, type SqlType } from './types.ts';
import { resolveTypeName } from './lower-type.ts';
import { datetimeArithType } from './lower-datetime-arith.ts';
import { bindBitwise, bindFunction } from './lower-func.ts';
import { bindMakeIntervalArguments, bindVariadicCall } from './lower-builtins.ts';
import { bindJsonOperator } from './lower-json.ts';
import { bindLike, bindRegexOperator, likePattern } from './lower-match.ts';
import { jsonRowFunctions } from './json-ops.ts';
import { arrayOfElement, bindAnyArray, bindArrayConstructor, bindArrayOperator, bindSubscript, vectorArguments } from './lower-array.ts';
import { bindSubLink } from './lower-sublink.ts';
import type { AggFn, AggSpec } from './plan.ts';
import { WINDOW_FUNCTIONS, bindWindowCall } from './lower-window.ts';
import { aggNames, hypotheticalAggs, twoArgAggs } from './agg.ts';
import { aggOrder, bindOrderedSet, isOrderedSetCall, orderOnFunction } from './lower-ordered-set.ts';
import { bindGrouping } from './lower-grouping.ts';
import { recordArrays } from './record.ts';
import { castToRecord } from './lower-row.ts';
import { isRecordName } from './lower-type.ts';
import { ROW_JSON_FUNCTIONS, bindRowCompare, bindRowConstructor, bindWholeRow } from './lower-row.ts';

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
  if (relName === undefined) {
    const whole = bindWholeRow(scope, [{ String: { sval: col } }]);
    if (whole !== null) return whole;
  }
  const unreachable = relName !== undefined && sawRel ? null : unreachableReference(scope, relName, col);
  if (unreachable !== null) throw unreachable;
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

export const cmpOps = new Set(['=', '<>', '!=', '<', '<=', '>', '>=']);

export function bindCompare(scope: Scope, opName: string, l: Expr, r: Expr): Expr {
  const op = (opName === '!=' ? '<>' : opName) as CmpOp;
  [l, r] = enumOperands(scope, op, l, r);
  const [a, b, ct] = unify(scope.ctx, l, r, op);
  return { k: 'cmp', op, l: a, r: b, ct, t: 'bool' };
}

export function arithType(scope: Scope, op: string, l: Expr, r: Expr): [Expr, Expr, SqlType] {
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
  const withInterval = datetimeArithType(scope.ctx, op, l, r);
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
  // Arguments are bound with aggregates forbidden inside them (no nesting).
  scope.aggForbidden = 'aggregate function calls cannot be nested';
  try {
    if (isOrderedSetCall(fnName, f)) return bindOrderedSet(scope, aggs, fnName, f);
    const spec = bindAggSpec(scope, fnName, f);
    aggs.push(spec);
    return { k: 'aggref', i: aggs.length - 1, t: spec.t };
  } finally {
    scope.aggForbidden = null;
  }
}

/** An aggregate call's arguments, result type, FILTER and ORDER BY (plain aggregates above; with OVER, lower-window.ts). */
export function bindAggSpec(scope: Scope, fnName: AggFn, f: FuncCall): AggSpec {
  if (f.agg_star) {
    const filter = f.agg_filter !== undefined ? toBool(scope, bindExpr(scope, f.agg_filter), 'FILTER') : null;
    return { fn: 'count_star', arg: null, arg2: null, distinct: false, t: 'int8', filter, order: null };
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
      // A time sums (and averages) as an interval, through its implicit cast, as in PostgreSQL.
      if (arg.t === 'time') arg = coerce(scope.ctx, arg, 'interval');
      if (arg.t === 'interval') { t = 'interval'; break; }
      if (!isNumericType(arg.t)) throw new SqlError(SqlState.undefinedFunction, `function sum(${typeDisplayName[arg.t]}) does not exist`);
      t = arg.t === 'int2' || arg.t === 'int4' ? 'int8' : arg.t === 'int8' ? 'numeric' : arg.t;
      break;
    case 'avg':
      if (arg.t === 'unknown') arg = coerce(scope.ctx, arg, 'numeric');
      if (arg.t === 'time') arg = coerce(scope.ctx, arg, 'interval');
      if (arg.t === 'interval') { t = 'interval'; break; }
      if (!isNumericType(arg.t)) throw new SqlError(SqlState.undefinedFunction, `function avg(${typeDisplayName[arg.t]}) does not exist`);
      t = arg.t === 'float4' || arg.t === 'float8' ? 'float8' : 'numeric';
      if (t === 'float8' && arg.t === 'float4') arg = coerce(scope.ctx, arg, 'float8');
      break;
    case 'min':
    case 'max':
      if (arg.t === 'unknown') arg = coerce(scope.ctx, arg, 'text');
      // PostgreSQL 15 has no min or max of uuid, bytea or boolean (bool_and and bool_or instead), nor of void.
      if (arg.t === 'uuid' || arg.t === 'bytea' || arg.t === 'bool' || arg.t === 'void') throw new SqlError(SqlState.undefinedFunction, `function ${fnName}(${typeDisplayName[arg.t]}) does not exist`);
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
      if (arg.t === 'record') throw recordArrays();
      t = arrayOfElement(arg.t);
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
    default:
      // Ordered-set and hypothetical-set aggregates bind in lower-ordered-set.ts; only OVER reaches here.
      throw new SqlError(SqlState.featureNotSupported, `OVER is not supported for ordered-set aggregate ${fnName}`);
  }
  const second = args[1] as Expr;
  const arg2 = fnName === 'string_agg' ? coerce(scope.ctx, second, t)
    : twoArgAggs.has(fnName) ? (second.t === 'unknown' ? coerce(scope.ctx, second, 'text') : second) : null;
  const filter = f.agg_filter !== undefined ? toBool(scope, bindExpr(scope, f.agg_filter), 'FILTER') : null;
  const distinct = f.agg_distinct === true;
  return { fn: fnName, arg, arg2, distinct, t, filter, order: aggOrder(scope, f, fnName, distinct, args) };
}

function bindFuncCall(scope: Scope, f: FuncCall): Expr {
  const names = (f.funcname ?? []).map(strOf);
  const name = (names[names.length - 1] ?? '').toLowerCase();
  // Whole rows are values only as these functions' arguments (lower-row.ts).
  const saved = scope.rowArgs;
  scope.rowArgs = ROW_JSON_FUNCTIONS.has(name);
  try {
    return bindCall(scope, f, name);
  } finally {
    scope.rowArgs = saved;
  }
}

function bindCall(scope: Scope, f: FuncCall, name: string): Expr {
  const agg = aggNames[name] ?? (f.agg_within_group === true ? hypotheticalAggs[name] : undefined);
  if (f.over !== undefined) return bindWindowCall(scope, f, name, agg);
  if (agg !== undefined) return bindAggregate(scope, agg, f);
  if (WINDOW_FUNCTIONS.has(name)) throw new SqlError(SqlState.wrongObjectType, `window function ${name} requires an OVER clause`, undefined, undefined, undefined, f.location);
  if (f.agg_star) throw new SqlError(SqlState.syntaxError, `${name}(*) specified, but ${name} is not an aggregate function`);
  if (f.agg_order !== undefined) throw orderOnFunction(scope, name, f);
  if (SET_FUNCTIONS.has(name) || Object.hasOwn(jsonRowFunctions, name)) return bindTargetSetFunction(scope, name, (f.args ?? []).map((a) => bindExpr(scope, a)));
  if (ENUM_FUNCTIONS.has(name)) return bindEnumFunction(scope, name, (f.args ?? []).map((a) => bindExpr(scope, a)));
  const sequenceCall = bindSequenceCall(scope, name, f, bindExpr);
  if (sequenceCall !== undefined) return sequenceCall;
  const raw = f.args ?? [];
  const args = name === 'make_interval' ? bindMakeIntervalArguments(raw, (a) => bindExpr(scope, a)) : vectorArguments(name, raw.map((a) => bindExpr(scope, a)));
  return (f.func_variadic === true ? bindVariadicCall(scope.ctx, name, args) : null) ?? bindFunction(scope.ctx, name, args);
}

function bindAExpr(scope: Scope, a: A_Expr): Expr {
  // OPERATOR(pg_catalog.~), as psql writes its patterns: the built-in operator (no other schema has any).
  const names = (a.name ?? []).map(strOf);
  if (names.length > 2 || (names.length === 2 && names[0] !== 'pg_catalog')) throw unsupported(`operator ${names.join('.')}`);
  const op = names[names.length - 1] ?? '';
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
        // -time is the negated interval (time's implicit cast), as in PostgreSQL.
        if (rr.t === 'interval' || rr.t === 'time') return { k: 'neg', e: coerce(scope.ctx, rr, 'interval'), t: 'interval' };
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
        return { k: 'arith', op, l: x, r: y, t };
      }
      if (op === '~~' || op === '!~~' || op === '~~*' || op === '!~~*') return bindLike(scope, l, r, op.startsWith('!'), op.endsWith('*'));
      if (op === '~' || op === '!~' || op === '~*' || op === '!~*') return bindRegexOperator(scope.ctx, op, l, r);
      if (op === '^') return bindFunction(scope.ctx, 'power', [l, r]);
      if (op === '&' || op === '|' || op === '#') return bindBitwise(scope.ctx, op, l, r);
      throw unsupported(`operator ${op}`);
    }
    case 'AEXPR_LIKE':
    case 'AEXPR_ILIKE': {
      const l = bindExpr(scope, a.lexpr as Node);
      const r = likePattern(scope, a.rexpr as Node);
      return bindLike(scope, l, r, op.startsWith('!'), a.kind === 'AEXPR_ILIKE');
    }
    case 'AEXPR_SIMILAR':
      // x SIMILAR TO p [ESCAPE e] arrives as x ~ similar_to_escape(p [, e]) (NOT: !~).
      return bindRegexOperator(scope.ctx, op, bindExpr(scope, a.lexpr as Node), bindExpr(scope, a.rexpr as Node));
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
      // Untyped labels in a list beside an enum are read as that enum's now (22P02 before any row, as PostgreSQL).
      const en = enumOfExpr(scope, e);
      const list = items.map((n) => {
        const x = bindExpr(scope, n);
        return en !== null && x.t === 'unknown' ? toEnum(scope.ctx, x, en, false) : x;
      });
      const [all, ct] = unifyAll(scope.ctx, [e, ...list], 'IN');
      if (ct === 'void') throw operatorError(op, e.t, list.find((x) => x.t !== 'void')?.t ?? 'void');
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

export function bindExpr(scope: Scope, n: Node): Expr {
  if ('ColumnRef' in n) {
    const fields = n.ColumnRef.fields ?? [];
    const whole = fields.some((f) => 'A_Star' in f) ? bindWholeRow(scope, fields) : undefined;
    if (whole === null) throw new SqlError(SqlState.syntaxError, 'row expansion via "*" is not supported here');
    if (whole !== undefined) return whole;
    return locate(n.ColumnRef.location, [SqlState.undefinedColumn, SqlState.undefinedTable, SqlState.invalidColumnReference, SqlState.ambiguousColumn], () => resolveColumn(scope, fields.map(strOf)));
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
  if ('CollateClause' in n) {
    // The database's collation is C: COLLATE "default", "C" and "POSIX" (as psql and ORMs write them) change nothing.
    const coll = (n.CollateClause.collname ?? []).map(strOf);
    const name = coll[coll.length - 1] ?? '';
    if (coll.length > 2 || (coll.length === 2 && coll[0] !== 'pg_catalog') || !['default', 'C', 'POSIX', 'ucs_basic'].includes(name)) {
      throw unsupported(`collation ${coll.join('.')}`);
    }
    const e = bindExpr(scope, n.CollateClause.arg as Node);
    if (!isStringType(e.t) && e.t !== 'unknown') throw new SqlError(SqlState.datatypeMismatch, `collations are not supported by type ${typeDisplayName[e.t]}`);
    return e;
  }
  if ('TypeCast' in n) {
    if (isRecordName(n.TypeCast.typeName)) return castToRecord(bindExpr(scope, n.TypeCast.arg as Node));
    const rt = resolveTypeName(n.TypeCast.typeName ?? {}, scope.ctx.catalog);
    if (n.TypeCast.arg !== undefined && 'A_ArrayExpr' in n.TypeCast.arg) {
      return bindArrayConstructor(scope, n.TypeCast.arg.A_ArrayExpr.elements ?? [], rt.type, rt.enumType);
    }
    const e = bindExpr(scope, n.TypeCast.arg as Node);
    if (rt.enumType !== undefined) return rt.type === '_enum' ? toEnumArray(scope.ctx, e, rt.enumType, true) : toEnum(scope.ctx, e, rt.enumType, true);
    if (e.k === 'param' && e.t === 'unknown') {
      // The parameter takes the type; its modifier applies as an explicit cast does ($1::numeric(3,1), $1::time(0)).
      const p = coerce(scope.ctx, e, rt.type);
      return rt.typmod >= 0 ? { k: 'cast', e: p, t: rt.type, typmod: rt.typmod, explicit: true } : p;
    }
    if (!canCast(e.t, rt.type)) throw cannotCast(e.t, rt.type);
    if (e.k === 'const') {
      const v = foldCast(() => castValue(e.v, e.t, rt.type, rt.typmod, true));
      if (v !== undefined) return { k: 'const', v, t: rt.type, ...(rt.typmod >= 0 ? { typmod: rt.typmod } : {}) };
    }
    return { k: 'cast', e, t: rt.type, typmod: rt.typmod, explicit: true };
  }
  if ('FuncCall' in n) return locate(n.FuncCall.location, [SqlState.undefinedFunction], () => bindFuncCall(scope, n.FuncCall));
  if ('RowExpr' in n) return bindRowConstructor(scope, n.RowExpr.args ?? []);
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
    if (op === 'SVFOP_LOCALTIME') return bindFunction(scope.ctx, 'localtime', []);
    // LOCALTIME(p): rounded to p fractional digits, as a cast to time(p) (the parse tree omits a 0).
    if (op === 'SVFOP_LOCALTIME_N') return { k: 'cast', e: bindFunction(scope.ctx, 'localtime', []), t: 'time', typmod: Math.min(n.SQLValueFunction.typmod ?? 0, 6), explicit: true };
    // CURRENT_TIME[(p)]: now() as a time with time zone (in the session's zone), rounded to p digits.
    if (op === 'SVFOP_CURRENT_TIME') return { k: 'cast', e: bindFunction(scope.ctx, 'now', []), t: 'timetz', typmod: -1, explicit: true };
    if (op === 'SVFOP_CURRENT_TIME_N') return { k: 'cast', e: bindFunction(scope.ctx, 'now', []), t: 'timetz', typmod: Math.min(n.SQLValueFunction.typmod ?? 0, 6), explicit: true };
    if (op === 'SVFOP_CURRENT_USER' || op === 'SVFOP_SESSION_USER' || op === 'SVFOP_USER' || op === 'SVFOP_CURRENT_ROLE') return bindFunction(scope.ctx, 'current_user', []);
    if (op === 'SVFOP_CURRENT_SCHEMA') return bindFunction(scope.ctx, 'current_schema', []);
    if (op === 'SVFOP_CURRENT_CATALOG') return bindFunction(scope.ctx, 'current_database', []);
    throw unsupported(op.replace('SVFOP_', '').toLowerCase());
  }
  if ('SubLink' in n) return bindSubLink(scope, n.SubLink);
  if ('GroupingFunc' in n) return bindGrouping(scope, n.GroupingFunc);
  if ('A_ArrayExpr' in n) return bindArrayConstructor(scope, n.A_ArrayExpr.elements ?? []);
  if ('A_Indirection' in n) return bindSubscript(scope, n.A_Indirection);
  if ('SetToDefault' in n) throw new SqlError(SqlState.syntaxError, 'DEFAULT is not allowed in this context');
  throw unsupported(`expression ${nodeKind(n)}`);
}
