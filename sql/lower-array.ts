// Binding of array expressions: ARRAY[...] constructors and `x op ANY/ALL (array)`, as PostgreSQL 15
// resolves them for one-dimensional arrays (sql-array.ts). `x = ANY (ARRAY[...])` and `x <> ALL (...)`
// over a literal list stay IN / NOT IN lists (lower-expr.ts); everything else becomes an 'anyarr' node. An
// untyped parameter or literal on the right takes the array type of the left operand's type, so
// `id = ANY($1)` describes $1 as int4[] (1007) when id is an integer column.

import type { EnumTypeDef } from './enum-types.ts';
import { recordArrays } from './record.ts';
import { enumOfExpr, toEnum, toEnumArray } from './lower-enum.ts';
import type { A_Indirection, Node } from 'libpg-query';
import type { CmpOp, Expr } from './expr.ts';
import type { BindContext, Scope } from './bind-context.ts';
import { coerce, coerceAssign, commonType, operatorError, unifyAll } from './coerce.ts';
import { SqlError, SqlState } from './errors.ts';
import { arrayElementType, arrayTypeOf, isArrayType, isIntegerType, isNumericType, isStringType, isVectorType, typeDisplayName, vectorArrayType, type ArrayElementType, type ArrayType, type SqlType } from './types.ts';
import { bindExpr } from './lower-expr.ts';

/** The functions taking an array (anyarray) that a vector is passed to as its array (vectorArray). */
const ARRAY_ARGUMENT_FUNCTIONS: ReadonlySet<string> = new Set([
  'unnest', 'generate_subscripts', 'array_length', 'array_lower', 'array_upper', 'cardinality', 'array_position', 'array_remove',
  'array_cat', 'array_append', 'array_prepend',
]);

/**
 * An int2vector or oidvector as the array it is (int2[], oid[] as int4[]), as PostgreSQL passes one to
 * an anyarray parameter, to ANY and to subscripting: a cast that keeps the value, subscripts from 0
 * included. Any other expression as it is.
 */
export function vectorArray(e: Expr): Expr {
  return isVectorType(e.t) ? { k: 'cast', e, t: vectorArrayType(e.t), typmod: -1, explicit: false } : e;
}

/** The arguments of a call of function `name`, vectors as arrays where it takes arrays. */
export function vectorArguments(name: string, args: readonly Expr[]): Expr[] {
  return args.map((a) => (ARRAY_ARGUMENT_FUNCTIONS.has(name) ? vectorArray(a) : a));
}

/**
 * ARRAY[e1, e2, ...]: the elements unified to one type, which must not itself be an array; `enumType`:
 * the element enum of a target `_enum` (ARRAY[...]::mood[]), each element cast to it.
 */
export function bindArrayConstructor(scope: Scope, elements: readonly Node[], target?: SqlType, enumType?: EnumTypeDef): Expr {
  const items = elements.map((n) => bindExpr(scope, n));
  if (enumType !== undefined) return { k: 'array', items: items.map((e) => toEnum(scope.ctx, e, enumType, true)), t: '_enum' };
  if (items.some((e) => isArrayType(e.t))) throw new SqlError(SqlState.featureNotSupported, 'multidimensional arrays are not supported');
  if (items.some((e) => isVectorType(e.t))) throw new SqlError(SqlState.featureNotSupported, 'arrays of int2vector and oidvector are not supported');
  if (items.length === 0) {
    if (target !== undefined && isArrayType(target)) return { k: 'array', items: [], t: target };
    throw new SqlError(SqlState.indeterminateDatatype, 'cannot determine type of empty array',
      undefined, undefined);
  }
  const [all, t] = target !== undefined && isArrayType(target)
    ? [items.map((e) => coerce(scope.ctx, e, arrayElementType(target))), arrayElementType(target)]
    : unifyAll(scope.ctx, items, 'ARRAY');
  if (t === 'unknown' || isArrayType(t) || isVectorType(t)) throw new SqlError(SqlState.indeterminateDatatype, 'cannot determine type of array');
  if (t === 'record') throw recordArrays();
  if (t === 'enum') return { k: 'array', items: enumElements(scope, items), t: '_enum' };
  return { k: 'array', items: all, t: arrayOfElement(t) };
}

