// The SQL conformance suite end to end over a real cluster (issue 5): every test/sql/*.slt file sent by
// the node `pg` driver to the wire gateway, which runs it as one Pesto client against six replica
// processes over gRPC (test/sql/cluster-database.ts). One cluster serves the whole corpus; each file
// starts on an empty database (the tables the previous file left are dropped first) in a new session.
// A file must fail exactly where the single-node engine fails (known-failures.txt, empty today): every
// other failure is a difference between the cluster path and the engine. No record is skipped. The
// corpus also runs on a cluster of two shards (slt-two-shards.ts, `npm run test:shards`, which .ci/run runs).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';

import { SqlClient } from '../../client/sql/sql-session.ts';
import { Engine } from '../../sql/engine.ts';
import type { ExecResult } from '../../sql/engine.ts';
import { startSltCluster, type SltCluster } from './cluster-database.ts';
import { corpusOn } from './slt-files.ts';

const BASE_PORT = 7800;

void describe('the sqllogictest corpus over a cluster of six replicas, through the gateway', () => {
  let cluster: SltCluster | undefined;
  before(async () => {
    cluster = await startSltCluster('slt', BASE_PORT);
  });
  after(async () => {
    await cluster?.stop();
  });

  corpusOn(() => cluster);

  // Issue 4: another client's SQL session holds a catalog cached before the gateway's DDL.
  void it("a table another client just created is found (autocommit), or 40001 when the transaction's catalog was stale, 42P01 only for DDL after T", async () => {
    const c = cluster!;
    const other = new SqlClient(await c.cluster.connect(), await Engine.create({ clock: () => Date.now() * 1000 }));
    const b = other.session();
    const gw = await c.open(); // the gateway's connection (drops what the corpus left)
    const rowsOf = (r: ExecResult): unknown[][] => {
      assert.ok(r.ok, r.ok ? '' : `${r.error.code}: ${r.error.message}`);
      return r.rows;
    };
    const codeOf = (r: ExecResult): string => (r.ok ? 'ok' : r.error.code);
    try {
      assert.deepEqual(rowsOf(await b.execute('SELECT 1')), [[1]]); // b caches the catalog now
      assert.equal((await gw.db.execute('CREATE TABLE fresh_t (k int PRIMARY KEY)')).ok, true);
      assert.equal((await gw.db.execute('INSERT INTO fresh_t VALUES (1)')).ok, true);
      // A transaction opened after the CREATE, on the stale cached catalog: 40001, not 42P01.
      await b.begin();
      assert.deepEqual(rowsOf(await b.execute('SELECT 1')), [[1]]);
      assert.equal(codeOf(await b.execute('SELECT k FROM fresh_t')), '40001');
      await b.rollback();
      assert.deepEqual(rowsOf(await b.execute('SELECT k FROM fresh_t')), [[1]]);
      // Autocommit statements retry with the fresh catalog by themselves.
      assert.equal((await gw.db.execute('CREATE TABLE fresh_u (k int PRIMARY KEY, v text)')).ok, true);
      assert.equal(codeOf(await b.execute("INSERT INTO fresh_u VALUES (5, 'five')")), 'ok');
      assert.equal((await gw.db.execute('ALTER TABLE fresh_u ADD COLUMN w int DEFAULT 7')).ok, true);
      assert.deepEqual(rowsOf(await b.execute('SELECT k, w FROM fresh_u')), [[5, 7]]);
      // DDL that commits after the transaction's timestamp is not visible at T: 42P01 stands.
      await b.begin();
      assert.deepEqual(rowsOf(await b.execute('SELECT 1')), [[1]]);
      assert.equal((await gw.db.execute('CREATE TABLE later_t (k int PRIMARY KEY)')).ok, true);
      assert.equal(codeOf(await b.execute('SELECT k FROM later_t')), '42P01');
      await b.rollback();
      assert.deepEqual(rowsOf(await b.execute('SELECT count(*) FROM later_t')), [[0]]);
      const seen = await gw.db.execute("SELECT k, v, w FROM fresh_u");
      assert.deepEqual(seen.ok ? seen.rows : seen, [['5', 'five', '7']]);
    } finally {
      await b.close();
      await gw.close();
    }
  });
});
