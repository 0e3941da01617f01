// Implicit type resolution for the binder, after PostgreSQL's rules for the types we support: numbers
// widen along int2 < int4 < int8 < numeric < float4/float8 (any float with a non-float gives float8),
// untyped literals and parameters take the type of the other operand, mixed character types compare as
// text, date widens to timestamp. Constants are converted at bind time (so a malformed literal fails
// early, as in PostgreSQL); a parameter of unknown type is assigned the type its context needs.

import type { Expr } from './expr.ts';
import { castValue, canCast, cannotCast } from './cast.ts';
import { SqlError, SqlState } from './errors.ts';
import { arrayElementType, isArrayType, isDateTimeType, isStringType, typeDisplayName, type SqlType, type SqlValue } from './types.ts';
import { NowUnavailable } from './datetime-input.ts';
import type { BindContext } from './bind-context.ts';
import { boundEnum, toEnum, toEnumArray } from './lower-enum.ts';

const numRank: Partial<Record<SqlType, number>> = { int2: 1, int4: 2, int8: 3, numeric: 4, float4: 5, float8: 6 };

/** The common type of two operand types, or null when none exists. */
export function commonType(a: SqlType, b: SqlType): SqlType | null {
  if (a === b) return a === 'unknown' ? 'text' : a;
  if (a === 'unknown') return b;
  if (b === 'unknown') return a;
  const ra = numRank[a];
  const rb = numRank[b];
  if (ra !== undefined && rb !== undefined) {
    if ((a === 'float4' || a === 'float8' || b === 'float4' || b === 'float8') && a !== b) {
      return a === 'float4' && rb < 5 ? 'float8' : b === 'float4' && ra < 5 ? 'float8' : ra > rb ? a : b;
    }
    return ra > rb ? a : b;
  }
  if (isStringType(a) && isStringType(b)) return 'text';
  // time's implicit cast to timetz.
  if ((a === 'time' && b === 'timetz') || (a === 'timetz' && b === 'time')) return 'timetz';
  if (isDateTimeType(a) && isDateTimeType(b)) return a === 'timestamptz' || b === 'timestamptz' ? 'timestamptz' : 'timestamp';
  return null;
}

/** Converts an expression to `to` implicitly (binding untyped parameters, folding constants). */
export function coerce(ctx: BindContext, e: Expr, to: SqlType, typmod = -1): Expr {
  if (to === 'unknown') return e;
  if (to === 'enum') {
    // Which enum: the typmod (its oid); without one an untyped constant stays text, read against the enum it meets at run time.
    const type = ctx.catalog.enumByOid(typmod);
    if (type !== undefined) return toEnum(ctx, e, type, false);
    if (e.t === 'enum' || e.k === 'const') return e;
  }
  if (to === '_enum') {
    const type = ctx.catalog.enumByOid(typmod);
    if (type !== undefined) return toEnumArray(ctx, e, type, false);
  }
  if (e.t === to && typmod < 0) return e;
  if (e.k === 'param' && (e.t === 'unknown' || ctx.paramTypes[e.i] === 'unknown')) {
    ctx.paramTypes[e.i] = to;
    return { k: 'param', i: e.i, t: to };
  }
  if (e.k === 'const') {
    const v = foldCast(() => castValue(e.v, e.t, to, typmod, false));
    if (v !== undefined) return { k: 'const', v, t: to };
  }
  if (!canCast(e.t, to)) throw cannotCast(e.t, to);
  return { k: 'cast', e, t: to, typmod, explicit: false };
}

/**
 * Whether PostgreSQL has an implicit or assignment cast from `from` to `to`. Into an array only from an
 * array whose elements have one (int4[] into numeric[], not text[] into int4[] nor text into int4[];
 * the elements are held to PostgreSQL's rule that a string converts to other types explicitly only,
 * which scalar columns relax).
 */
function assignable(from: SqlType, to: SqlType): boolean {
  if (from === to) return true;
  // Into an enum only from an enum (PostgreSQL's text to enum is explicit); out of one into the string types.
  if (to === 'enum' || from === 'enum') return isStringType(to);
  if (isArrayType(to)) {
    if (!isArrayType(from)) return false;
    const [f, t] = [arrayElementType(from), arrayElementType(to)];
    return assignable(f, t) && !(isStringType(f) && !isStringType(t));
  }
  const ok = commonType(from, to) !== null || isStringType(to) || canCast(from, to);
  // PostgreSQL has no assignment cast into bytea (text to bytea is an explicit I/O conversion).
  // Nor into json or jsonb from a typed string (PostgreSQL's text to json is explicit only).
  const isJson = (t: SqlType): boolean => t === 'json' || t === 'jsonb';
  // jsonb's casts to numbers and booleans are explicit only, as PostgreSQL's.
  const intoJson = (isJson(to) && isStringType(from)) || (isJson(from) && !isJson(to) && !isStringType(to));
  return ok && !intoJson && to !== 'bytea' && !(to === 'bool' && from !== 'bool') && !(from === 'bool' && to !== 'bool' && !isStringType(to));
}

