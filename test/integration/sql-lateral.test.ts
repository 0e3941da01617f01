/**
 * LATERAL on a real cluster. A lateral subquery is re-run for each row of the FROM items before it, and
 * each run's scans record their own predicates with that row's values bound (sql/scan-exec.ts), as a
 * correlated subquery's do: so a concurrent older writer of an inner row one of those runs would have
 * read makes the reader abort (40001), and one whose row no run reads does not. The same holds for a
 * set-returning function over an earlier item's column (implicitly lateral) joined to a table.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Engine } from '../../sql/engine.ts';
import { SqlClient } from '../../client/sql/sql-session.ts';
import { startTestCluster, type TestCluster } from './cluster-harness.ts';
import { commitCode, q, value } from './sql-session-testkit.ts';

const BASE_PORT = 8920;

let tc: TestCluster;
let sql: SqlClient;

void describe('LATERAL over the cluster', () => {
  before(async () => {
    tc = await startTestCluster('sql-lateral', BASE_PORT);
    sql = new SqlClient(await tc.connect(), await Engine.create());
    const s = sql.session();
    await q(s, 'CREATE TABLE orders (id int PRIMARY KEY, customer text, n int)');
    await q(s, 'CREATE TABLE items (id int PRIMARY KEY, order_id int, qty int)');
    await q(s, 'CREATE TABLE audit (id int PRIMARY KEY, n bigint)');
    await q(s, "INSERT INTO orders VALUES (1, 'ann', 2), (2, 'bob', 1)");
    await q(s, 'INSERT INTO items VALUES (10, 1, 5), (11, 1, 7), (12, 2, 1)');
  });
  after(async () => {
    await tc?.stop();
  });

  const TOTAL = 'SELECT sum(s.q) FROM orders o CROSS JOIN LATERAL (SELECT sum(i.qty) AS q FROM items i WHERE i.order_id = o.id) s';

  /** A reader sums through `read` in a transaction while an older writer commits `write`; how the reader's commit ends. */
  async function race(read: string, write: string, id: number): Promise<string> {
    const writer = sql.session();
    const reader = sql.session();
    await writer.begin();
    await value(writer, 'SELECT id FROM orders WHERE id = 0'); // fixes the writer's (older) timestamp
    await reader.begin();
    const seen = await value(reader, read);
    await q(writer, write);
    assert.equal(await commitCode(writer), 'committed');
    await q(reader, 'INSERT INTO audit VALUES ($1, $2)', [id, Number(String(seen ?? 0))]);
    return commitCode(reader);
  }

  void it('reads each outer row\'s inner rows and returns what PostgreSQL returns', async () => {
    const s = sql.session();
    const r = await q(s, 'SELECT o.id, s.c, s.top FROM orders o LEFT JOIN LATERAL (SELECT count(*) AS c, max(qty) AS top FROM items i WHERE i.order_id = o.id) s ON true ORDER BY o.id');
    assert.deepEqual(r.rows, [[1, 2, 7], [2, 1, 1]]);
    assert.deepEqual((await q(s, 'SELECT o.id, g FROM orders o, generate_series(1, o.n) g ORDER BY 1, 2')).rows, [[1, 1], [1, 2], [2, 1]]);
  });

  void it('a LATERAL reader aborts when an older writer inserts or moves an inner row one of its runs reads, and commits past one no run reads', async () => {
    assert.equal(await race(TOTAL, 'INSERT INTO items VALUES (20, 99, 100)', 1), 'committed');
    assert.equal(await race(TOTAL, 'INSERT INTO items VALUES (21, 2, 3)', 2), '40001');
    assert.equal(await race(TOTAL, 'UPDATE items SET order_id = 1 WHERE id = 20', 3), '40001');
    assert.equal(await race(TOTAL, 'UPDATE items SET qty = 0 WHERE id = 12', 4), '40001');
    assert.equal(String(await value(sql.session(), TOTAL)), '115');
  });

  void it('a reader of generate_series over an outer column aborts when an older writer changes that column', async () => {
    const read = 'SELECT count(*) FROM orders o, generate_series(1, o.n) g JOIN items i ON i.id = 10 + g';
    assert.equal(await race(read, 'UPDATE orders SET n = 3 WHERE id = 2', 5), '40001');
    assert.equal(await race(read, "INSERT INTO orders VALUES (3, 'cy', NULL)", 6), '40001');
    assert.equal(await race(read, 'INSERT INTO items VALUES (30, 5, 1)', 7), 'committed');
  });
});