/** The array type of an element type; void has none (PostgreSQL's 42704, where ARRAY[...], array_agg or ARRAY(SELECT ...) would need it). */
export function arrayOfElement(t: ArrayElementType | 'void'): ArrayType {
  if (t === 'void') throw new SqlError(SqlState.undefinedObject, 'could not find array type for data type void');
  return arrayTypeOf(t);
}

/** The elements of ARRAY[...] of an enum: all of one enum (42804 otherwise), untyped ones read as its labels. */
function enumElements(scope: Scope, items: readonly Expr[]): Expr[] {
  let type: EnumTypeDef | null = null;
  for (const e of items) {
    const d = enumOfExpr(scope, e);
    if (d !== null && type !== null && d.oid !== type.oid) throw new SqlError(SqlState.cannotCoerce, `ARRAY could not convert type ${d.name} to ${type.name}`);
    type ??= d;
  }
  if (type === null) throw new SqlError(SqlState.indeterminateDatatype, 'cannot determine type of array');
  const en = type;
  return items.map((e) => (e.t === 'unknown' ? toEnum(scope.ctx, e, en, false) : e));
}

/** `l op ANY (r)` / `l op ALL (r)` with r an array-valued expression. */
export function bindAnyArray(scope: Scope, op: CmpOp, all: boolean, lNode: Node, rNode: Node): Expr {
  let l = bindExpr(scope, lNode);
  let r = 'A_ArrayExpr' in rNode ? bindArrayConstructor(scope, rNode.A_ArrayExpr.elements ?? []) : bindExpr(scope, rNode);
  if (r.t === 'unknown') {
    // An untyped parameter or literal: the array of the left operand's type (text when that is untyped too).
    const elem = l.t === 'unknown' ? 'text' : l.t;
    if (isArrayType(elem) || isVectorType(elem) || elem === 'record') throw operatorError(op, l.t, l.t);
    if (elem === 'void') throw operatorError(op, l.t, r.t);
    const en = enumOfExpr(scope, l);
    r = en !== null ? toEnumArray(scope.ctx, r, en, false) : coerce(scope.ctx, r, arrayTypeOf(elem));
  }
  r = vectorArray(r);
  const rt = r.t;
  if (!isArrayType(rt)) throw new SqlError('42809', 'op ANY/ALL (array) requires array on right side');
  const elem = arrayElementType(rt);
  if (elem === 'enum') {
    const [le, re] = [enumOfExpr(scope, l), enumOfExpr(scope, r)];
    if (le !== null && re !== null && le.oid !== re.oid) throw new SqlError(SqlState.undefinedFunction, `operator does not exist: ${le.name} ${op} ${re.name}`, undefined, undefined,
      'No operator matches the given name and argument types. You might need to add explicit type casts.');
    if (l.t === 'unknown' && re !== null) l = toEnum(scope.ctx, l, re, false);
  }
  if (l.t === 'unknown') l = coerce(scope.ctx, l, elem);
  const ct = commonType(l.t, elem);
  // Mixed numeric types compare by value (compareValues); other pairs must meet in the element's type.
  if (ct === null || (ct !== elem && !(isNumericType(l.t) && isNumericType(elem)) && !(l.t !== elem && ct === 'text'))) {
    throw operatorError(op, l.t, elem);
  }
  if (ct !== l.t) l = coerce(scope.ctx, l, ct);
  return { k: 'anyarr', e: l, arr: r, op, all, ct, t: 'bool' };
}

/**
 * The element type `anycompatiblearray` / `anycompatible` resolve to (PostgreSQL 13+'s array_append,
 * array_cat, `||` ...): the common type of the given element types, untyped ones taking the others' type.
 * Null when they have none.
 */
