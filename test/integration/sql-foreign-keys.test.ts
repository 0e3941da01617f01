/**
 * FOREIGN KEY checks are serializable over a real cluster of two shards (twelve replica processes),
 * with the referenced and the referencing table on different shards: a transaction adding a
 * referencing row point-reads the referenced key, one deleting a referenced row scans the referencing
 * table by the key columns (a reconnaissance range read whose predicate SemanticCC validates;
 * sql/foreign-key-checks.ts). So a transaction inserting a child and a concurrent one deleting its
 * parent cannot both commit, whichever commits first; without the checks both would, leaving an
 * orphan. Unrelated keys do not conflict.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { shardOfTable } from '../../protocol/sharding.ts';
import { Engine, type ExecResult } from '../../sql/engine.ts';
import { SqlClient, type SqlSession } from '../../client/sql/sql-session.ts';
import { startTestCluster, type TestCluster } from './cluster-harness.ts';
import { commitCode, q, value } from './sql-session-testkit.ts';

const BASE_PORT = 8230;

let tc: TestCluster;
let sql: SqlClient;

/** Referencing rows whose referenced row does not exist: never any. */
async function orphans(child: string, parent: string): Promise<number> {
  return Number(await value(sql.session(), `SELECT count(*) FROM ${child} c WHERE c.p IS NOT NULL AND NOT EXISTS (SELECT 1 FROM ${parent} x WHERE x.id = c.p)`));
}

/**
 * A transaction deleting parent `id` and one inserting a child of it, both past their statements
 * before either commits; `first` commits first. Returns the two outcomes (deleter's, inserter's).
 */
async function race(parent: string, child: string, id: number, childId: number, first: 'delete' | 'insert'): Promise<[string, string]> {
  const del = sql.session();
  const ins = sql.session();
  await del.begin();
  await ins.begin();
  await q(del, `DELETE FROM ${parent} WHERE id = ${id}`);
  await q(ins, `INSERT INTO ${child} VALUES (${childId}, ${id})`);
  if (first === 'delete') {
    const d = await commitCode(del);
    return [d, await commitCode(ins)];
  }
  const i = await commitCode(ins);
  return [await commitCode(del), i];
}

void describe('FOREIGN KEY checks over a cluster of two shards', () => {
  before(async () => {
    tc = await startTestCluster('sql-foreign-keys', BASE_PORT, { shards: 2 });
    sql = new SqlClient(await tc.connect(), await Engine.create());
    const s = sql.session();
    await q(s, 'CREATE TABLE fk_parent (id int PRIMARY KEY, name text)');
    await q(s, 'CREATE TABLE fk_child (id int PRIMARY KEY, p int REFERENCES fk_parent)');
    await q(s, 'CREATE TABLE fk_cparent (id int PRIMARY KEY)');
    await q(s, 'CREATE TABLE fk_cchild (id int PRIMARY KEY, p int REFERENCES fk_cparent ON DELETE CASCADE)');
    const catalog = (await s.catalog()).catalog;
    for (const [p, c] of [['fk_parent', 'fk_child'], ['fk_cparent', 'fk_cchild']] as const) {
      assert.notEqual(shardOfTable(catalog.require(p).id, 2), shardOfTable(catalog.require(c).id, 2), `${p} and ${c} on different shards`);
    }
    await q(s, "INSERT INTO fk_parent VALUES (1, 'a'), (2, 'b'), (3, 'c'), (4, 'd')");
    await q(s, 'INSERT INTO fk_cparent VALUES (1), (2), (3)');
  });
  after(async () => {
    await tc?.stop();
  });

  void it('enforces the key across shards with PostgreSQL\'s errors', async () => {
    const s = sql.session();
    const bad = await s.execute('INSERT INTO fk_child VALUES (100, 99)');
    assert.ok(!bad.ok);
    assert.equal(bad.error.code, '23503');
    assert.equal(bad.error.detail, 'Key (p)=(99) is not present in table "fk_parent".');
    await q(s, 'INSERT INTO fk_child VALUES (100, 4)');
    const referenced = await s.execute('DELETE FROM fk_parent WHERE id = 4');
    assert.ok(!referenced.ok);
    assert.equal(referenced.error.code, '23503');
    assert.equal(referenced.error.detail, 'Key (id)=(4) is still referenced from table "fk_child".');
    await q(s, 'DELETE FROM fk_child WHERE id = 100');
    await q(s, 'DELETE FROM fk_parent WHERE id = 4');
  });

  void it('a child inserted while its parent is deleted: the later committer aborts (delete commits first)', async () => {
    const [d, i] = await race('fk_parent', 'fk_child', 1, 1, 'delete');
    assert.ok(d !== 'committed' || i !== 'committed', 'both committed');
    assert.equal(d, 'committed');
    assert.equal(await orphans('fk_child', 'fk_parent'), 0);
  });

  void it('a child inserted while its parent is deleted: the later committer aborts (insert commits first)', async () => {
    const [d, i] = await race('fk_parent', 'fk_child', 2, 2, 'insert');
    assert.ok(d !== 'committed' || i !== 'committed', 'both committed');
    assert.equal(i, 'committed');
    assert.equal(await orphans('fk_child', 'fk_parent'), 0);
    assert.equal(await value(sql.session(), 'SELECT count(*) FROM fk_parent WHERE id = 2'), 1);
  });

  void it('ON DELETE CASCADE racing a child insert leaves no orphan', async () => {
    const [d, i] = await race('fk_cparent', 'fk_cchild', 1, 1, 'delete');
    assert.ok(d !== 'committed' || i !== 'committed', 'both committed');
    assert.equal(await orphans('fk_cchild', 'fk_cparent'), 0);
  });

  void it('a child of another parent does not conflict with the delete', async () => {
    const del = sql.session();
    const ins = sql.session();
    await del.begin();
    await ins.begin();
    await q(del, 'DELETE FROM fk_cparent WHERE id = 2');
    await q(ins, 'INSERT INTO fk_cchild VALUES (3, 3)');
    assert.deepEqual([await commitCode(del), await commitCode(ins)], ['committed', 'committed']);
    assert.equal(await value(sql.session(), 'SELECT count(*) FROM fk_cchild WHERE p = 3'), 1);
  });
});
