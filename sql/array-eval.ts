// Evaluation of the array functions and operators lower-array.ts binds, as PostgreSQL 15's: array_cat,
// array_append and array_prepend (`||`), array_remove, array_position, containment (`@>`, `<@`), overlap
// (`&&`) and subscripts. Elements compare with the element type's equality; a NULL element never
// matches in containment and overlap, but array_remove and array_position find NULL (IS NOT DISTINCT
// FROM), as PostgreSQL does.

import { formatText } from './value-text.ts';
import type { Expr } from './expr.ts';
import { evalExpr, type Env } from './eval.ts';
import { InvariantError, SqlError, SqlState } from './errors.ts';
import { compareValues } from './ops.ts';
import { SqlArray } from './sql-array.ts';
import { arrayElementType, isArrayType, type ArrayElementType, type Row, type SqlType, type SqlValue } from './types.ts';

type FuncExpr = Extract<Expr, { k: 'func' }>;

/** The `fn` names evalArrayFunction handles. */
export const arrayFunctions: ReadonlySet<string> = new Set([
  'array_cat', 'array_append', 'array_prepend', 'array_remove', 'array_position', 'array_contains', 'array_contained',
  'array_overlap', 'array_subscript', 'array_set', 'array_to_string',
]);

function arrayOf(v: SqlValue): SqlArray | null {
  if (v === null) return null;
  if (v instanceof SqlArray) return v;
  throw new InvariantError(`not an array value: ${typeof v}`);
}

function elementTypeOf(t: SqlType): ArrayElementType {
  if (!isArrayType(t)) throw new InvariantError(`not an array type: ${t}`);
  return arrayElementType(t);
}

/** Element equality: NULL equals NULL only when `nullsMatch` (IS NOT DISTINCT FROM). */
function same(x: SqlValue, y: SqlValue, t: SqlType, nullsMatch: boolean): boolean {
  if (x === null || y === null) return nullsMatch && x === y;
  return compareValues(x, y, t) === 0;
}

/** Every non-NULL-free element of `b` equals some element of `a` (array_contain_compare). */
function contains(a: SqlArray, b: SqlArray, t: SqlType): boolean {
  return b.items.every((y) => y !== null && a.items.some((x) => same(x, y, t, false)));
}

export function evalArrayFunction(e: FuncExpr, row: Row, env: Env): SqlValue {
  const v = e.args.map((x) => evalExpr(x, row, env));
  switch (e.fn) {
    case 'array_cat': {
      // NULL arrays are left out; both NULL is NULL.
      const [a, b] = [arrayOf(v[0] ?? null), arrayOf(v[1] ?? null)];
      if (a === null || b === null) return a ?? b;
      return new SqlArray(elementTypeOf(e.t), [...a.items, ...b.items], a.length > 0 ? a.lower : b.lower);
    }
    case 'array_append':
    case 'array_prepend': {
      // A NULL array counts as an empty one; a NULL element is appended.
      const append = e.fn === 'array_append';
      const a = arrayOf(v[append ? 0 : 1] ?? null);
      const x = v[append ? 1 : 0] ?? null;
      const items = a?.items ?? [];
      return new SqlArray(elementTypeOf(e.t), append ? [...items, x] : [x, ...items], a !== null && a.length > 0 ? a.lower : 1);
    }
    case 'array_to_string': {
      // NULL elements are left out, or written as the third argument when it is not NULL.
      const a = arrayOf(v[0] ?? null);
      if (a === null || v[1] === null) return null;
      const nullText = v[2] ?? null;
      const parts = a.items.flatMap((x) => (x === null ? (nullText === null ? [] : [String(nullText)]) : [formatText(x, a.elementType)]));
      return parts.join(String(v[1]));
    }
    case 'array_remove': {
      const a = arrayOf(v[0] ?? null);
      if (a === null) return null;
      const t = elementTypeOf(e.t);
      return new SqlArray(t, a.items.filter((x) => !same(x, v[1] ?? null, t, true)), a.lower);
    }
    case 'array_position': {
      const a = arrayOf(v[0] ?? null);
      if (a === null) return null;
      if (v.length > 2 && v[2] === null) throw new SqlError(SqlState.invalidParameterValue, 'initial position must not be null');
      // Positions are subscripts: from 0 in an array that starts there.
      const from = v.length > 2 ? Math.max(Number(v[2]), a.lower) : a.lower;
      const t = a.elementType;
      for (let i = from - a.lower; i < a.items.length; i++) if (same(a.items[i] ?? null, v[1] ?? null, t, true)) return i + a.lower;
      return null;
    }
    case 'array_set': {
      // A NULL or empty array takes the subscript as its lower bound (1 only here); past the end, the
      // gap fills with NULLs.
      const a = arrayOf(v[0] ?? null);
      const i = v[1] ?? null;
      if (i === null) throw new SqlError('22004', 'array subscript in assignment must not be null');
      const at = Number(i);
      const lower = a !== null && a.length > 0 ? a.lower : 1;
      if (at < lower || ((a === null || a.length === 0) && at !== 1)) {
        throw new SqlError(SqlState.featureNotSupported, 'array lower bounds other than 1 are not supported');
      }
      const items = [...(a?.items ?? [])];
      while (items.length < at - lower) items.push(null);
      items[at - lower] = v[2] ?? null;
      return new SqlArray(elementTypeOf(e.t), items, lower);
    }
    case 'array_subscript': {
      const a = arrayOf(v[0] ?? null);
      const i = v[1] ?? null;
      if (a === null || i === null) return null;
      return a.items[Number(i) - a.lower] ?? null;
    }
    default: {
      // @>, <@ and &&: strict.
      const [a, b] = [arrayOf(v[0] ?? null), arrayOf(v[1] ?? null)];
      if (a === null || b === null) return null;
      const t = a.elementType;
      if (e.fn === 'array_contains') return contains(a, b, t);
      if (e.fn === 'array_contained') return contains(b, a, t);
      if (e.fn === 'array_overlap') return a.items.some((x) => x !== null && b.items.some((y) => same(x, y, t, false)));
      throw new InvariantError(`not an array function: ${e.fn}`);
    }
  }
}
