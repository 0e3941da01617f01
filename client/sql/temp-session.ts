/**
 * Temporary tables of the cluster's SQL sessions (sql/temp-tables.ts has how they work). Their internal
 * names must differ between every session of every gateway process sharing the cluster, and between a
 * process and the one that restarts with its client id: a session's key is the client id, a random tag
 * drawn once per process, and the process's count of sessions.
 *
 * A session drops its temporary tables in one DDL transaction when it closes (the gateway closes a
 * session when its connection ends and when it shuts down). A process that dies first leaves its
 * sessions' tables in the catalog under names no other session may spell; they hold their rows until an
 * operator drops them (`DROP TABLE` of the quoted internal name, from a session whose key matches, is
 * the only way today).
 */
import { randomBytes } from 'node:crypto';
import type { Catalog } from '../../sql/catalog.ts';
import { TempTables } from '../../sql/temp-tables.ts';

const PROCESS_TAG = randomBytes(4).toString('hex');
let sessions = 0;

/** A new session's temporary tables, keyed uniquely across the cluster's clients. */
export function tempTablesFor(clientId: number): TempTables {
  return new TempTables(`${clientId}_${PROCESS_TAG}_${++sessions}`);
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
