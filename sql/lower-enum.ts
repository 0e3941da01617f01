// Binding enum values (enum-types.ts). Every enum is SQL type 'enum'; which one an expression has is
// found here from where it comes: a column (its typmod is the type's oid), a cast, a constant (the value
// knows its type), a parameter given a type, or an expression passing one of these through (min, max,
// COALESCE, CASE). Untyped literals and parameters meeting an enum take that enum's type at bind time,
// so a bad label fails with PostgreSQL's 22P02 before any row is read.

import { SqlEnum, parseEnum, type EnumTypeDef } from './enum-types.ts';
import { parseArrayText } from './array-format.ts';
import { SqlArray } from './sql-array.ts';
import type { Expr } from './expr.ts';
import type { BindContext, Scope } from './bind-context.ts';
import { SqlError, SqlState } from './errors.ts';
import { arrayElementType, isArrayType, isStringType, typeDisplayName, type SqlType, type SqlValue } from './types.ts';

/** The scope bound at nesting level `level` (an outer reference's), or null. */
function scopeAt(scope: Scope, level: number): Scope | null {
  for (let s: Scope | null = scope; s !== null; s = s.parent) if (s.level === level) return s;
  return null;
}

function columnTypmod(scope: Scope, i: number): number {
  for (const r of scope.rels) if (i >= r.offset && i < r.offset + r.columns.length) return r.columns[i - r.offset]?.typmod ?? -1;
  return -1;
}

const isEnumish = (t: SqlType): boolean => t === 'enum' || t === '_enum';

/**
 * The enum type of an 'enum' expression, or the element enum of an '_enum' one, when binding can tell
 * it; null otherwise (and for other types).
 */
export function enumOfExpr(scope: Scope, e: Expr): EnumTypeDef | null {
  if (!isEnumish(e.t)) return null;
  const catalog = scope.ctx.catalog;
  switch (e.k) {
    case 'const':
      return boundEnum(e);
    case 'array':
      for (const x of e.items) {
        const d = enumOfExpr(scope, x);
        if (d !== null) return d;
      }
      return null;
    case 'cast':
      return e.enumType ?? catalog.enumByOid(e.typmod) ?? null;
    case 'col':
      return catalog.enumByOid(columnTypmod(scope, e.i)) ?? null;
    case 'outer': {
      const s = scopeAt(scope, e.level);
      return s === null ? null : catalog.enumByOid(columnTypmod(s, e.i)) ?? null;
    }
    case 'param':
      return scope.ctx.paramEnums[e.i] ?? null;
    case 'func':
      for (const a of e.args) {
        const d = enumOfExpr(scope, a);
        if (d !== null) return d;
      }
      return null;
    case 'case':
      for (const w of e.whens) {
        const d = enumOfExpr(scope, w.then);
        if (d !== null) return d;
      }
      return e.els === null ? null : enumOfExpr(scope, e.els);
    case 'aggref': {
      const arg = scope.aggs?.[e.i]?.arg ?? null;
      return arg === null ? null : enumOfExpr(scope, arg);
    }
    default:
      return null;
  }
}

/** The enum an enum or enum-array constant or cast is of, which needs no scope; null for other expressions. */
export function boundEnum(e: Expr): EnumTypeDef | null {
  if (e.k === 'cast') return e.enumType ?? null;
  if (e.k !== 'const') return null;
  if (e.v instanceof SqlArray) return e.v.items.find((x): x is SqlEnum => x instanceof SqlEnum)?.type ?? null;
  return e.v instanceof SqlEnum ? e.v.type : null;
}

/** The typmod a result column of `e` reports: an enum's oid (also an enum array's: the wire's type oid follows), else `typmod`. */
export function enumTypmod(scope: Scope, e: Expr, typmod: number): number {
  return isEnumish(e.t) ? (enumOfExpr(scope, e)?.oid ?? typmod) : typmod;
}

/** `e`, of enum type `type` or an array of it, as a cast that keeps its value and says which enum (enumOfExpr), for nodes that cannot. */
export function withEnumType(e: Expr, type: EnumTypeDef | null): Expr {
  if (type === null || !isEnumish(e.t)) return e;
  return { k: 'cast', e, t: e.t, typmod: type.oid, explicit: false, enumType: type };
}

