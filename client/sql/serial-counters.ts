/**
 * SERIAL columns: one counter row per (table, column) under table 0 (next to the catalog; with several
 * shards on its table's shard, protocol/sharding.ts), holding the last value handed out as decimal text. Transactional (a rolled-back insert gives its value back), so
 * concurrent inserts into one table conflict on the counter: fine for loading, as PostgreSQL users do
 * with explicit ids under load. The session (sql-session.ts) hands values out of `txn.serials`.
 */
import type { Key } from '../../protocol/messages.ts';
import { SERIAL_COUNTER_PREFIX } from '../../protocol/sharding.ts';
import { SqlError, SqlState } from '../../sql/errors.ts';
import type { SqlTxn } from './sql-txn.ts';

/** The key of the counter row of SERIAL column `column` of table `tableId`. */
export function serialKey(tableId: number, column: number): Key {
  return `${SERIAL_COUNTER_PREFIX}${tableId}:${column}`;
}

/** Reads the counters `keys` into `txn.serials` (an absent counter row reads as 0). */
export async function fetchSerials(txn: SqlTxn, keys: ReadonlySet<Key>): Promise<void> {
  await txn.beforeRead();
  await Promise.all(
    [...keys].map(async (k) => {
      const r = await txn.tx.read(k);
      const v = r.value === null ? 0 : Number(new TextDecoder().decode(r.value));
      if (!Number.isSafeInteger(v) || v < 0) throw new SqlError(SqlState.internalError, `sequence counter ${k.slice(4)} holds an invalid value`);
      txn.serials.set(k, v);
    }),
  );
}
