/**
 * UPDATE ... FROM and DELETE ... USING on a real cluster. The join is the statement's reconnaissance
 * read: replicas execute it, and the scans of the FROM tables record their read sets and predicates as
 * any range read's (sql/lower-dml-from.ts), so SemanticCC validates what the join read. An older
 * writer that commits a row into a FROM table's read range after the statement read it makes the
 * statement's transaction abort (40001): the outcome stays serializable (the writer first, then the
 * update that would have seen its row). A row outside that range conflicts with nothing. Prepared
 * statements with parameters run through the gateway as PostgreSQL runs them. MERGE is lowered onto the
 * same join (sql/lower-merge.ts: source LEFT JOIN target), so the same holds for its source's rows and
 * for the target rows it read, absent ones included.
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { Engine } from '../../sql/engine.ts';
import { SqlClient } from '../../client/sql/sql-session.ts';
import { clusterGatewayForSuite, withPg } from '../gateway/gateway-fixture.ts';
import { commitCode, q, value } from './sql-session-testkit.ts';

const BASE_PORT = 9020;

void describe('UPDATE ... FROM and DELETE ... USING over the cluster', () => {
  const suite = clusterGatewayForSuite('sql-update-from', BASE_PORT);
  let sql: SqlClient;

  before(async () => {
    sql = new SqlClient(await suite.cluster().connect(), await Engine.create());
    const s = sql.session();
    await q(s, 'CREATE TABLE acc (id int PRIMARY KEY, owner text, balance int)');
    await q(s, 'CREATE TABLE pay (id int PRIMARY KEY, acc int, amount int, kind text)');
    await q(s, 'CREATE INDEX pay_acc ON pay (acc)');
    await q(s, "INSERT INTO acc VALUES (1, 'ann', 100), (2, 'bob', 200), (3, 'cy', 300)");
    await q(s, "INSERT INTO pay VALUES (10, 1, 5, 'bonus'), (11, 2, 7, 'fee'), (12, 3, 9, 'bonus')");
    await q(s, 'CREATE TABLE stock (sku int PRIMARY KEY, qty int)');
    await q(s, 'CREATE TABLE delivery (id int PRIMARY KEY, sku int, qty int)');
    await q(s, 'INSERT INTO stock VALUES (1, 10)');
    await q(s, 'INSERT INTO delivery VALUES (100, 1, 5), (101, 2, 7)');
  });

  const APPLY = "UPDATE acc SET balance = balance + p.amount FROM pay p WHERE p.acc = acc.id AND p.kind = 'bonus'";

  /**
   * An older writer (its timestamp fixed first) commits `write` after a younger transaction ran
   * `statement`; how the younger one's commit ends, and what its statement returned.
   */
  async function race(statement: string, write: string): Promise<{ code: string; rows: unknown[][] }> {
    const writer = sql.session();
    const updater = sql.session();
    await writer.begin();
    await value(writer, 'SELECT id FROM acc WHERE id = 0'); // fixes the writer's (older) timestamp
    await updater.begin();
    const r = await q(updater, statement);
    await q(writer, write);
    assert.equal(await commitCode(writer), 'committed');
    return { code: await commitCode(updater), rows: r.rows };
  }

  const stock = async (): Promise<unknown[][]> => (await q(sql.session(), 'SELECT sku, qty FROM stock ORDER BY sku')).rows;
  const balances = async (): Promise<unknown[][]> => (await q(sql.session(), 'SELECT id, balance FROM acc ORDER BY id')).rows;

  void it('updates from the joined rows as PostgreSQL does, RETURNING FROM columns', async () => {
    const s = sql.session();
    await s.begin();
    const r = await q(s, `${APPLY} RETURNING acc.id, acc.balance, p.id`);
    assert.deepEqual([...r.rows].sort((a, b) => Number(a[0]) - Number(b[0])), [[1, 105, 10], [3, 309, 12]]);
    assert.equal(r.tag, 'UPDATE 2');
    assert.equal((await s.rollback()).ok, true);
  });

  void it('aborts the UPDATE ... FROM when an older writer inserts a row into the FROM table\'s read range, and commits past one outside it', async () => {
    const conflict = await race(APPLY, "INSERT INTO pay VALUES (20, 2, 50, 'bonus')");
    assert.equal(conflict.code, '40001');
    assert.equal(conflict.rows.length, 0);
    // Serializable: the insert committed, the update did not.
    assert.deepEqual(await balances(), [[1, 100], [2, 200], [3, 300]]);
    const unrelated = await race(APPLY, "INSERT INTO pay VALUES (21, 1, 1000, 'fee')");
    assert.equal(unrelated.code, 'committed');
    // The committed update saw the bonus rows of its snapshot: 10 and 12, and 20 the older writer added.
    assert.deepEqual(await balances(), [[1, 105], [2, 250], [3, 309]]);
  });

  void it('reads only the FROM rows a pinned target joins: an older writer of another account\'s payment conflicts with nothing', async () => {
    const one = 'UPDATE acc SET balance = balance + 1 FROM pay p WHERE acc.id = 3 AND p.acc = acc.id';
    assert.equal((await race(one, "INSERT INTO pay VALUES (22, 1, 1, 'fee')")).code, 'committed');
    assert.equal((await race(one, "INSERT INTO pay VALUES (23, 3, 1, 'fee')")).code, '40001');
    assert.deepEqual(await balances(), [[1, 105], [2, 250], [3, 310]]);
  });

  void it('aborts a DELETE ... USING when an older writer moves a row into the USING table\'s read range', async () => {
    const del = "DELETE FROM acc USING pay p WHERE p.acc = acc.id AND p.kind = 'void'";
    const conflict = await race(del, "UPDATE pay SET kind = 'void' WHERE id = 11");
    assert.equal(conflict.code, '40001');
    assert.equal((await q(sql.session(), "SELECT count(*) FROM pay WHERE kind = 'void'")).rows[0]?.[0], 1);
    assert.deepEqual(await balances(), [[1, 105], [2, 250], [3, 310]]);
  });

  void it('runs prepared UPDATE ... FROM and DELETE ... USING with parameters through the gateway', async () => {
    await withPg(suite.port(), async (c) => {
      const text = 'UPDATE acc SET balance = p.amount * $2 FROM pay p WHERE p.acc = acc.id AND p.id = $1 RETURNING acc.id, acc.balance, p.kind';
      const a = await c.query({ name: 'upd', text, values: [10, 3] });
      assert.deepEqual(a.rows, [{ id: 1, balance: 15, kind: 'bonus' }]);
      const b = await c.query({ name: 'upd', text, values: [12, 2] });
      assert.deepEqual(b.rows, [{ id: 3, balance: 18, kind: 'bonus' }]);
      const d = await c.query({
        name: 'del',
        text: 'WITH k AS (SELECT $1::text AS kind) DELETE FROM pay USING k, acc a WHERE pay.kind = k.kind AND a.id = pay.acc RETURNING pay.id, a.owner',
        values: ['fee'],
      });
      assert.deepEqual(d.rows.sort((x: { id: number }, y: { id: number }) => x.id - y.id), [{ id: 21, owner: 'ann' }, { id: 22, owner: 'ann' }, { id: 23, owner: 'cy' }]);
      assert.equal(d.command, 'DELETE');
      const left = await c.query('SELECT id FROM pay ORDER BY id');
      assert.deepEqual(left.rows.map((r: { id: number }) => r.id), [10, 11, 12, 20]);
    });
  });

  const RESTOCK = 'MERGE INTO stock s USING delivery d ON s.sku = d.sku WHEN MATCHED THEN UPDATE SET qty = s.qty + d.qty WHEN NOT MATCHED THEN INSERT VALUES (d.sku, d.qty)';

  void it('aborts a MERGE when an older writer adds a source row it would have read, or the target row an unmatched source row looked for', async () => {
    assert.equal((await race(RESTOCK, 'INSERT INTO delivery VALUES (102, 3, 1)')).code, '40001');
    assert.deepEqual(await stock(), [[1, 10]]);
    assert.equal((await race(RESTOCK, 'INSERT INTO stock VALUES (2, 0)')).code, '40001');
    assert.deepEqual(await stock(), [[1, 10], [2, 0]]);
    // A target row no source row looks for conflicts with nothing: the MERGE commits after the writer.
    assert.equal((await race(RESTOCK, 'INSERT INTO stock VALUES (50, 0)')).code, 'committed');
    assert.deepEqual(await stock(), [[1, 15], [2, 7], [3, 1], [50, 0]]);
  });

  void it('runs a prepared MERGE with parameters through the gateway, in autocommit and in a transaction block', async () => {
    await withPg(suite.port(), async (c) => {
      const text = 'MERGE INTO stock s USING (VALUES ($1::int, $2::int)) d(sku, qty) ON s.sku = d.sku WHEN MATCHED AND d.qty = 0 THEN DELETE '
        + 'WHEN MATCHED THEN UPDATE SET qty = s.qty + d.qty WHEN NOT MATCHED THEN INSERT VALUES (d.sku, d.qty)';
      const a = await c.query({ name: 'mrg', text, values: [1, 5] });
      assert.equal(a.command, 'MERGE');
      assert.equal(a.rowCount, 1);
      await c.query({ name: 'mrg', text, values: [60, 4] });
      await c.query({ name: 'mrg', text, values: [50, 0] });
      await c.query('BEGIN');
      await c.query({ name: 'mrg', text, values: [60, 1] });
      assert.deepEqual((await c.query('SELECT qty FROM stock WHERE sku = 60')).rows, [{ qty: 5 }]);
      await c.query('ROLLBACK');
    });
    assert.deepEqual(await stock(), [[1, 20], [2, 7], [3, 1], [60, 4]]);
  });
});
