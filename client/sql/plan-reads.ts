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
import { planTables, type PlanTables } from '../../sql/plan-tables.ts';

const cache = new WeakMap<Plan, PlanTables>();

function readsOf(p: Plan): PlanTables {
  let r = cache.get(p);
  if (r === undefined) {
    r = planTables(p);
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
