/**
 * Sequences on a real cluster (sql/sequences.ts, client/sql/sequence-values.ts): a counter row advanced
 * in small transactions of their own, so concurrent inserts into a SERIAL table do not conflict with each
 * other, a rollback does not give values back, no value is handed out twice (across sessions and
 * clients), a bulk insert takes its values in one counter transaction, setval and ALTER SEQUENCE ...
 * RESTART write the counter (the latter inside its own, transactional DDL), and a counter row written
 * before sequences existed (SERIAL's last value as decimal text) is read on.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Engine } from '../../sql/engine.ts';
import { SqlClient } from '../../client/sql/sql-session.ts';
import { SERIAL_COUNTER_PREFIX } from '../../protocol/sharding.ts';
import { CATALOG_KEY, CatalogVersion } from '../../sql/replicated-catalog.ts';
import { startTestCluster, type TestCluster } from './cluster-harness.ts';
import { commitCode, q, value } from './sql-session-testkit.ts';

const BASE_PORT = 8600;

let tc: TestCluster;
let sql: SqlClient;

void describe('sequences over the cluster', () => {
  before(async () => {
    tc = await startTestCluster('sql-sequences', BASE_PORT);
    sql = new SqlClient(await tc.connect(), await Engine.create());
  });
  after(async () => {
    await tc?.stop();
  });

  void it('lets two open transactions insert into one SERIAL table and both commit, with distinct ids', async () => {
    const s = sql.session();
    await q(s, 'CREATE TABLE t1 (id serial PRIMARY KEY, v text)');
    const a = sql.session();
    const b = sql.session();
    await a.begin();
    await b.begin();
    await q(a, "INSERT INTO t1 (v) VALUES ('a')");
    await q(b, "INSERT INTO t1 (v) VALUES ('b')");
    await q(a, "INSERT INTO t1 (v) VALUES ('a2')");
    // With the counter read and written inside the user's transactions, one of them would abort.
    assert.equal(await commitCode(a), 'committed');
    assert.equal(await commitCode(b), 'committed');
    const rows = (await q(s, 'SELECT id, v FROM t1 ORDER BY id')).rows;
    assert.deepEqual(rows.map((r) => r[1]), ['a', 'b', 'a2']);
    assert.deepEqual(rows.map((r) => r[0]), [1, 2, 3]);
  });

  void it('does not give back the values of a rolled-back transaction, nor hand one out twice across clients', async () => {
    const s = sql.session();
    await q(s, 'CREATE TABLE t2 (id bigserial PRIMARY KEY, v int)');
    await s.begin();
    await q(s, 'INSERT INTO t2 (v) VALUES (1), (2)');
    await s.rollback();
    await q(s, 'INSERT INTO t2 (v) VALUES (3)');
    const other = new SqlClient(await tc.connect(), await Engine.create());
    await q(other.session(), 'INSERT INTO t2 (v) VALUES (4)');
    await q(s, 'INSERT INTO t2 (v) VALUES (5)');
    assert.deepEqual((await q(s, 'SELECT id, v FROM t2 ORDER BY id')).rows, [[3, 3], [4, 4], [5, 5]]);
    assert.equal(await value(s, "SELECT currval('t2_id_seq')"), 5);
  });

  void it('gives concurrent autocommit inserters distinct values', async () => {
    const s = sql.session();
    await q(s, 'CREATE TABLE t3 (id serial PRIMARY KEY, who int)');
    await Promise.all([0, 1, 2].map(async (who) => {
      const w = sql.session();
      for (let i = 0; i < 8; i++) await q(w, 'INSERT INTO t3 (who) VALUES ($1)', [who]);
    }));
    const ids = (await q(s, 'SELECT id FROM t3 ORDER BY id')).rows.map((r) => r[0]);
    assert.equal(ids.length, 24);
    assert.equal(new Set(ids).size, 24);
  });

  void it('takes a bulk insert\'s values in one counter transaction, in order', async () => {
    const s = sql.session();
    await q(s, 'CREATE TABLE t4 (id serial PRIMARY KEY, n int)');
    await q(s, 'INSERT INTO t4 (n) SELECT g FROM generate_series(1, 300) g');
    assert.deepEqual((await q(s, 'SELECT count(*), min(id), max(id), count(*) FILTER (WHERE id = n) FROM t4')).rows, [[300, 1, 300, 300]]);
  });

  void it('writes setval at once and ALTER SEQUENCE ... RESTART inside its transaction', async () => {
    const s = sql.session();
    await q(s, 'CREATE SEQUENCE s5 START 10 INCREMENT 5');
    assert.equal(await value(s, "SELECT nextval('s5')"), 10);
    await s.begin();
    assert.equal(await value(s, "SELECT setval('s5', 100)"), 100);
    await s.rollback();
    // setval is not undone by the rollback, as in PostgreSQL.
    assert.equal(await value(sql.session(), "SELECT nextval('s5')"), 105);
    await s.begin();
    await q(s, 'ALTER SEQUENCE s5 RESTART WITH 1000');
    await s.rollback();
    assert.equal(await value(sql.session(), "SELECT nextval('s5')"), 110);
    await q(s, 'ALTER SEQUENCE s5 RESTART WITH 1000');
    assert.equal(await value(sql.session(), "SELECT nextval('s5')"), 1000);
    const r = await sql.session().execute("SELECT setval('s5', -1)");
    assert.equal(r.ok ? 'ok' : r.error.code, '22003');
  });

  void it('reads on from a SERIAL counter row written before sequences existed', async () => {
    const s = sql.session();
    await q(s, 'CREATE TABLE t6 (id serial PRIMARY KEY, v int)');
    // Before sequences, a SERIAL column's counter was the row (table id, column) holding the last value.
    const tx = sql.client.session().begin();
    const id = CatalogVersion.fromValue((await tx.read(CATALOG_KEY)).value).catalog.require('t6').id;
    tx.writeKey(`${SERIAL_COUNTER_PREFIX}${id}:0`, new TextEncoder().encode('41'));
    assert.equal((await tx.commit()).outcome, 'commit');
    await q(s, 'INSERT INTO t6 (v) VALUES (1)');
    assert.deepEqual((await q(s, 'SELECT id, v FROM t6')).rows, [[42, 1]]);
  });
});
