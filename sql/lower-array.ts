// Binding of array expressions: ARRAY[...] constructors and `x op ANY/ALL (array)`, as PostgreSQL 15
// resolves them for one-dimensional arrays (sql-array.ts). `x = ANY (ARRAY[...])` and `x <> ALL (...)`
// over a literal list stay IN / NOT IN lists (lower-expr.ts); everything else becomes an 'anyarr' node. An
// untyped parameter or literal on the right takes the array type of the left operand's type, so
// `id = ANY($1)` describes $1 as int4[] (1007) when id is an integer column.

import type { Node } from 'libpg-query';
import type { CmpOp, Expr } from './expr.ts';
import type { Scope } from './bind-context.ts';
import { coerce, commonType, operatorError, unifyAll } from './coerce.ts';
import { SqlError, SqlState } from './errors.ts';
import { arrayElementType, arrayTypeOf, isArrayType, isNumericType, type SqlType } from './types.ts';
import { bindExpr } from './lower-expr.ts';

/** ARRAY[e1, e2, ...]: the elements unified to one type, which must not itself be an array. */
export function bindArrayConstructor(scope: Scope, elements: readonly Node[], target?: SqlType): Expr {
  const items = elements.map((n) => bindExpr(scope, n));
  if (items.some((e) => isArrayType(e.t))) throw new SqlError(SqlState.featureNotSupported, 'multidimensional arrays are not supported');
  if (items.length === 0) {
    if (target !== undefined && isArrayType(target)) return { k: 'array', items: [], t: target };
    throw new SqlError(SqlState.indeterminateDatatype, 'cannot determine type of empty array',
      undefined, undefined);
  }
  const [all, t] = target !== undefined && isArrayType(target)
    ? [items.map((e) => coerce(scope.ctx, e, arrayElementType(target))), arrayElementType(target)]
    : unifyAll(scope.ctx, items, 'ARRAY');
  if (t === 'unknown' || isArrayType(t)) throw new SqlError(SqlState.indeterminateDatatype, 'cannot determine type of array');
  return { k: 'array', items: all, t: arrayTypeOf(t) };
}

/** `l op ANY (r)` / `l op ALL (r)` with r an array-valued expression. */
export function bindAnyArray(scope: Scope, op: CmpOp, all: boolean, lNode: Node, rNode: Node): Expr {
  let l = bindExpr(scope, lNode);
  let r = 'A_ArrayExpr' in rNode ? bindArrayConstructor(scope, rNode.A_ArrayExpr.elements ?? []) : bindExpr(scope, rNode);
  if (r.t === 'unknown') {
    // An untyped parameter or literal: the array of the left operand's type (text when that is untyped too).
    const elem = l.t === 'unknown' ? 'text' : l.t;
    if (isArrayType(elem)) throw operatorError(op, l.t, l.t);
    r = coerce(scope.ctx, r, arrayTypeOf(elem));
  }
  const rt = r.t;
  if (!isArrayType(rt)) throw new SqlError('42809', 'op ANY/ALL (array) requires array on right side');
  const elem = arrayElementType(rt);
  if (l.t === 'unknown') l = coerce(scope.ctx, l, elem);
  const ct = commonType(l.t, elem);
  // Mixed numeric types compare by value (compareValues); other pairs must meet in the element's type.
  if (ct === null || (ct !== elem && !(isNumericType(l.t) && isNumericType(elem)) && !(l.t !== elem && ct === 'text'))) {
    throw operatorError(op, l.t, elem);
  }
  if (ct !== l.t) l = coerce(scope.ctx, l, ct);
  return { k: 'anyarr', e: l, arr: r, op, all, ct, t: 'bool' };
}
