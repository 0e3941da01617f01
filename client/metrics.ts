/**
 * Prometheus metrics of a client process (the gateway, `pesto start`): what only clients see. Commits
 * by path (the fast-path rate is `fast / (fast + slow)`), aborts, point reads and retries, range reads
 * by how they resolved (eager round, sync rounds, unresolved), recoveries of other clients'
 * transactions, replies rejected at the boundary, and the SQL layer's counters when there is one.
 */
import { collectDefaultMetrics, Registry } from 'prom-client';
import { scrapedCounter as counter } from '../net/metrics-http.ts';
import type { ClientCore } from './core/client-core.ts';
import type { SqlStats } from './sql/sql-session.ts';

/** What the metrics read: a `PestoClient` has all three (`core`, `rejected`, `opts.clientId`). */
export interface ClientCounters {
  readonly core: ClientCore;
  readonly rejected: Readonly<Record<string, number>>;
  readonly clientId: number;
}

export function clientMetrics(client: ClientCounters, sql: SqlStats | null): Registry {
  const registry = new Registry();
  registry.setDefaultLabels({ client: String(client.clientId) });
  collectDefaultMetrics({ register: registry });
  const s = client.core.stats;
  counter(registry, 'pesto_client_commits_total', 'Committed transactions by commit path (fast: n votes; slow: ST2; local: nothing to validate).', ['path'], (set) => {
    set({ path: 'fast' }, s.fastCommits);
    set({ path: 'slow' }, s.slowCommits);
    set({ path: 'local' }, s.committed - s.fastCommits - s.slowCommits);
  });
  counter(registry, 'pesto_client_slow_commits_total', 'Slow commits by cause: a replica abstained, or the last votes missed the long, the short (a missing replica is often late) or the floor wait (a missing replica silent for a second).', ['cause'], (set) => {
    set({ cause: 'abstain' }, s.slowByAbstain);
    set({ cause: 'late-long' }, s.slowByLate - s.slowAfterShortWait - s.slowAfterFloorWait);
    set({ cause: 'late-short' }, s.slowAfterShortWait);
    set({ cause: 'late-floor' }, s.slowAfterFloorWait);
  });
  counter(registry, 'pesto_client_aborts_total', 'Transactions that ended aborted: by validation (a commit that aborted), or abandoned by the caller before commit.', ['cause'], (set) => {
    set({ cause: 'validation' }, s.aborted);
    set({ cause: 'abandoned' }, s.abandoned);
  });
  counter(registry, 'pesto_client_point_reads_total', 'Point reads sent, and timed-out rounds that asked more replicas.', ['event'], (set) => {
    set({ event: 'read' }, s.reads);
    set({ event: 'retry' }, s.readRetries);
  });
  counter(registry, 'pesto_client_range_reads_total', 'Range reads by resolution: agreed in the eager round, after sync rounds, or unresolved (the transaction aborts).', ['result'], (set) => {
    set({ result: 'eager' }, s.queriesEager);
    set({ result: 'sync' }, s.queries - s.queriesEager - s.queriesFailed);
    set({ result: 'unresolved' }, s.queriesFailed);
  });
  counter(registry, 'pesto_client_sync_rounds_total', 'Snapshot synchronization rounds of range reads.', [], (set) => set({}, s.querySyncRounds));
  counter(registry, 'pesto_client_recoveries_total', "Other clients' stalled transactions this client finished.", [], (set) => set({}, s.recoveries));
  counter(registry, 'pesto_client_rejected_replies_total', 'Replies rejected at the boundary or by the core, by reason.', ['reason'], (set) => {
    for (const [r, v] of Object.entries(client.rejected)) set({ reason: r }, v);
    for (const [r, v] of Object.entries(s.badReplies)) set({ reason: r }, v);
  });
  if (sql !== null) {
    const q = sql;
    counter(registry, 'pesto_sql_statements_total', 'SQL statements run, by how: at the client over point reads, as range reads, as reconnaissance reads.', ['kind'], (set) => {
      set({ kind: 'all' }, q.statements);
      set({ kind: 'point' }, q.pointStatements);
      set({ kind: 'range' }, q.rangeReads);
      set({ kind: 'recon' }, q.reconReads);
    });
    counter(registry, 'pesto_sql_row_fetches_total', 'Rows point-read for statements run at the client.', [], (set) => set({}, q.rowFetches));
    counter(registry, 'pesto_sql_autocommit_retries_total', 'Statements outside a transaction retried after a Pesto abort.', [], (set) => set({}, q.autocommitRetries));
  }
  return registry;
}
