// What a plan reads: whether it scans a table at all (subqueries count) and which tables, walking every
// node and expression generically so new plan kinds are covered. Used by the cluster's SQL session to
// route a statement (client/sql/plan-reads.ts) and by EXPLAIN.

import type { TableDef } from './catalog.ts';
import type { Plan } from './plan.ts';

export interface PlanTables {
  /** A scan or a subquery somewhere in the plan. */
  readonly scans: boolean;
  /** The tables it scans (storages by id, subqueries included). */
  readonly tables: readonly TableDef[];
}

export function planTables(p: Plan): PlanTables {
  let scans = false;
  const tables = new Map<number, TableDef>();
  const visit = (x: unknown): void => {
    if (typeof x !== 'object' || x === null || x instanceof Uint8Array) return;
    if (Array.isArray(x)) {
      for (const y of x) visit(y);
      return;
    }
    const o = x as Record<string, unknown>;
    if (o['k'] === 'subquery') scans = true;
    if (o['k'] === 'scan') {
      scans = true;
      const t = o['table'] as TableDef;
      tables.set(t.id, t);
    }
    for (const [k, v] of Object.entries(o)) if (k !== 'table' && k !== 'index') visit(v);
  };
  visit(p);
  return { scans, tables: [...tables.values()] };
}
