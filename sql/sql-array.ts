// One-dimensional array values, as PostgreSQL 15's arrays of the engine's base types with lower bound 1.
//
// An array is a `SqlArray`: its element type and its elements (SqlValues of that type, null for a NULL
// element). A class rather than a bare JS array so that a value says what it is at run time (parameters
// travel between clients and replicas tagged by their JS value, wire-values.ts; an empty array still knows
// its element type, which its binary form and its OID need) and so that no existing `Array.isArray`-free
// code path mistakes it for a Row. Invariant: `items` is never written to after the value is made, so
// values may be shared between rows, plans and caches like any other SqlValue; every element is null or a
// value of `elementType` in its normal representation (types.ts).
//
// Multidimensional arrays and lower bounds other than 1 are refused (0A000) where they would come in;
// the one exception is the vectors' 0 (int2vector, oidvector, types.ts), which casts to their array
// types keep, as PostgreSQL's relabelling does ('1 3'::int2vector::int2[] is '[0:1]={1,3}'), and which
// array input therefore takes as well, in text ('[0:1]={1,3}') and binary (such values travel between
// replicas and clients, and through COPY).

import { InvariantError, SqlError, SqlState } from './errors.ts';
import type { CmpOp } from './expr.ts';
import { compareValues, comparisonHolds } from './ops.ts';
import { arrayElementType, isArrayType, typeFromOid, type ArrayElementType, type SqlType, type SqlValue } from './types.ts';

export type { ArrayElementType } from './types.ts';

/** The element type of an array type OID, or undefined when the OID is not one of ours. */
export function arrayElementTypeFromOid(oid: number): ArrayElementType | undefined {
  const t = typeFromOid(oid);
  return t !== undefined && isArrayType(t) ? arrayElementType(t) : undefined;
}

/** PostgreSQL's MaxArraySize: the most elements an array may have. */
export const ARRAY_SIZE_MAX = 134217727;

export class SqlArray {
  readonly elementType: ArrayElementType;
  readonly items: readonly SqlValue[];
  /** The first subscript: 1, or 0 for a vector's value (and that value cast to an array). */
  readonly lower: 0 | 1;
  constructor(elementType: ArrayElementType, items: readonly SqlValue[], lower: 0 | 1 = 1) {
    if (items.length > ARRAY_SIZE_MAX) throw arrayTooLarge();
    this.elementType = elementType;
    this.items = items;
    this.lower = lower;
  }
  get length(): number {
    return this.items.length;
  }
}

export function arrayTooLarge(): SqlError {
  return new SqlError(SqlState.programLimitExceeded, `array size exceeds the maximum allowed (${ARRAY_SIZE_MAX})`);
}

export function multidimensionalArrays(): SqlError {
  return new SqlError(SqlState.featureNotSupported, 'multidimensional arrays are not supported');
}

/**
 * btarraycmp over two arrays of one element type: element by element (a NULL element sorts after every
 * non-null one and equals another NULL), then the shorter array first. -1, 0 or 1.
 */
export function compareArrays(a: SqlArray, b: SqlArray): number {
  const n = Math.min(a.items.length, b.items.length);
  for (let i = 0; i < n; i++) {
    const x = a.items[i] ?? null;
    const y = b.items[i] ?? null;
    if (x === null || y === null) {
      if (x === y) continue;
      return x === null ? 1 : -1;
    }
    const c = compareValues(x, y, a.elementType);
    if (c !== 0) return c < 0 ? -1 : 1;
  }
  return a.items.length === b.items.length ? 0 : a.items.length < b.items.length ? -1 : 1;
}

/**
 * `v op ANY (arr)` (`all` false) or `v op ALL (arr)`, as PostgreSQL's ScalarArrayOpExpr: a NULL array is
 * NULL; an empty array is false for ANY and true for ALL, even when v is NULL; otherwise a NULL v is NULL,
 * and when no element decides, a NULL element makes the result NULL. `ct` is the comparison type.
 */
export function evalAnyArray(op: CmpOp, all: boolean, v: SqlValue, arr: SqlValue, ct: SqlType): boolean | null {
  if (arr === null) return null;
  if (!(arr instanceof SqlArray)) throw new InvariantError('ANY/ALL over a value that is not an array');
  if (arr.items.length === 0) return all;
  if (v === null) return null;
  let sawNull = false;
  for (const w of arr.items) {
    if (w === null) {
      sawNull = true;
      continue;
    }
    const ok = comparisonHolds(op, compareValues(v, w, ct));
    if (all && !ok) return false;
    if (!all && ok) return true;
  }
  return sawNull ? null : all;
}
