/**
 * Temporary tables of the cluster's SQL sessions (sql/temp-tables.ts has how they work). Their internal
 * names must differ between every session of every gateway process sharing the cluster, and between a
 * process and the one that restarts with its client id: a session's key is the client id, a random tag
 * drawn once per process, and the process's count of sessions.
 *
 * A session drops its temporary tables in one DDL transaction when it closes (the gateway closes a
 * session when its connection ends and when it shuts down). A process that dies first leaves its
 * sessions' tables in the catalog under names no other session may spell. The next process of its
 * client id drops them when it starts (`dropLeftTemp`): a client id is used by one process at a time
 * (its timestamps must increase), so every key of that client id but the running process's belongs to
 * a process that is gone.
 */
import { randomBytes } from 'node:crypto';
import { quoteIdent, type Catalog } from '../../sql/catalog.ts';
import { TEMP_MARK, TempTables } from '../../sql/temp-tables.ts';
import type { SqlClient } from './sql-session.ts';

const PROCESS_TAG = randomBytes(4).toString('hex');
let sessions = 0;

/** A new session's temporary tables, keyed uniquely across the cluster's clients (or by `key`, a key left behind). */
export function tempTablesFor(clientId: number, key?: string): TempTables {
  return new TempTables(key ?? `${clientId}_${PROCESS_TAG}_${++sessions}`);
}

/**
 * Drops the temporary tables earlier processes of this client id left behind, each key's in one DDL
 * transaction of a session holding that key; returns how many tables it dropped.
 */
export async function dropLeftTemp(sql: SqlClient): Promise<number> {
  const mine = `${TEMP_MARK}${sql.client.opts.clientId}_`;
  const current = `${mine}${PROCESS_TAG}_`;
  const catalog = (await sql.freshCatalog()).catalog;
  const byKey = new Map<string, string[]>();
  for (const t of catalog.list()) {
    if (!t.name.startsWith(mine) || t.name.startsWith(current)) continue;
    const key = t.name.slice(TEMP_MARK.length, t.name.indexOf('\u0001', 1));
    byKey.set(key, [...(byKey.get(key) ?? []), quoteIdent(t.name)]);
  }
  let dropped = 0;
  for (const [key, names] of byKey) {
    const session = sql.session(undefined, key);
    try {
      const r = await session.execute(`DROP TABLE IF EXISTS ${names.join(', ')} CASCADE`);
      if (!r.ok) throw new Error(`dropping temporary tables left by an earlier process: ${r.error.code} ${r.error.message}`);
      dropped += names.length;
    } finally {
      await session.close();
    }
  }
  return dropped;
}

/**
 * Runs what ends a transaction for the session's ON COMMIT DROP / DELETE ROWS tables or, `all`, what
 * drops every temporary table it has (its end), each statement through `run`.
 */
export async function endTemp(temp: TempTables, catalog: () => Promise<Catalog>, run: (sql: string) => Promise<unknown>, all = false): Promise<void> {
  if (all ? !temp.used : !temp.pending) return;
  const c = await catalog();
  const texts = all ? [temp.dropAll(c)].filter((t): t is string => t !== null) : temp.afterTransaction(c);
  for (const text of texts) await run(text);
}