/**
 * `e` as an array of enum `type` (a cast to `type[]`): an untyped literal is read now as an array of its
 * labels (22P02), an untyped parameter takes the type, a string or string array is cast at run time
 * (explicit casts only), another enum array must be of this enum.
 */
export function toEnumArray(ctx: BindContext, e: Expr, type: EnumTypeDef, explicit: boolean): Expr {
  const cast: Expr = { k: 'cast', e, t: '_enum', typmod: type.oid, explicit, enumType: type };
  if (e.k === 'const' && e.v === null) return cast;
  if (e.k === 'const') return { k: 'const', v: enumArrayValue(e.v, e.t, type), t: '_enum' };
  if (e.k === 'param' && e.t === 'unknown') {
    ctx.paramTypes[e.i] = '_enum';
    ctx.paramEnums[e.i] = type;
    return { k: 'param', i: e.i, t: '_enum' };
  }
  const strings = isStringType(e.t) || (isArrayType(e.t) && isStringType(arrayElementType(e.t)));
  if (e.t === '_enum' || (explicit && strings)) return cast;
  throw new SqlError(SqlState.cannotCoerce, `cannot cast type ${typeDisplayName[e.t]} to ${type.name}[]`);
}

/**
 * `e` as a value of enum `type`: a literal or string constant is parsed now (22P02), an untyped
 * parameter takes the type, a string expression is cast at run time (explicit casts only, as
 * PostgreSQL's text to enum), another enum must be this one.
 */
export function toEnum(ctx: BindContext, e: Expr, type: EnumTypeDef, explicit: boolean): Expr {
  // NULL::mood keeps its type as a cast (enum_first(NULL::mood)); other constants are parsed now.
  if (e.k === 'const' && e.v === null) return { k: 'cast', e, t: 'enum', typmod: type.oid, explicit, enumType: type };
  if (e.k === 'const') return { k: 'const', v: enumValue(e.v, e.t, type), t: 'enum' };
  if (e.k === 'param' && e.t === 'unknown') {
    ctx.paramTypes[e.i] = 'enum';
    ctx.paramEnums[e.i] = type;
    return { k: 'param', i: e.i, t: 'enum' };
  }
  if (e.t === 'enum' || (explicit && isStringType(e.t))) return { k: 'cast', e, t: 'enum', typmod: type.oid, explicit, enumType: type };
  throw new SqlError(SqlState.cannotCoerce, `cannot cast type ${typeDisplayName[e.t]} to ${type.name}`);
}

/**
 * The operands of a comparison with an enum: an untyped literal or parameter takes the enum's type, and
 * two enums must be one type (42883 with both names, as PostgreSQL's).
 */
export function enumOperands(scope: Scope, op: string, l: Expr, r: Expr): [Expr, Expr] {
  // An enum beside an enum or an untyped operand, or an enum array beside an enum array or an untyped operand.
  const kind = isEnumish(l.t) ? l.t : isEnumish(r.t) ? r.t : null;
  if (kind === null) return [l, r];
  const lt = enumOfExpr(scope, l);
  const rt = enumOfExpr(scope, r);
  const name = (e: Expr, t: EnumTypeDef | null): string => (t === null ? typeDisplayName[e.t] : e.t === '_enum' ? `${t.name}[]` : t.name);
  const mismatch = lt !== null && rt !== null && lt.oid !== rt.oid;
  if (mismatch || (l.t !== kind && l.t !== 'unknown') || (r.t !== kind && r.t !== 'unknown')) {
    throw new SqlError(SqlState.undefinedFunction, `operator does not exist: ${name(l, lt)} ${op} ${name(r, rt)}`, undefined, undefined,
      'No operator matches the given name and argument types. You might need to add explicit type casts.');
  }
  // A parameter typed by the client (a replica lowering with the client's types) reads its text as the other side's enum.
  if (lt !== null && r.k === 'param' && r.t === kind) scope.ctx.paramEnums[r.i] ??= lt;
  if (rt !== null && l.k === 'param' && l.t === kind) scope.ctx.paramEnums[l.i] ??= rt;
  const retype = (e: Expr, t: EnumTypeDef): Expr => (kind === '_enum' ? toEnumArray(scope.ctx, e, t, false) : toEnum(scope.ctx, e, t, false));
  if (lt !== null && r.t === 'unknown') return [l, retype(r, lt)];
  if (rt !== null && l.t === 'unknown') return [retype(l, rt), r];
  return [l, r];
}