/**
 * Whether PostgreSQL converts `from` to `to` with an assignment cast, strictly: no string into another
 * type (ALTER COLUMN TYPE needs USING for text to integer, where a column's INSERT relaxes it).
 */
export function castsOnAssignment(from: SqlType, to: SqlType): boolean {
  return assignable(from, to) && !(isStringType(from) && !isStringType(to));
}

/** Coerces for storing into a column: like `coerce`, but the column's typmod is applied at write time. */
export function coerceAssign(ctx: BindContext, e: Expr, to: SqlType, column: string, typmod = -1): Expr {
  // An enum column's typmod says which enum (and is not applied at write time as others are).
  const enumTypmod = to === 'enum' || to === '_enum' ? typmod : -1;
  const name = (t: SqlType, m: number): string => {
    const en = t === 'enum' || t === '_enum' ? ctx.catalog.enumByOid(m)?.name : undefined;
    return en === undefined ? typeDisplayName[t] : t === '_enum' ? `${en}[]` : en;
  };
  const mismatch = (fromTypmod: number): SqlError => new SqlError(SqlState.datatypeMismatch,
    `column "${column}" is of type ${name(to, typmod)} but expression is of type ${name(e.t, fromTypmod)}`);
  // Another enum (or an array of one) than the column's.
  const other = e.t === to && enumTypmod > 0 ? boundEnum(e) : null;
  if (other !== null && other.oid !== enumTypmod) throw mismatch(other.oid);
  if (e.t === to || e.t === 'unknown' || e.k === 'param') return coerce(ctx, e, to, enumTypmod);
  if (!assignable(e.t, to)) throw mismatch(-1);
  return coerce(ctx, e, to);
}

export function operatorError(op: string, a: SqlType, b: SqlType): SqlError {
  return new SqlError(SqlState.undefinedFunction, `operator does not exist: ${typeDisplayName[a]} ${op} ${typeDisplayName[b]}`, undefined, undefined,
    'No operator matches the given name and argument types. You might need to add explicit type casts.');
}

/** Brings two operands to one type for comparison; returns them and the comparison type. */
export function unify(ctx: BindContext, l: Expr, r: Expr, op: string): [Expr, Expr, SqlType] {
  // time beside an interval compares as an interval (time's implicit cast), as PostgreSQL resolves it.
  const timeAndInterval = (l.t === 'time' && r.t === 'interval') || (l.t === 'interval' && r.t === 'time');
  let t = timeAndInterval ? 'interval' : commonType(l.t, r.t);
  // json has no comparison operators at all (PostgreSQL: 42883), nor do arrays of it, nor void.
  if (t === null || t === 'json' || t === '_json' || t === 'void') {
    // PostgreSQL resolves "text = unknown literal" and friends; a typed mismatch is an error.
    throw operatorError(op, l.t, r.t);
  }
  if (t === 'text' && l.t === 'bpchar' && (r.t === 'bpchar' || r.t === 'unknown')) t = 'bpchar';
  if (t === 'text' && r.t === 'bpchar' && l.t === 'unknown') t = 'bpchar';
  return [coerce(ctx, l, t), coerce(ctx, r, t), t];
}

/** Resolves the type of a list of expressions (CASE branches, COALESCE, IN lists, UNION columns). */
export function unifyAll(ctx: BindContext, es: readonly Expr[], what: string): [Expr[], SqlType] {
  let t: SqlType = 'unknown';
  for (const e of es) {
    if (e.t === 'unknown') continue;
    const c = commonType(t, e.t);
    if (c === null) {
      throw new SqlError(SqlState.datatypeMismatch, `${what} types ${typeDisplayName[t]} and ${typeDisplayName[e.t]} cannot be matched`);
    }
    t = c;
  }
  if (t === 'unknown') t = 'text';
  return [es.map((e) => coerce(ctx, e, t)), t];
}

/**
 * A constant's cast done while binding, or undefined for input that reads the transaction's time
 * ('now'::timestamptz, 'today'::date), which only the evaluator knows: that cast is left to run there.
 */
export function foldCast(cast: () => SqlValue): SqlValue | undefined {
  try {
    return cast();
  } catch (err) {
    if (err instanceof NowUnavailable) return undefined;
    throw err;
  }
}
