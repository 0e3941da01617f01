/**
 * What a statement's plan reads, for the SQL session: whether it reads a table at all (a statement
 * without one runs at the client) and which table decides the shard its range read goes to. Replicas
 * of a shard hold only their own tables' rows (protocol/sharding.ts) and refuse to read another
 * shard's table (replica-row-source.ts, 0A000), so the session runs a plan over tables of several
 * shards itself, fetching each scan from its table's shard (scan-fetch.ts).
 */
import { shardOfTable } from '../../protocol/sharding.ts';
import type { TableDef } from '../../sql/catalog.ts';
import type { Plan } from '../../sql/plan.ts';

interface PlanReads {
  /** A scan or a subquery somewhere in the plan. */
  readonly scans: boolean;
  /** The tables it scans (storages by id, subqueries included). */
  readonly tables: readonly TableDef[];
}

const cache = new WeakMap<Plan, PlanReads>();

function readsOf(p: Plan): PlanReads {
  let r = cache.get(p);
  if (r === undefined) {
    r = collect(p);
    cache.set(p, r);
  }
  return r;
}

/** Whether a plan reads a table at all (statements without one run at the client). */
export function hasScan(p: Plan): boolean {
  return readsOf(p).scans;
}

/**
 * The table whose shard serves a range read of the plan: null when it scans none, `SEVERAL` when it
 * scans tables of more than one shard (a join across shards: the client runs such a statement itself,
 * each scan fetched from its own table's shard).
 */
export function tableOfPlan(p: Plan, shardCount: number): TableDef | null | typeof SEVERAL {
  const tables = readsOf(p).tables;
  const first = tables[0];
  if (first === undefined || shardCount === 1) return first ?? null;
  const shard = shardOfTable(first.id, shardCount);
  for (const t of tables) if (shardOfTable(t.id, shardCount) !== shard) return SEVERAL;
  return first;
}

export const SEVERAL = 'several-shards';

function collect(p: Plan): PlanReads {
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
