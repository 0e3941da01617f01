// GROUP BY with GROUPING SETS, ROLLUP and CUBE, and the GROUPING(...) function (PostgreSQL's
// transformGroupClause and expand_grouping_sets). A GROUP BY list becomes the distinct grouping
// expressions plus the grouping sets over them: each top-level item gives a list of sets (a plain
// expression or a parenthesised list one set, ROLLUP its prefixes, CUBE its subsets, GROUPING SETS the
// concatenation of its items' lists) and the sets of the whole clause are their cartesian product.
// GROUP BY DISTINCT drops repeated sets. GROUPING(args) is bound as an aggregate of kind 'grouping'
// whose value the grouping-set executor computes: a bit per argument, 1 where the argument is not in
// the row's grouping set.

import type { GroupingFunc, Node } from 'libpg-query';
import type { Expr } from './expr.ts';
import { exprEquals } from './expr.ts';
import type { Scope } from './bind-context.ts';
import type { AggSpec, Plan } from './plan.ts';
import { SqlError, SqlState } from './errors.ts';
import { bindExpr } from './lower-expr.ts';

/** PostgreSQL's limit on the grouping sets of one query (MAX_GROUPING_SETS). */
const maxGroupingSets = 4096;

export interface GroupBy {
  /** The distinct grouping expressions, over the FROM row. */
  readonly groups: Expr[];
  /** Each grouping set as indices into `groups`; null for a plain GROUP BY list. */
  readonly sets: number[][] | null;
}

function tooMany(): SqlError {
  return new SqlError('54001', `too many grouping sets present (maximum ${maxGroupingSets})`);
}

/** The items of a parenthesised list `(a, b)` (an implicit ROW), or the one item. */
function listItems(n: Node): Node[] {
  if ('RowExpr' in n && n.RowExpr.row_format === 'COERCE_IMPLICIT_CAST') return n.RowExpr.args ?? [];
  return [n];
}

/** The grouping sets one GROUP BY item stands for, as lists of expressions. */
function setsOf(n: Node, bind: (n: Node) => Expr): Expr[][] {
  if (!('GroupingSet' in n)) return [listItems(n).map(bind)];
  const gs = n.GroupingSet;
  const content = gs.content ?? [];
  switch (gs.kind) {
    case 'GROUPING_SET_EMPTY':
      return [[]];
    case 'GROUPING_SET_SIMPLE':
      return [content.map(bind)];
    case 'GROUPING_SET_ROLLUP': {
      const parts = content.map((c) => listItems(c).map(bind));
      const out: Expr[][] = [];
      for (let i = parts.length; i >= 0; i--) out.push(parts.slice(0, i).flat());
      return out;
    }
    case 'GROUPING_SET_CUBE': {
      const parts = content.map((c) => listItems(c).map(bind));
      if (parts.length > 12) throw new SqlError('54011', 'CUBE is limited to 12 elements');
      const out: Expr[][] = [];
      // Largest sets first, as PostgreSQL lists them: bit i of `mask` leaves out part i.
      for (let mask = 0; mask < 2 ** parts.length; mask++) out.push(parts.filter((_, i) => (mask & (1 << i)) === 0).flat());
      return out;
    }
    case 'GROUPING_SET_SETS': {
      const out = content.flatMap((c) => setsOf(c, bind));
      if (out.length > maxGroupingSets) throw tooMany();
      return out;
    }
    default:
      throw new SqlError(SqlState.syntaxError, `unexpected grouping set ${gs.kind ?? ''}`);
  }
}

/** Expands a GROUP BY list; `bind` resolves one grouping expression (output names, ordinals, expressions). */
export function expandGroupBy(items: readonly Node[], distinct: boolean, bind: (n: Node) => Expr): GroupBy {
  const groups: Expr[] = [];
  const indexOf = (e: Expr): number => {
    const i = groups.findIndex((g) => exprEquals(g, e));
    if (i >= 0) return i;
    groups.push(e);
    return groups.length - 1;
  };
  const hasSets = items.some((n) => 'GroupingSet' in n);
  if (!hasSets) {
    for (const n of items) for (const e of listItems(n).map(bind)) indexOf(e);
    return { groups, sets: null };
  }
  let sets: number[][] = [[]];
  for (const n of items) {
    const mine = setsOf(n, bind).map((s) => s.map(indexOf));
    if (sets.length * mine.length > maxGroupingSets) throw tooMany();
    sets = sets.flatMap((s) => mine.map((m) => [...new Set([...s, ...m])].sort((a, b) => a - b)));
  }
  if (distinct) {
    const seen = new Set<string>();
    sets = sets.filter((s) => {
      const k = s.join(',');
      if (seen.has(k)) return false;
      seen.add(k);
      return true;
    });
  }
  return { groups, sets };
}

/** GROUPING(args): an aggregate of kind 'grouping' carrying its arguments (resolved in `groupingPlan`). */
export function bindGrouping(scope: Scope, f: GroupingFunc): Expr {
  if (scope.aggForbidden !== null) {
    const nested = scope.aggForbidden.startsWith('aggregate function calls');
    throw new SqlError(SqlState.groupingError, nested ? scope.aggForbidden : `grouping operations are not allowed in ${scope.aggForbidden}`);
  }
  const args = (f.args ?? []).map((a) => bindExpr(scope, a));
  if (args.length >= 32) throw new SqlError('54011', 'GROUPING must have fewer than 32 arguments');
  scope.aggs ??= [];
  scope.aggs.push({ fn: 'grouping', arg: null, arg2: null, distinct: false, t: 'int4', filter: null, order: null, groupingArgs: args });
  return { k: 'aggref', i: scope.aggs.length - 1, t: 'int4' };
}

/** The aggregation node: a plain one, or one over grouping sets when there are sets or GROUPING calls. */
export function groupingPlan(input: Plan, by: GroupBy, aggs: readonly AggSpec[]): Plan {
  const usesGrouping = aggs.some((a) => a.fn === 'grouping');
  if (by.sets === null && !usesGrouping) return { k: 'agg', input, groups: by.groups, aggs };
  const grouping = aggs.map((a) => (a.groupingArgs === undefined ? null : a.groupingArgs.map((e) => {
    const i = by.groups.findIndex((g) => exprEquals(g, e));
    if (i < 0) throw new SqlError(SqlState.groupingError, 'arguments to GROUPING must be grouping expressions of the associated query level');
    return i;
  })));
  const sets = by.sets ?? [by.groups.map((_, i) => i)];
  return { k: 'groupsets', input, groups: by.groups, sets, aggs, grouping };
}
