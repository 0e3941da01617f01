// Binding enum values (enum-types.ts). Every enum is SQL type 'enum'; which one an expression has is
// found here from where it comes: a column (its typmod is the type's oid), a cast, a constant (the value
// knows its type), a parameter given a type, or an expression passing one of these through (min, max,
// COALESCE, CASE). Untyped literals and parameters meeting an enum take that enum's type at bind time,
// so a bad label fails with PostgreSQL's 22P02 before any row is read.

import { SqlEnum, enumArrays, parseEnum, type EnumTypeDef } from './enum-types.ts';
import type { Expr } from './expr.ts';
import type { BindContext, Scope } from './bind-context.ts';
import { SqlError, SqlState } from './errors.ts';
import { isStringType, typeDisplayName, type SqlType, type SqlValue } from './types.ts';

/** The scope bound at nesting level `level` (an outer reference's), or null. */
function scopeAt(scope: Scope, level: number): Scope | null {
  for (let s: Scope | null = scope; s !== null; s = s.parent) if (s.level === level) return s;
  return null;
}

function columnTypmod(scope: Scope, i: number): number {
  for (const r of scope.rels) if (i >= r.offset && i < r.offset + r.columns.length) return r.columns[i - r.offset]?.typmod ?? -1;
  return -1;
}

/** The enum type of an 'enum' expression, when binding can tell it; null otherwise (and for other types). */
export function enumOfExpr(scope: Scope, e: Expr): EnumTypeDef | null {
  if (e.t !== 'enum') return null;
  const catalog = scope.ctx.catalog;
  switch (e.k) {
    case 'const':
      return e.v instanceof SqlEnum ? e.v.type : null;
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

/** The typmod a result column of `e` reports: an enum's oid (the wire's type oid), else `typmod`. */
export function enumTypmod(scope: Scope, e: Expr, typmod: number): number {
  return e.t === 'enum' ? (enumOfExpr(scope, e)?.oid ?? typmod) : typmod;
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
  if (l.t !== 'enum' && r.t !== 'enum') return [l, r];
  const lt = enumOfExpr(scope, l);
  const rt = enumOfExpr(scope, r);
  const name = (e: Expr, t: EnumTypeDef | null): string => t?.name ?? typeDisplayName[e.t];
  if (lt !== null && rt !== null && lt.oid !== rt.oid) {
    throw new SqlError(SqlState.undefinedFunction, `operator does not exist: ${lt.name} ${op} ${rt.name}`, undefined, undefined,
      'No operator matches the given name and argument types. You might need to add explicit type casts.');
  }
  if (l.t === 'enum' && r.t !== 'enum' && r.t !== 'unknown' || r.t === 'enum' && l.t !== 'enum' && l.t !== 'unknown') {
    throw new SqlError(SqlState.undefinedFunction, `operator does not exist: ${name(l, lt)} ${op} ${name(r, rt)}`, undefined, undefined,
      'No operator matches the given name and argument types. You might need to add explicit type casts.');
  }
  // A parameter typed 'enum' by the client (a replica lowering with the client's types) reads its text as the other side's enum.
  if (lt !== null && r.k === 'param' && r.t === 'enum') scope.ctx.paramEnums[r.i] ??= lt;
  if (rt !== null && l.k === 'param' && l.t === 'enum') scope.ctx.paramEnums[l.i] ??= rt;
  if (lt !== null && r.t === 'unknown') return [l, toEnum(scope.ctx, r, lt, false)];
  if (rt !== null && l.t === 'unknown') return [toEnum(scope.ctx, l, rt, false), r];
  return [l, r];
}

export const ENUM_FUNCTIONS: ReadonlySet<string> = new Set(['enum_first', 'enum_last', 'enum_range']);

/**
 * enum_first(anyenum) and enum_last(anyenum): the first or last label of the argument's type (its value
 * is not read), a constant of the plan (a changed type invalidates plans). enum_range gives an array of
 * the enum, which Pesto does not have: 0A000.
 */
export function bindEnumFunction(scope: Scope, name: string, args: readonly Expr[]): Expr {
  const sig = `${name}(${args.map((a) => enumOfExpr(scope, a)?.name ?? typeDisplayName[a.t]).join(', ')})`;
  const type = args.length === 1 ? enumOfExpr(scope, args[0]!) : null;
  if (type === null) {
    throw new SqlError(SqlState.undefinedFunction, `function ${sig} does not exist`, undefined, undefined,
      'No function matches the given name and argument types. You might need to add explicit type casts.');
  }
  if (name === 'enum_range') throw enumArrays();
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
