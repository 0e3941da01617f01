// Subqueries in expressions (PostgreSQL's SubLinks): scalar, EXISTS, ARRAY(SELECT ...), IN / ANY /
// ALL with a comparison operator. Evaluated by subquery.ts.

import { withEnumType } from './lower-enum.ts';
import { recordArrays } from './record.ts';
import type { Node, SubLink } from 'libpg-query';
import type { Scope } from './bind-context.ts';
import { canCast, cannotCast } from './cast.ts';
import { coerce, commonType, operatorError } from './coerce.ts';
import { SqlError, SqlState } from './errors.ts';
import type { CmpOp, Expr } from './expr.ts';
import { bindExpr, cmpOps, strOf, unsupported } from './lower-expr.ts';
import { bindSubquery } from './lower-select.ts';
import { isArrayType, isVectorType } from './types.ts';
import { arrayOfElement } from './lower-array.ts';

export function bindSubLink(scope: Scope, s: SubLink): Expr {
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
    case 'ARRAY_SUBLINK': {
      if (sub.columns.length !== 1) throw new SqlError(SqlState.syntaxError, 'subquery must return only one column');
      const et = sub.columns[0]?.type ?? 'text';
      const element = et === 'unknown' ? 'text' : et;
      if (isArrayType(element) || isVectorType(element)) throw unsupported('ARRAY(SELECT ...) of an array column');
      if (element === 'record') throw recordArrays();
      const array: Expr = { ...base, mode: 'array', e: null, op: '=', ct: element, t: arrayOfElement(element) };
      // An array of an enum says which one (its column's typmod), as ARRAY[...] of it does.
      return element === 'enum' ? withEnumType(array, scope.ctx.catalog.enumByOid(sub.columns[0]?.typmod ?? -1) ?? null) : array;
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
