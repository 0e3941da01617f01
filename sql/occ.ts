// Commit-time validation for the single-node engine's explicit transactions (optimistic concurrency,
// serializable): a transaction commits only if every row version it read is still the current one and
// no row that now satisfies one of its scan predicates is missing from its read set (a phantom). The
// check uses exactly the read set and predicates an execution records for replicas (PROTOCOL §4.3),
// evaluated with the shared evaluator, so it doubles as an end-to-end test of that recording.

import type { Catalog } from './catalog.ts';
import type { ReadRecorder } from './exec-context.ts';
import type { RowSource } from './row-source.ts';
import { evalPredicate } from './eval.ts';

/** `ownWrite(tableId, key)`: keys the transaction wrote itself; its scans saw its own version of them. */
export function readsStillValid(
  source: RowSource, catalog: Catalog, rec: ReadRecorder, ownWrite: (tableId: number, key: string) => boolean,
): boolean {
  const seen = new Set<string>();
  for (const r of rec.reads) {
    const table = catalog.getById(r.tableId);
    if (table === undefined) return false;
    const cur = source.get(table, r.key);
    if ((cur?.version ?? null) !== r.version) return false;
    seen.add(`${r.tableId}/${r.key}`);
  }
  for (const p of rec.predicates) {
    if (p.hi === '') continue; // the scan's range was empty (a NULL bound)
    const table = catalog.getById(p.tableId);
    if (table === undefined) return false;
    const index = p.indexId === null ? null : (table.indexes.find((i) => i.id === p.indexId) ?? null);
    if (p.indexId !== null && index === null) return false;
    for (const row of source.scan({ table, index, lo: p.lo, hi: p.hi, predicate: p.predicate, mode: 'read', reverse: false })) {
      if (seen.has(`${p.tableId}/${row.key}`) || ownWrite(p.tableId, row.key)) continue;
      if (evalPredicate(p.predicate, row.row)) return false;
    }
  }
  return true;
}
