/**
 * `pgbench -i -s 1` run several times through the gateway on a local 6-replica cluster (default
 * history window), printing every replica's resident store keys after each run and after the
 * collector had time (docs/decisions/0017): without collection each run adds another 100,000 rows.
 *
 *   node --import tsx scripts/storage-gc-pgbench.ts [runs] [base port]
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { startClusterGateway } from '../client/gateway/cluster-gateway.ts';
import { metric, scrape, sleep, startTestCluster } from '../test/integration/cluster-harness.ts';

const runs = Number(process.argv[2] ?? 3);
const tc = await startTestCluster('storage-gc-pgbench', Number(process.argv[3] ?? 9220));
const gw = await startClusterGateway({ client: { config: tc.config, clientId: tc.clientId, keyPair: tc.keyPair }, port: 0, users: [{ name: 'pesto', password: 'pesto' }], databases: ['pesto'] });
const keys = async (): Promise<number[]> => Promise.all(tc.indexes.map(async (i) => metric(await scrape(tc.cluster, 0, i), 'pesto_replica_store_keys')));
try {
  for (let r = 1; r <= runs; r++) {
    const t = Date.now();
    // Not execFileSync: the gateway serving pgbench runs in this process.
    await promisify(execFile)('/usr/lib/postgresql/15/bin/pgbench', ['-i', '-s', '1', '-h', '127.0.0.1', '-p', String(gw.gateway.port), '-U', 'pesto', 'pesto'], { env: { ...process.env, PGPASSWORD: 'pesto' } });
    process.stdout.write(`run ${r}: ${Math.round((Date.now() - t) / 1000)} s, store keys per replica ${(await keys()).join(' ')}\n`);
  }
  const window = tc.config.limits.historyWindowMs;
  await sleep(5 * window);
  const n = await Promise.all(tc.indexes.map(async (i) => metric(await scrape(tc.cluster, 0, i), 'pesto_replica_storages_collected_total')));
  process.stdout.write(`after ${(5 * window) / 1000} s idle: store keys per replica ${(await keys()).join(' ')}; storages collected ${n.join(' ')}\n`);
} finally {
  await gw.close();
  await tc.stop();
}
