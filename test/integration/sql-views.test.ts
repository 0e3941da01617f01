/**
 * Views on a real cluster. A view's query is lowered at the client and on replicas as a derived table,
 * so a range read over a view records read sets and predicates of its base tables: a concurrent older
 * writer of a base row the view's filter matches makes the view reader abort (40001); one whose row the
 * filter does not match does not. CREATE VIEW, renames and drops replay from the catalog log on every
 * replica and client, writes through a simple view reach its table, and views survive a restart of
 * every replica.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Engine } from '../../sql/engine.ts';
import { SqlClient } from '../../client/sql/sql-session.ts';
import { startTestCluster, type TestCluster } from './cluster-harness.ts';
import { commitCode, q, value } from './sql-session-testkit.ts';

const BASE_PORT = 8300;

let tc: TestCluster;
let sql: SqlClient;

void describe('views over the cluster', () => {
  before(async () => {
    tc = await startTestCluster('sql-views', BASE_PORT);
    sql = new SqlClient(await tc.connect(), await Engine.create());
    const s = sql.session();
    await q(s, 'CREATE TABLE accounts (id int PRIMARY KEY, owner text, balance int)');
    await q(s, 'CREATE TABLE audit (id int PRIMARY KEY, n bigint)');
    await q(s, "INSERT INTO accounts VALUES (1, 'ann', 50), (2, 'bob', 500), (3, 'cy', 5000)");
    await q(s, 'CREATE VIEW rich AS SELECT id, owner FROM accounts WHERE balance >= 1000');
    await q(s, 'CREATE VIEW rich_count (n) AS SELECT count(*) FROM rich');
  });
  after(async () => {
    await tc?.stop();
  });

  /** A reader counts the view in a transaction while an older writer commits `write`; how the reader's commit ends. */
  async function race(write: string, id: number): Promise<string> {
    const writer = sql.session();
    const reader = sql.session();
    await writer.begin();
    await value(writer, 'SELECT id FROM accounts WHERE id = 0'); // fixes the writer's (older) timestamp
    await reader.begin();
    const seen = await value(reader, 'SELECT n FROM rich_count');
    await q(writer, write);
    assert.equal(await commitCode(writer), 'committed');
    await q(reader, 'INSERT INTO audit VALUES ($1, $2)', [id, seen as number]);
    return commitCode(reader);
  }

  void it('a reader of a view aborts when an older writer inserts a base row its filter matches, and commits past one it does not', async () => {
    assert.equal(await race("INSERT INTO accounts VALUES (10, 'poor', 10)", 1), 'committed');
    assert.equal(await race("INSERT INTO accounts VALUES (11, 'dan', 2000)", 2), '40001');
    assert.equal(await race('UPDATE accounts SET balance = 9000 WHERE id = 2', 3), '40001');
    assert.equal(await value(sql.session(), 'SELECT n FROM rich_count'), 3);
  });

  void it('joins views with tables, refuses drops a view depends on, and keeps views working across renames', async () => {
    const s = sql.session();
    const r = await q(s, 'SELECT r.owner, a.balance FROM rich r JOIN accounts a ON a.id = r.id ORDER BY r.id');
    assert.deepEqual(r.rows, [['bob', 9000], ['cy', 5000], ['dan', 2000]]);
    const drop = await s.execute('DROP TABLE accounts');
    assert.equal(drop.ok ? 'ok' : drop.error.code, '2BP01');
    await q(s, 'ALTER TABLE accounts RENAME COLUMN owner TO holder');
    await q(s, 'ALTER TABLE accounts RENAME TO ledger');
    assert.deepEqual((await q(s, 'SELECT owner FROM rich ORDER BY id')).rows, [['bob'], ['cy'], ['dan']]);
    // Another client replays the catalog log from the start and binds the same views.
    const other = new SqlClient(await tc.connect(), await Engine.create());
    assert.equal(await value(other.session(), 'SELECT n FROM rich_count'), 3);
  });

  void it('writes through a simple view go to its table, reconnaissance reads included', async () => {
    const s = sql.session();
    await q(s, 'CREATE TABLE stock (id int PRIMARY KEY, qty int)');
    await q(s, 'INSERT INTO stock VALUES (1, 5), (2, 50), (3, 500)');
    await q(s, 'CREATE VIEW plenty (item, amount) AS SELECT id, qty FROM stock WHERE qty >= 10');
    await q(s, 'INSERT INTO plenty VALUES (4, 40)');
    // A range UPDATE: the replicas lower the same text and rewrite it onto stock the same way.
    assert.equal((await q(s, 'UPDATE plenty SET amount = amount + 1 WHERE amount < 100')).rowCount, 2);
    assert.equal((await q(s, 'DELETE FROM plenty WHERE amount > 400')).rowCount, 1);
    assert.deepEqual((await q(s, 'SELECT id, qty FROM stock ORDER BY id')).rows, [[1, 5], [2, 51], [4, 41]]);
    await q(s, 'DROP VIEW plenty');
    await q(s, 'DROP TABLE stock');
  });

  void it('views survive a restart of every replica', async () => {
    for (let i = 0; i < 6; i++) await tc.cluster.kill(0, i);
    for (let i = 0; i < 6; i++) await tc.cluster.restart(0, i);
    const fresh = new SqlClient(await tc.connect(), await Engine.create());
    const s = fresh.session();
    assert.deepEqual((await q(s, 'SELECT id, owner FROM rich ORDER BY id')).rows, [[2, 'bob'], [3, 'cy'], [11, 'dan']]);
    assert.equal(await value(s, 'SELECT n FROM rich_count'), 3);
    await q(s, 'DROP VIEW rich CASCADE');
    const gone = await s.execute('SELECT * FROM rich_count');
    assert.equal(gone.ok ? 'ok' : gone.error.code, '42P01');
  });
});