export const ENUM_FUNCTIONS: ReadonlySet<string> = new Set(['enum_first', 'enum_last', 'enum_range']);

/**
 * enum_first(anyenum) and enum_last(anyenum): the first or last label of the argument's type (its value
 * is not read), a constant of the plan (a changed type invalidates plans); enum_range(anyenum) all its
 * labels in order, an array of the enum. enum_range(anyenum, anyenum) is not supported (42883).
 */
export function bindEnumFunction(scope: Scope, name: string, args: readonly Expr[]): Expr {
  if (name === 'enum_range' && args.length === 2) throw new SqlError(SqlState.featureNotSupported, 'enum_range(anyenum, anyenum) is not supported');
  const sig = `${name}(${args.map((a) => enumOfExpr(scope, a)?.name ?? typeDisplayName[a.t]).join(', ')})`;
  const type = args.length === 1 ? enumOfExpr(scope, args[0]!) : null;
  if (type === null) {
    throw new SqlError(SqlState.undefinedFunction, `function ${sig} does not exist`, undefined, undefined,
      'No function matches the given name and argument types. You might need to add explicit type casts.');
  }
  if (name === 'enum_range') return { k: 'const', v: new SqlArray('enum', type.labels.map((l) => new SqlEnum(type, l.label, l.pos))), t: '_enum' };
  const label = name === 'enum_first' ? type.labels[0] : type.labels[type.labels.length - 1];
  if (label === undefined) throw new SqlError(SqlState.objectNotInPrerequisiteState, `enum ${type.name} contains no values`);
  return { k: 'const', v: new SqlEnum(type, label.label, label.pos), t: 'enum' };
}

/** A constant (or a run-time value) of type `from` as a value of enum `type`. */
export function enumValue(v: SqlValue, from: SqlType, type: EnumTypeDef): SqlValue {
  if (v === null) return null;
  if (v instanceof SqlEnum) {
    if (v.type.oid !== type.oid) throw new SqlError(SqlState.cannotCoerce, `cannot cast type ${v.type.name} to ${type.name}`);
    return v;
  }
  if (typeof v === 'string' && (from === 'unknown' || from === 'enum' || isStringType(from))) return parseEnum(type, from === 'bpchar' ? v.trimEnd() : v);
  throw new SqlError(SqlState.cannotCoerce, `cannot cast type ${typeDisplayName[from]} to ${type.name}`);
}

/**
 * A constant or run-time value of type `from` as an array of enum `type`: another array of it, an array
 * of strings (each element read as a label), or array text ('{happy,sad}'), whose elements the same.
 */
export function enumArrayValue(v: SqlValue, from: SqlType, type: EnumTypeDef): SqlValue {
  if (v === null) return null;
  let a: SqlArray;
  if (v instanceof SqlArray) a = v;
  else if (typeof v === 'string' && (from === 'unknown' || isStringType(from) || from === '_enum')) a = parseArrayText(from === 'bpchar' ? v.trimEnd() : v, 'enum');
  else throw new SqlError(SqlState.cannotCoerce, `cannot cast type ${typeDisplayName[from]} to ${type.name}[]`);
  const elem: SqlType = a.elementType;
  if (elem !== 'enum' && !isStringType(elem)) throw new SqlError(SqlState.cannotCoerce, `cannot cast type ${typeDisplayName[from]} to ${type.name}[]`);
  return new SqlArray('enum', a.items.map((x) => enumValue(x, elem, type)), a.lower);
}

/** A cast's value to enum `type` (`to` 'enum') or to an array of it ('_enum'). */
export function enumCast(v: SqlValue, from: SqlType, to: SqlType, type: EnumTypeDef): SqlValue {
  return to === '_enum' ? enumArrayValue(v, from, type) : enumValue(v, from, type);
}
