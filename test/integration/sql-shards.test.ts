/**
 * SQL over a real cluster of two shards (twelve replica processes): every shard stores the replicated
 * catalog (table 0, protocol/sharding.ts `onEveryShard`), so a table on shard 1 is usable as soon as
 * its CREATE TABLE commits; a transaction may write tables of both shards; a statement that reads
 * tables of two shards (a join, a subquery) runs at the client, each scan fetched from its own shard,
 * and stays serializable.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Engine, type ExecResult } from '../../sql/engine.ts';
import { SqlClient, type SqlSession } from '../../client/sql/sql-session.ts';
import { shardOfTable } from '../../protocol/sharding.ts';
import { startTestCluster, type TestCluster } from './cluster-harness.ts';
import { q } from './sql-session-testkit.ts';

const BASE_PORT = 7760;

let tc: TestCluster;
let sql: SqlClient;

const rows = (r: ExecResult & { ok: true }): string => JSON.stringify(r.rows, (_k, v: unknown) => (typeof v === 'bigint' ? Number(v) : v));

void describe('SQL over two shards (the catalog on every shard)', () => {
  before(async () => {
    tc = await startTestCluster('sql-shards', BASE_PORT, { shards: 2 });
    sql = new SqlClient(await tc.connect(), await Engine.create());
  });
  after(async () => {
    await tc?.stop();
  });

  void it('creates tables that land on both shards and reads and writes each', async () => {
    const s = sql.session();
    await q(s, 'CREATE TABLE a (id int PRIMARY KEY, v text)');
    await q(s, 'CREATE TABLE b (id int PRIMARY KEY, n int)');
    const catalog = (await s.catalog()).catalog;
    const shardOf = (name: string): number => shardOfTable(catalog.require(name).id, 2);
    assert.notEqual(shardOf('a'), shardOf('b'), 'the two tables live on different shards');
    await q(s, "INSERT INTO a VALUES (1, 'x'), (2, 'y'), (3, 'z')");
    await q(s, 'INSERT INTO b VALUES (1, 10), (2, 20)');
    assert.equal(rows(await q(s, 'SELECT id, v FROM a WHERE id >= 2 ORDER BY id')), '[[2,"y"],[3,"z"]]');
    assert.equal(rows(await q(s, 'SELECT sum(n) FROM b')), '[[30]]');
    await q(s, 'UPDATE b SET n = n + 1 WHERE id > 0');
    assert.equal(rows(await q(s, 'SELECT id, n FROM b ORDER BY id')), '[[1,11],[2,21]]');
  });

  void it('commits a transaction that writes tables of both shards atomically', async () => {
    const s = sql.session();
    await s.begin();
    await q(s, "INSERT INTO a VALUES (10, 'both')");
    await q(s, 'UPDATE b SET n = n - 1 WHERE id = 1');
    const c = await s.commit();
    assert.ok(c.ok, c.ok ? '' : c.error.message);
    const r = sql.session();
    assert.equal(rows(await q(r, 'SELECT v FROM a WHERE id = 10')), '[["both"]]');
    assert.equal(rows(await q(r, 'SELECT n FROM b WHERE id = 1')), '[[10]]');
  });

  void it('runs a statement over tables of two shards at the client, each scan read from its own shard', async () => {
    const s = sql.session();
    assert.equal(rows(await q(s, 'SELECT a.id, a.v, b.n FROM a JOIN b ON a.id = b.id ORDER BY a.id')), '[[1,"x",10],[2,"y",21]]');
    assert.equal(rows(await q(s, 'SELECT count(*) FROM a WHERE id IN (SELECT id FROM b WHERE n > 15)')), '[[1]]');
    await q(s, 'UPDATE b SET n = n + 100 WHERE id IN (SELECT id FROM a WHERE v = $1)', ['y']);
    assert.equal(rows(await q(s, 'SELECT id, n FROM b ORDER BY id')), '[[1,10],[2,121]]');
    await q(s, 'UPDATE b SET n = n - 100 WHERE id = 2');
  });

  void it('keeps a join across shards serializable: an older insert into the joined range aborts the reader', async () => {
    const writer = sql.session();
    const reader = sql.session();
    await writer.begin();
    await q(writer, 'SELECT n FROM b WHERE id = 99'); // fixes the writer's (older) timestamp
    await reader.begin();
    assert.equal(rows(await q(reader, 'SELECT count(*) FROM a JOIN b ON a.id = b.id WHERE b.n < 1000')), '[[2]]');
    // The older writer adds a matching row to b (on the other shard from a) after the reader read.
    await q(writer, 'INSERT INTO b VALUES (3, 30)');
    const w = await writer.commit();
    assert.ok(w.ok, w.ok ? '' : w.error.message);
    // The reader's count missed a row committed below its timestamp: it must not commit what it computed.
    await q(reader, "INSERT INTO a VALUES (20, 'saw 2')");
    const r = await reader.commit();
    assert.equal(r.ok ? 'committed' : r.error.code, '40001');
    const after = sql.session();
    assert.equal(rows(await q(after, 'SELECT count(*) FROM a WHERE id = 20')), '[[0]]');
    await q(after, 'DELETE FROM b WHERE id = 3');
  });

  void it('hands out SERIAL values from a counter on the table\'s own shard', async () => {
    const s = sql.session();
    await q(s, 'CREATE TABLE c (id serial PRIMARY KEY, v text)');
    await q(s, "INSERT INTO c (v) VALUES ('a'), ('b')");
    await s.begin();
    await q(s, "INSERT INTO c (v) VALUES ('c')");
    await q(s, 'UPDATE b SET n = n WHERE id = 1'); // and a table of the other shard
    const done = await s.commit();
    assert.ok(done.ok, done.ok ? '' : done.error.message);
    await q(s, "INSERT INTO c (v) VALUES ('d')");
    assert.equal(rows(await q(s, 'SELECT id, v FROM c ORDER BY id')), '[[1,"a"],[2,"b"],[3,"c"],[4,"d"]]');
  });

  void it('alters a table on the second shard (a rewrite to fresh storage) and keeps its rows', async () => {
    const s = sql.session();
    await q(s, 'ALTER TABLE b ADD COLUMN note text');
    await q(s, "UPDATE b SET note = 'n' WHERE id = 2");
    assert.equal(rows(await q(s, 'SELECT id, n, note FROM b ORDER BY id')), '[[1,10,null],[2,21,"n"]]');
  });
});
