/**
 * Prometheus metrics of one replica (DESIGN §8), named `pesto_*`. Values are read from the core's,
 * the crypto layer's and the transport's counters at scrape time (prom-client `collect`), so the hot
 * path pays nothing for them. Served on `/metrics` by a small HTTP server.
 */
import { Gauge, collectDefaultMetrics, Registry } from 'prom-client';
import { scrapedCounter, serveMetrics } from '../../net/metrics-http.ts';
import { cryptoStats } from '../../protocol/crypto/signed.ts';
import { transportStats } from '../../net/index.ts';
import type { ReplicaServer } from './replica-server.ts';

const counter = scrapedCounter;

/**
 * The default metrics' event-loop delay monitor samples with a libuv timer at this interval.
 * prom-client's default (10 ms) wakes an idle replica 100 times a second, about 4 ms of CPU per
 * second per replica on this machine (measured: 4.4 ms/s with the default metrics, 1.6 ms/s at 250 ms,
 * 0.5 ms/s without); at 100 ms the monitor costs a tenth of that. Node reports each delay including
 * the interval, so `nodejs_eventloop_lag_*` read about 0.1 s plus the real lag.
 */
const EVENT_LOOP_MONITORING_MS = 100;

export function replicaMetrics(server: ReplicaServer): Registry {
  const registry = new Registry();
  registry.setDefaultLabels({ shard: String(server.opts.shard), replica: String(server.opts.index) });
  collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: EVENT_LOOP_MONITORING_MS });
  const core = server.core;
  counter(registry, 'pesto_replica_reads_total', 'Point reads served.', [], (set) => set({}, core.stats.reads));
  counter(registry, 'pesto_replica_prepares_total', 'ST1 validations run (once per transaction).', [], (set) => set({}, core.stats.prepares));
  counter(registry, 'pesto_replica_votes_total', 'ST1 votes by decision.', ['decision'], (set) => {
    for (const [d, v] of Object.entries(core.stats.votes)) set({ decision: d }, v);
  });
  counter(registry, 'pesto_replica_abstains_total', 'ABSTAIN votes by reason.', ['reason'], (set) => {
    for (const [r, v] of Object.entries(core.stats.abstainReasons)) set({ reason: r }, v ?? 0);
  });
  counter(registry, 'pesto_replica_aborts_by_reason_total', 'ABORT votes (proven conflicts) by reason.', ['reason'], (set) => {
    for (const [r, v] of Object.entries(core.stats.abortReasons)) set({ reason: r }, v ?? 0);
  });
  counter(registry, 'pesto_replica_writebacks_total', 'Certified outcomes applied.', ['outcome'], (set) => {
    set({ outcome: 'commit' }, core.stats.commits);
    set({ outcome: 'abort' }, core.stats.aborts);
  });
  counter(registry, 'pesto_replica_st2_adopted_total', 'ST2 decisions logged.', [], (set) => set({}, core.stats.st2Adopted));
  counter(registry, 'pesto_replica_queries_total', 'Range reads received, by round (eager, or sync on a snapshot).', ['round'], (set) => {
    set({ round: 'eager' }, core.stats.queriesEager);
    set({ round: 'snapshot' }, core.stats.queriesSnapshot);
  });
  counter(registry, 'pesto_replica_snapshot_reuses_total', 'Sync rounds answered from the eager execution of the same query, without executing (decision 0025).', [], (set) => set({}, core.stats.queriesSnapshotReused));
  counter(registry, 'pesto_replica_queries_refused_total', 'Range reads refused (timestamp below the low watermark or too far ahead).', [], (set) => set({}, core.stats.queriesRefused));
  counter(registry, 'pesto_replica_query_errors_total', 'Range reads answered with an error outcome.', [], (set) => set({}, core.stats.queryErrors));
  counter(registry, 'pesto_replica_fetches_total', 'Transaction fetches between replicas of a shard (sync rounds): sent, served, supplies applied, bad supplies ignored.', ['event'], (set) => {
    set({ event: 'sent' }, core.stats.fetchesSent);
    set({ event: 'served' }, core.stats.fetchesServed);
    set({ event: 'supplied' }, core.stats.fetchSupplies);
    set({ event: 'bad-supply' }, core.stats.badSupplies);
  });
  counter(registry, 'pesto_rejected_messages_total', 'Messages rejected at the boundary, by reason.', ['reason'], (set) => {
    for (const [r, v] of Object.entries(server.rejected)) set({ reason: r }, v);
    for (const [r, v] of Object.entries(core.stats.rejected)) set({ reason: r }, v);
  });
  counter(registry, 'pesto_transport_rejected_total', 'Streams closed by the transport, by reason.', ['reason'], (set) => {
    for (const [r, v] of Object.entries(transportStats.rejected)) set({ reason: r }, v);
  });
  counter(registry, 'pesto_signatures_total', 'ed25519 signatures made (one per Merkle batch).', [], (set) => set({}, cryptoStats.signatures));
  counter(registry, 'pesto_verifications_total', 'ed25519 verifications run (cache misses).', [], (set) => set({}, cryptoStats.verifications));
  counter(registry, 'pesto_signed_statements_total', 'Statements signed (votes and ST2 decisions).', [], (set) => set({}, server.signer.signed));
  counter(registry, 'pesto_transport_frames_written_total', 'Coalesced stream writes.', [], (set) => set({}, transportStats.framesWritten));
  counter(registry, 'pesto_transport_messages_sent_total', 'Messages sent.', [], (set) => set({}, transportStats.messagesSent));
  counter(registry, 'pesto_transport_frames_received_total', 'Stream reads handed over as frames.', [], (set) => set({}, transportStats.framesReceived));
  counter(registry, 'pesto_sign_batches_total', 'Merkle batches signed (one signature each).', [], (set) => set({}, server.signer.batches));
  counter(registry, 'pesto_wal_syncs_total', 'Log writes made durable (one fdatasync each, group commit).', [], (set) => set({}, server.walSyncs));
  counter(registry, 'pesto_wal_compactions_total', 'Log compactions completed (the log replaced by a checkpoint and its tail).', [], (set) => set({}, server.compactionsDone));
  counter(registry, 'pesto_replica_storages_collected_total', 'Retired or abandoned storages whose rows were dropped (storage-gc.ts).', [], (set) => set({}, core.storageGc.stats.storagesCollected));
  counter(registry, 'pesto_replica_storage_rows_collected_total', 'Keys dropped with collected storages.', [], (set) => set({}, core.storageGc.stats.rowsCollected));
  counter(registry, 'pesto_replica_storage_late_publications_total', 'Catalogs naming a storage already collected as abandoned (should stay 0).', [], (set) => set({}, core.storageGc.stats.latePublications));
  new Gauge({
    name: 'pesto_replica_store_keys',
    help: 'Keys (rows and raw keys) in the multi-version store.',
    registers: [registry],
    collect() {
      this.set(core.store.size);
    },
  });
  new Gauge({
    name: 'pesto_replica_apply_fault_active',
    help: 'Whether the apply fault (PESTO_FAULT_APPLY) is in force: range reads do not see committed writes.',
    registers: [registry],
    collect() {
      this.set(core.range.applyFault === null ? 0 : 1);
    },
  });
  new Gauge({
    name: 'pesto_replica_transactions',
    help: 'Transactions this replica keeps state for.',
    registers: [registry],
    collect() {
      this.set(core.txnCount);
    },
  });
  // SQL evaluated by replicas (named time zones: sql/time-zones.ts) depends on the Node build's ICU and
  // time zone data; replicas that differ can disagree on a query's result. One series per replica shows it.
  const build = new Gauge({
    name: 'pesto_replica_build_info',
    help: 'The Node.js build this replica runs: its version, ICU and time zone data (replicas of a shard should match).',
    labelNames: ['node', 'icu', 'tz'],
    registers: [registry],
  });
  build.set({ node: process.versions.node, icu: process.versions.icu ?? '', tz: process.versions.tz ?? '' }, 1);
  return registry;
}

export { serveMetrics };
