/**
 * sysbench 1.0 `oltp_read_write` against the gateway over a real cluster (issue 5): six replica
 * processes over gRPC, the gateway in this process as one Pesto client (as `pesto start` serves it).
 * `prepare` creates sbtest1 (SERIAL key, a secondary index) and loads 1,000 rows with multi-row INSERTs
 * (each well under the cluster's transaction limits); then two runs bounded by time (10 s of two
 * threads each), with `--db-ps-mode=disable` (simple queries) and with sysbench's named prepared
 * statements (binary results); then `cleanup`. Concurrency control aborts some transactions: every error
 * the gateway returns must be 40001, which sysbench rolls back and retries (its "ignored errors"), and
 * each transaction deletes one row and inserts it back, so the table keeps exactly 1,000 rows.
 *
 * Skipped, with the reason, when no sysbench binary is installed (.ci/run installs it with apt-get).
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ClusterBackend } from '../../client/gateway/cluster-backend.ts';
import { startGateway, type Gateway } from '../../client/gateway/gateway-server.ts';
import type { PestoClient } from '../../client/pesto-client.ts';
import { SqlClient } from '../../client/sql/sql-session.ts';
import { Engine } from '../../sql/engine.ts';
import { startTestCluster, type TestCluster } from '../integration/cluster-harness.ts';
import { DATABASE, PASSWORD, USER } from './gateway-fixture.ts';
import { CountingBackend, parseStats, rowCount, SKIP, sysbench } from './sysbench-tools.ts';

const BASE_PORT = 7820;
const SECONDS = 10;

void describe('sysbench oltp_read_write against the gateway over a cluster of six replicas', { skip: SKIP }, () => {
  let tc: TestCluster | undefined;
  let client: PestoClient | undefined;
  let gw: Gateway | undefined;
  let backend: CountingBackend | undefined;
  let port = 0;

  before(async () => {
    tc = await startTestCluster('sysbench', BASE_PORT);
    client = await tc.connect();
    const sql = new SqlClient(client, await Engine.create({ clock: () => Date.now() * 1000 }));
    backend = new CountingBackend(new ClusterBackend(sql, { databases: [DATABASE] }));
    gw = await startGateway({ port: 0, backend, users: [{ name: USER, password: PASSWORD }] });
    port = gw.port;
  });
  after(async () => {
    await gw?.close();
    await tc?.stop();
  });

  void it('prepare: creates sbtest1 and loads 1,000 rows in multi-row INSERTs without an error', async () => {
    const prepare = await sysbench(port, ['prepare']);
    assert.equal(prepare.code, 0, prepare.stderr + prepare.stdout);
    assert.match(prepare.stdout, /Inserting 1000 records into 'sbtest1'/);
    assert.deepEqual([...backend!.errors], [], 'errors during prepare');
    assert.equal(await rowCount(port), 1000);
  });

  for (const mode of ['disable', 'auto'] as const) {
    const label = mode === 'disable' ? 'simple queries (--db-ps-mode=disable)' : 'prepared statements with binary results';
    void it(`runs ${SECONDS} s with ${label}: only retried 40001 errors, 1,000 rows after`, async (t) => {
      backend!.errors.clear();
      const run = await sysbench(port, [`--db-ps-mode=${mode}`, '--events=0', `--time=${SECONDS}`, '--threads=2', 'run']);
      assert.equal(run.code, 0, run.stderr + run.stdout);
      const stats = parseStats(run.stdout);
      t.diagnostic(`${label}: ${stats.transactions} transactions (${stats.tps} tps), ${stats.queries} queries, ${stats.ignoredErrors} ignored errors, gateway errors ${JSON.stringify([...backend!.errors])}`);
      assert.ok(stats.transactions > 0, 'some transactions committed');
      assert.equal(stats.events, stats.transactions);
      assert.equal(stats.reconnects, 0);
      // Per transaction: 10 point selects + 4 range selects, 2 updates + 1 delete + 1 insert.
      assert.ok(stats.read >= 14 * stats.transactions && stats.write >= 4 * stats.transactions, JSON.stringify(stats));
      const other = [...backend!.errors].filter(([code]) => code !== '40001');
      assert.deepEqual(other, [], 'errors other than 40001');
      assert.equal(stats.ignoredErrors, backend!.errors.get('40001') ?? 0, `sysbench ignored ${stats.ignoredErrors} errors, the gateway returned ${JSON.stringify([...backend!.errors])}`);
      assert.equal(await rowCount(port), 1000);
    });
  }

  void it('cleanup drops sbtest1', async () => {
    const cleanup = await sysbench(port, ['cleanup']);
    assert.equal(cleanup.code, 0, cleanup.stderr + cleanup.stdout);
    assert.match(cleanup.stdout, /Dropping table 'sbtest1'/);
    assert.deepEqual([...backend!.errors].filter(([code]) => code !== '40001'), []);
  });
});
