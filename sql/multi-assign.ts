// UPDATE's multiple-column assignments, `SET (a, b) = ROW(x, y)` and `SET (a, b) = (SELECT x, y ...)`
// (PostgreSQL's transformMultiAssignRef; also in ON CONFLICT DO UPDATE). The parser gives each named
// column a MultiAssignRef naming its position in the source; the source's column count must match.
// A sub-SELECT is bound once per statement and each column reads its own output column of it, so it
// runs once per column (PostgreSQL runs it once: only a volatile function in it could tell).

import type { MultiAssignRef, Node } from 'libpg-query';
import type { Scope } from './bind-context.ts';
import { SqlError, SqlState } from './errors.ts';
import type { Expr } from './expr.ts';
import { bindSubquery } from './lower-select.ts';
import type { Plan } from './plan.ts';

/** The value one column of a multiple-column assignment takes: a node of a ROW(...), or a bound sub-SELECT column. */
export type MultiAssignValue = { readonly k: 'node'; readonly v: Node } | { readonly k: 'expr'; readonly e: Expr };

/** Sub-SELECTs already bound in this statement's assignments, by their location. */
export type BoundSources = Map<number, { readonly plan: Plan; readonly types: readonly Expr['t'][]; readonly correlated: boolean }>;

function mismatch(location: number | undefined): SqlError {
  return new SqlError(SqlState.syntaxError, 'number of columns does not match number of values', undefined, undefined, undefined, location);
}

export function multiAssignValue(scope: Scope, m: MultiAssignRef, bound: BoundSources): MultiAssignValue {
  const source = m.source;
  const n = m.ncolumns ?? 0;
  const i = (m.colno ?? 1) - 1;
  if (source !== undefined && 'RowExpr' in source) {
    const args = source.RowExpr.args ?? [];
    if (args.length !== n) throw mismatch(source.RowExpr.location);
    return { k: 'node', v: args[i]! };
  }
  if (source !== undefined && 'SubLink' in source && source.SubLink.subLinkType === 'EXPR_SUBLINK') {
    const at = source.SubLink.location ?? -1;
    let sub = bound.get(at);
    if (sub === undefined) {
      const q = bindSubquery(scope, source.SubLink.subselect as Node);
      sub = { plan: q.plan, types: q.columns.map((c) => (c.type === 'unknown' ? 'text' : c.type)), correlated: q.correlated };
      bound.set(at, sub);
    }
    if (sub.types.length !== n) throw mismatch(source.SubLink.location);
    const t = sub.types[i]!;
    const plan: Plan = { k: 'project', input: sub.plan, exprs: [{ k: 'col', i, t }] };
    return { k: 'expr', e: { k: 'subquery', mode: 'scalar', plan, e: null, op: '=', ct: t, t, correlated: sub.correlated, level: scope.level } };
  }
  const at = source === undefined ? undefined : (Object.values(source)[0] as { location?: number } | undefined)?.location;
  throw new SqlError(SqlState.featureNotSupported, 'source for a multiple-column UPDATE item must be a sub-SELECT or ROW() expression', undefined, undefined, undefined, at);
}