function compatibleElement(types: readonly SqlType[]): SqlType | null {
  let t: SqlType = 'unknown';
  for (const x of types) {
    if (x === 'unknown') continue;
    const c = commonType(t, x);
    if (c === null) return null;
    t = c;
  }
  return t === 'unknown' ? 'text' : t;
}

function func(fn: string, args: readonly Expr[], t: SqlType): Expr {
  return { k: 'func', fn, args, t };
}

function noFunc(name: string, args: readonly Expr[]): SqlError {
  return new SqlError(SqlState.undefinedFunction, `function ${name}(${args.map((a) => typeDisplayName[a.t]).join(', ')}) does not exist`);
}

/**
 * The array arguments (`arrays`: positions of anycompatiblearray) and element arguments of a polymorphic
 * call, coerced to their common array type; an untyped argument in an array position is an array literal.
 * Null when the types have nothing in common.
 */
function bindCompatible(ctx: BindContext, args: readonly Expr[], arrays: readonly number[]): { args: Expr[]; t: ArrayType } | null {
  const elems = args.map((a, i) => (arrays.includes(i) ? (isArrayType(a.t) ? arrayElementType(a.t) : a.t === 'unknown' ? 'unknown' : null) : isArrayType(a.t) ? null : a.t));
  if (elems.some((e) => e === null)) return null;
  const t = compatibleElement(elems as SqlType[]);
  if (t === null || isArrayType(t)) return null;
  const at = arrayTypeOf(t as ArrayElementType);
  return { args: args.map((a, i) => coerce(ctx, a, arrays.includes(i) ? at : t)), t: at };
}

/**
 * Array operators: `@>`, `<@` and `&&` between two arrays of one type (an untyped operand takes the
 * other's), and `||` as array_cat, array_append or array_prepend (an untyped operand next to an array is
 * an array literal, as in PostgreSQL). Null when `l op r` is not an array operator.
 */
export function bindArrayOperator(ctx: BindContext, op: string, l: Expr, r: Expr): Expr | null {
  if (!isArrayType(l.t) && !isArrayType(r.t)) return null;
  if (op === '@>' || op === '<@' || op === '&&') {
    const t = isArrayType(l.t) ? l.t : r.t;
    if ((l.t !== t && l.t !== 'unknown') || (r.t !== t && r.t !== 'unknown')) throw operatorError(op, l.t, r.t);
    const fn = op === '@>' ? 'array_contains' : op === '<@' ? 'array_contained' : 'array_overlap';
    return func(fn, [coerce(ctx, l, t), coerce(ctx, r, t)], 'bool');
  }
  if (op !== '||') return null;
  const [fn, arrays] = isArrayType(l.t) && isArrayType(r.t) ? ['array_cat', [0, 1]]
    : isArrayType(l.t) ? (r.t === 'unknown' ? ['array_cat', [0, 1]] : ['array_append', [0]])
    : l.t === 'unknown' ? ['array_cat', [0, 1]] : ['array_prepend', [1]];
  const b = bindCompatible(ctx, [l, r], arrays);
  if (b === null) throw operatorError(op, l.t, r.t);
  return func(fn, b.args, b.t);
}

/** Positions of the anycompatiblearray arguments of the array functions (the others are elements). */
const arrayFunctionArrays: Record<string, readonly number[]> = {
  array_append: [0], array_prepend: [1], array_cat: [0, 1], array_remove: [0], array_position: [0],
};

