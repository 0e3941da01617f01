// Aggregation over grouping sets (the plan's 'groupsets' node, PostgreSQL's MixedAggregate): the input
// rows are grouped once per set; the groups not in a set are NULL in its rows, and GROUPING(args) is the
// bitmask of its arguments missing from the set (first argument most significant). An empty set gives
// one row even over no input, as a plain aggregate does. Rows come set by set, groups in first-seen order.

import type { AggSpec, Plan } from './plan.ts';
import type { Expr } from './expr.ts';
import { evalExpr, type Env } from './eval.ts';
import type { Row, SqlType, SqlValue } from './types.ts';
import { encodeKey } from './key-encoding.ts';
import { accumulate, defer, finishAgg, newAggState, type AggState } from './agg.ts';

/** Feeds one input row to a group's aggregate states (FILTER, ORDER BY inside the call). */
export function feedAggs(aggs: readonly AggSpec[], states: readonly AggState[], r: Row, env: Env): void {
  for (let i = 0; i < aggs.length; i++) {
    const a = aggs[i] as AggSpec;
    if (a.fn === 'grouping') continue;
    if (a.filter !== null && evalExpr(a.filter, r, env) !== true) continue;
    const v = a.arg === null ? null : evalExpr(a.arg, r, env);
    const d = a.arg2 === null ? null : evalExpr(a.arg2, r, env);
    // A hypothetical-set aggregate's hypothetical row (its direct arguments, the same for the whole group).
    if (a.direct !== undefined) (states[i] as AggState).items = a.direct.map((e) => evalExpr(e, r, env));
    if (a.order !== null) defer(states[i] as AggState, a.order.map((k) => evalExpr(k.e, r, env)), v, a.arg?.t ?? 'int8', d);
    else accumulate(a, states[i] as AggState, v, a.arg?.t ?? 'int8', d);
  }
}

type GroupSetsPlan = Extract<Plan, { readonly k: 'groupsets' }>;

export function runGroupingSets(p: GroupSetsPlan, rows: readonly Row[], env: Env): Row[] {
  const out: Row[] = [];
  for (const set of p.sets) {
    const exprs = set.map((i) => p.groups[i] as Expr);
    const types: SqlType[] = exprs.map((e) => e.t);
    const table = new Map<string, { keys: SqlValue[]; states: AggState[] }>();
    const order: { keys: SqlValue[]; states: AggState[] }[] = [];
    for (const r of rows) {
      const keys = exprs.map((e) => evalExpr(e, r, env));
      const k = encodeKey(keys, types);
      let g = table.get(k);
      if (!g) {
        g = { keys, states: p.aggs.map(newAggState) };
        table.set(k, g);
        order.push(g);
      }
      feedAggs(p.aggs, g.states, r, env);
    }
    if (order.length === 0 && set.length === 0) order.push({ keys: [], states: p.aggs.map(newAggState) });
    for (const g of order) {
      const groupVals = p.groups.map((_, i) => {
        const at = set.indexOf(i);
        return at < 0 ? null : (g.keys[at] ?? null);
      });
      const aggVals = p.aggs.map((a, i) => {
        const args = p.grouping[i];
        if (args === null || args === undefined) return finishAgg(a, g.states[i] as AggState);
        return args.reduce((mask, gi) => (mask << 1) | (set.includes(gi) ? 0 : 1), 0);
      });
      out.push([...groupVals, ...aggVals]);
    }
  }
  return out;
}
