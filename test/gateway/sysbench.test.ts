/**
 * sysbench 1.0 (Debian) `oltp_read_write` against the gateway over the single-node engine: `prepare`
 * (SERIAL primary key, multi-row INSERTs, CREATE INDEX), a run bounded by an event count (never by
 * time), then `cleanup`. Once with `--db-ps-mode=disable` (simple query protocol, text results) and
 * once with sysbench's default named prepared statements (text parameters, binary results). Two threads,
 * so optimistic concurrency control aborts some transactions: every error the backend returns must be
 * 40001 (sysbench rolls back and retries those), sysbench must exit 0, and its final statistics must
 * show all events done with no reconnects. The table keeps its 1,000 rows (each transaction deletes one
 * row and inserts it back).
 *
 * Skipped, with the reason, when no sysbench binary is installed (.ci/run installs it with apt-get).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Engine } from '../../sql/engine.ts';
import { EngineBackend } from '../../client/gateway/engine-backend.ts';
import { startGateway } from '../../client/gateway/gateway-server.ts';
import { DATABASE, PASSWORD, USER } from './gateway-fixture.ts';
import { CountingBackend, parseStats, rowCount, SKIP, sysbench } from './sysbench-tools.ts';

const EVENTS = 200;

for (const mode of ['disable', 'auto'] as const) {
  const label = mode === 'disable' ? 'simple queries (--db-ps-mode=disable)' : 'prepared statements with binary results';
  void test(`sysbench oltp_read_write runs ${EVENTS} transactions with ${label}, only retried 40001 errors`, { skip: SKIP }, async (t) => {
    const backend = new CountingBackend(new EngineBackend(await Engine.create({ clock: () => Date.now() * 1000 }), { databases: [DATABASE] }));
    const gw = await startGateway({ port: 0, backend, users: [{ name: USER, password: PASSWORD }] });
    try {
      const prepare = await sysbench(gw.port, ['prepare']);
      assert.equal(prepare.code, 0, prepare.stderr + prepare.stdout);
      assert.match(prepare.stdout, /Inserting 1000 records into 'sbtest1'/);
      assert.deepEqual([...backend.errors], [], 'errors during prepare');
      assert.equal(await rowCount(gw.port), 1000);

      const run = await sysbench(gw.port, [`--db-ps-mode=${mode}`, `--events=${EVENTS}`, '--time=0', '--threads=2', 'run']);
      assert.equal(run.code, 0, run.stderr + run.stdout);
      const stats = parseStats(run.stdout);
      t.diagnostic(`${label}: ${stats.tps} tps, ${stats.queries} queries, ${stats.ignoredErrors} ignored errors, backend errors ${JSON.stringify([...backend.errors])}`);
      assert.equal(stats.events, EVENTS);
      assert.equal(stats.transactions, EVENTS);
      assert.equal(stats.reconnects, 0);
      // Per transaction: 10 point selects + 4 range selects, 2 updates + 1 delete + 1 insert.
      assert.ok(stats.read >= 14 * EVENTS && stats.write >= 4 * EVENTS, JSON.stringify(stats));
      const other = [...backend.errors].filter(([code]) => code !== '40001');
      assert.deepEqual(other, [], 'errors other than 40001');
      // Each 40001 reached sysbench as one ignored (rolled back and retried) error, and nothing else did.
      assert.equal(stats.ignoredErrors, backend.errors.get('40001') ?? 0, `sysbench ignored ${stats.ignoredErrors} errors, the backend returned ${JSON.stringify([...backend.errors])}`);
      assert.equal(await rowCount(gw.port), 1000);

      const cleanup = await sysbench(gw.port, ['cleanup']);
      assert.equal(cleanup.code, 0, cleanup.stderr + cleanup.stdout);
      assert.match(cleanup.stdout, /Dropping table 'sbtest1'/);
    } finally {
      await gw.close();
    }
  });
}