/** array_append, array_prepend, array_cat, array_remove, array_position; null for other names. */
export function bindArrayFunction(ctx: BindContext, name: string, args: readonly Expr[]): Expr | null {
  if (name === 'array_to_string') {
    // array_to_string(anyarray, text [, text]): psql's \dT+ lists an enum's labels with it.
    const a = args[0] === undefined ? undefined : vectorArray(args[0]);
    if (a === undefined || !isArrayType(a.t) || args.length < 2 || args.length > 3) throw noFunc(name, args);
    return func(name, [a, ...args.slice(1).map((x) => (isStringType(x.t) || x.t === 'unknown' ? coerce(ctx, x, 'text') : (() => { throw noFunc(name, args); })()))], 'text');
  }
  const arrays = arrayFunctionArrays[name];
  if (arrays === undefined) return null;
  const start = name === 'array_position' && args.length === 3 ? coerce(ctx, args[2]!, 'int4') : null;
  if (args.length !== (start === null ? 2 : 3) || (start !== null && start.t !== 'int4')) throw noFunc(name, args);
  const b = bindCompatible(ctx, args.slice(0, 2), arrays);
  if (b === null) throw noFunc(name, args);
  if (name === 'array_position') return func(name, start === null ? b.args : [...b.args, start], 'int4');
  return func(name, b.args, b.t);
}

/**
 * `arr[i]`: the element at position i (from 1, or from 0 in a vector), NULL out of bounds (one subscript:
 * the engine's arrays have one dimension); a name's character at i (from 0). Slices and field selection are 0A000.
 */
export function bindSubscript(scope: Scope, ind: A_Indirection): Expr {
  const arr = vectorArray(bindExpr(scope, ind.arg as Node));
  const subs = ind.indirection ?? [];
  if (subs.length !== 1 || !('A_Indices' in subs[0]!)) throw new SqlError(SqlState.featureNotSupported, subs.some((s) => !('A_Indices' in s)) ? 'field selection is not supported' : 'multidimensional arrays are not supported');
  const idx = subs[0].A_Indices;
  if (arr.t === 'name' && idx.is_slice !== true) {
    // A name is a fixed array of bytes subscripted from 0 (pg_dump's `typname[0] = '_'`): its character at i.
    const i = coerce(scope.ctx, bindExpr(scope, idx.uidx as Node), 'int4');
    const from: Expr = { k: 'arith', op: '+', l: i, r: { k: 'const', v: 1, t: 'int4' }, t: 'int4' };
    return func('substr', [coerce(scope.ctx, arr, 'text'), from, { k: 'const', v: 1, t: 'int4' }], 'text');
  }
  if (!isArrayType(arr.t)) {
    throw new SqlError(SqlState.datatypeMismatch, `cannot subscript type ${typeDisplayName[arr.t]} because it does not support subscripting`);
  }
  if (idx.is_slice === true) throw new SqlError(SqlState.featureNotSupported, 'array slices are not supported');
  const i = bindExpr(scope, idx.uidx as Node);
  if (!isIntegerType(i.t) && !isNumericType(i.t) && i.t !== 'unknown') throw new SqlError(SqlState.datatypeMismatch, 'array subscript must have type integer');
  return func('array_subscript', [arr, coerce(scope.ctx, i, 'int4')], arrayElementType(arr.t));
}

/**
 * `SET col[i] = v`: `base` (the column, or its earlier subscripted assignments) with element i set to v,
 * coerced to the element type. One subscript, no slices (0A000).
 */
export function bindSubscriptAssignment(scope: Scope, base: Expr, indirection: readonly Node[], value: Node, column: string): Expr {
  const sub = indirection[0];
  if (indirection.length !== 1 || sub === undefined || !('A_Indices' in sub)) {
    throw new SqlError(SqlState.featureNotSupported, indirection.some((s) => !('A_Indices' in s)) ? 'assignment to a field is not supported' : 'multidimensional arrays are not supported');
  }
  if (!isArrayType(base.t)) {
    throw new SqlError(SqlState.datatypeMismatch, `cannot subscript type ${typeDisplayName[base.t]} because it does not support subscripting`);
  }
  if (sub.A_Indices.is_slice === true) throw new SqlError(SqlState.featureNotSupported, 'assignment to array slices is not supported');
  const elem = arrayElementType(base.t);
  const i = coerce(scope.ctx, bindExpr(scope, sub.A_Indices.uidx as Node), 'int4');
  return func('array_set', [base, i, coerceAssign(scope.ctx, bindExpr(scope, value), elem, column)], base.t);
}
