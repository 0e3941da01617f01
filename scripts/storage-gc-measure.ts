/**
 * Measures storage collection (docs/decisions/0017) on one replica core: 100,000 pgbench_accounts-like
 * rows loaded into a fresh storage in 50 committed load batches, the table switched to another storage
 * (TRUNCATE), time moved past the history window, and the retired storage collected in the replica's
 * slices. Prints resident keys and heap before and after, and CPU per 10,000 rows for collecting, next
 * to CPU per 10,000 rows for applying the load's writebacks in the same run (the baseline).
 *
 *   node --expose-gc --import tsx scripts/storage-gc-measure.ts [runs]
 */
import { cpuUsage } from 'node:process';
import { encodeTxn } from '../protocol/codec.ts';
import { encodeLogRecord } from '../protocol/log-record.ts';
import { keyPairFromSeed } from '../protocol/crypto/ed25519.ts';
import { signBatch } from '../protocol/crypto/signed.ts';
import type { ReplicaIndex, ShardId } from '../protocol/ids.ts';
import type { Certificate, Txn, WriteEntry } from '../protocol/messages.ts';
import { voteLeaf } from '../protocol/statements.ts';
import { STORAGE_ID_BASE } from '../sql/catalog.ts';
import { Engine } from '../sql/engine.ts';
import { primaryKeyOf } from '../sql/memory-store.ts';
import { CATALOG_KEY, CatalogVersion } from '../sql/replicated-catalog.ts';
import { encodeRow } from '../sql/row-codec.ts';
import { rowKey } from '../sql/row-key.ts';
import { ReplicaCore, STORAGE_GC_SLICE_KEYS } from '../replica/core/replica-core.ts';

const ROWS = 100_000;
const BATCH = 2000;
const SEC = 1_000_000;
const S0 = 0 as ShardId;
const keys = Array.from({ length: 6 }, (_, i) => keyPairFromSeed(new Uint8Array(32).fill(i + 1)));
const engine = await Engine.create();
const gc = (globalThis as { gc?: () => void }).gc;
if (gc === undefined) throw new Error('run with node --expose-gc');

const cpuMs = (): number => {
  const u = cpuUsage();
  return (u.user + u.system) / 1000;
};
const heapMb = (): number => {
  gc();
  gc();
  return process.memoryUsage().heapUsed / (1 << 20);
};
function committed(t: Txn): Certificate {
  return { kind: 'votes', votes: { decision: 'commit', shards: [{ shard: S0, sigs: keys.map((k, i) => signBatch([voteLeaf(t.digest, S0, 'commit')], k.secretKey, i)[0]!) }] } };
}
const txnOf = (micros: number, client: number, writes: WriteEntry[]): Txn =>
  encodeTxn({ ts: { micros, clientId: client }, shards: [S0], reads: [], writes: writes.sort((a, b) => (a.key < b.key ? -1 : 1)), deps: [], predicates: [], meta: new Uint8Array(0) });

async function run(): Promise<Record<string, number>> {
  let now = 1 * SEC;
  const core = new ReplicaCore({ shard: S0, index: 0 as ReplicaIndex, f: 1, owns: () => true, clockSkewMaxMicros: SEC, gcWindowMicros: 15 * SEC, engine }, { nowMicros: () => now });
  const apply = (t: Txn): void => {
    core.handle(1, { kind: 'writeback', digest: t.digest, cert: committed(t), txn: t });
    core.takeEffects();
  };
  const c1 = CatalogVersion.empty.apply(engine.parse('CREATE TABLE pgbench_accounts (aid int PRIMARY KEY, bid int, abalance int, filler char(84))').stmts[0]!).next!;
  const c2 = c1.withStorage('pgbench_accounts', STORAGE_ID_BASE);
  const c3 = c2.withStorage('pgbench_accounts', STORAGE_ID_BASE + 1);
  const def = c2.catalog.require('pgbench_accounts');
  apply(txnOf(now, 1, [{ key: CATALOG_KEY, value: c1.value() }]));
  const heapBefore = heapMb();
  // Batches built (and signed) before the clock starts: only applying them is the baseline.
  const batches: Txn[] = [];
  for (let b = 0; b < ROWS / BATCH; b++) {
    const writes: WriteEntry[] = [];
    for (let i = b * BATCH + 1; i <= (b + 1) * BATCH; i++) {
      const row = [i, 1, 0, ' '.repeat(84)];
      writes.push({ key: rowKey(def.id, primaryKeyOf(def, row)), value: encodeRow(def, row) });
    }
    batches.push(txnOf(now + 1000 + b, 2, writes));
  }
  const publish = txnOf(now + 100_000, 1, [{ key: CATALOG_KEY, value: c2.value() }]);
  const truncate = txnOf(now + 200_000, 1, [{ key: CATALOG_KEY, value: c3.value() }]);
  const certs = batches.map((t) => committed(t));
  const loadStart = cpuMs();
  batches.forEach((t, i) => {
    core.handle(1, { kind: 'writeback', digest: t.digest, cert: certs[i]!, txn: t });
    core.takeEffects();
  });
  const loadCpu = cpuMs() - loadStart;
  apply(publish);
  apply(truncate);
  const keysLoaded = core.store.size;
  // What a log compaction of this store costs (the shell compacts after collecting).
  const ckptStart = cpuMs();
  const ckptBytes = core.checkpoint().map((r) => encodeLogRecord(r)).reduce((n, b) => n + b.length, 0);
  const checkpointCpuMs = cpuMs() - ckptStart;
  // What the replica keeps of the load (its rows, and the batches as commit proofs), nothing of this script's.
  batches.length = 0;
  certs.length = 0;
  const heapLoaded = heapMb();
  now += 20 * SEC; // the switch is now below the low watermark
  const gcStart = cpuMs();
  core.onTick();
  let slices = 1;
  while (core.storageGc.step(STORAGE_GC_SLICE_KEYS, now)) slices++;
  const gcCpu = cpuMs() - gcStart;
  const heapCollected = heapMb();
  if (core.storageGc.stats.rowsCollected !== ROWS) throw new Error(`collected ${core.storageGc.stats.rowsCollected} rows, expected ${ROWS}`);
  return {
    keysLoaded,
    keysCollected: core.store.size,
    checkpointCpuMs,
    checkpointMb: ckptBytes / (1 << 20),
    heapBeforeMb: heapBefore,
    heapLoadedMb: heapLoaded,
    heapCollectedMb: heapCollected,
    applyCpuMsPer10k: (loadCpu * 10_000) / ROWS,
    collectCpuMsPer10k: (gcCpu * 10_000) / ROWS,
    slices,
    sliceCpuMs: gcCpu / slices,
  };
}

const runs = Number(process.argv[2] ?? 3);
const results: Record<string, number>[] = [];
for (let i = 0; i < runs; i++) {
  results.push(await run());
  process.stdout.write(`run ${i + 1}: ${JSON.stringify(results[i], (_, v: unknown) => (typeof v === 'number' ? Math.round(v * 100) / 100 : v))}\n`);
}
const median = (k: string): number => results.map((r) => r[k]!).sort((a, b) => a - b)[Math.floor(results.length / 2)]!;
process.stdout.write(`median: ${JSON.stringify(Object.fromEntries(Object.keys(results[0]!).map((k) => [k, Math.round(median(k) * 100) / 100])))}\n`);
process.stdout.write(`collect / apply CPU per row: ${(median('collectCpuMsPer10k') / median('applyCpuMsPer10k')).toFixed(3)}\n`);
