/**
 * Expression and partial unique indexes over a real cluster: the index's DDL replicates, and two
 * clients inserting rows with one key (`lower(email)` in different cases; one live name under a
 * partial index) concurrently cannot both commit, whatever the interleaving: each insert's uniqueness
 * probe is a predicate read of the key expression (sql/dml.ts, client/sql/scan-fetch.ts) that the
 * other's row satisfies. A row the partial index leaves out conflicts with nothing.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Engine } from '../../sql/engine.ts';
import { SqlClient, type SqlSession } from '../../client/sql/sql-session.ts';
import { startTestCluster, type TestCluster } from './cluster-harness.ts';
import { commitCode, q, value } from './sql-session-testkit.ts';

const BASE_PORT = 9060;

let tc: TestCluster;
let sql: SqlClient;
let other: SqlClient;

/** Both sessions insert (each in its own transaction, started before either inserts), then commit at once. */
async function race(a: SqlSession, b: SqlSession, insertA: string, insertB: string): Promise<string[]> {
  await a.begin();
  await b.begin();
  const ra = await a.execute(insertA);
  const rb = await b.execute(insertB);
  // An insert may already see the other's prepared row and fail (23505) or be told to retry (40001).
  const outcomes = await Promise.all([ra.ok ? commitCode(a) : a.rollback().then(() => ra.error.code), rb.ok ? commitCode(b) : b.rollback().then(() => rb.error.code)]);
  return outcomes;
}

void describe('expression and partial unique indexes on a cluster', () => {
  before(async () => {
    tc = await startTestCluster('sql-expression-indexes', BASE_PORT);
    sql = new SqlClient(await tc.connect(), await Engine.create());
    other = new SqlClient(await tc.connect(), await Engine.create());
    const s = sql.session();
    await q(s, 'CREATE TABLE accounts (id int PRIMARY KEY, email text, name text, deleted_at timestamp)');
    await q(s, 'CREATE UNIQUE INDEX accounts_email_ci ON accounts (lower(email))');
    await q(s, 'CREATE UNIQUE INDEX accounts_live_name ON accounts (name) WHERE deleted_at IS NULL');
  });
  after(async () => {
    await tc?.stop();
  });

  void it('the other client sees the indexes: a duplicate in another case is refused', async () => {
    await q(sql.session(), "INSERT INTO accounts VALUES (1, 'Ann@Example.com', 'ann', NULL)");
    const r = await other.session().execute("INSERT INTO accounts VALUES (2, 'ann@example.COM', 'ann2', NULL)");
    assert.ok(!r.ok && r.error.code === '23505', r.ok ? 'inserted' : r.error.message);
    assert.ok(!r.ok && r.error.detail === 'Key (lower(email))=(ann@example.com) already exists.', r.ok ? '' : r.error.detail);
  });

  void it('two clients inserting one case-insensitive email concurrently: at most one commits', async (t) => {
    for (let round = 0; round < 3; round++) {
      const outcomes = await race(sql.session(), other.session(),
        `INSERT INTO accounts VALUES (${100 + round}, 'Race${round}@example.com', 'a${round}', NULL)`,
        `INSERT INTO accounts VALUES (${200 + round}, 'RACE${round}@EXAMPLE.com', 'b${round}', NULL)`);
      t.diagnostic(`round ${round}: ${outcomes.join(', ')}`);
      const committed = outcomes.filter((o) => o === 'committed').length;
      assert.ok(committed <= 1, `both committed: ${outcomes.join(', ')}`);
      assert.ok(outcomes.every((o) => o === 'committed' || o === '40001' || o === '23505'), outcomes.join(', '));
      assert.equal(await value(sql.session(), `SELECT count(*) FROM accounts WHERE lower(email) = 'race${round}@example.com'`), committed);
    }
  });

  void it('two clients inserting one live name under a partial index: at most one commits; a deleted row conflicts with none', async (t) => {
    for (let round = 0; round < 3; round++) {
      const outcomes = await race(sql.session(), other.session(),
        `INSERT INTO accounts VALUES (${300 + round}, 'p${round}a@example.com', 'live${round}', NULL)`,
        `INSERT INTO accounts VALUES (${400 + round}, 'p${round}b@example.com', 'live${round}', NULL)`);
      t.diagnostic(`round ${round}: ${outcomes.join(', ')}`);
      const committed = outcomes.filter((o) => o === 'committed').length;
      assert.ok(committed <= 1, `both committed: ${outcomes.join(', ')}`);
      assert.equal(await value(sql.session(), `SELECT count(*) FROM accounts WHERE name = 'live${round}' AND deleted_at IS NULL`), committed);
    }
    // Rows outside the predicate: any number of deleted accounts may share a name.
    await q(sql.session(), "INSERT INTO accounts VALUES (500, 'd1@example.com', 'live0', '2024-01-01')");
    await q(other.session(), "INSERT INTO accounts VALUES (501, 'd2@example.com', 'live0', '2024-01-02')");
    assert.equal(await value(sql.session(), "SELECT count(*) FROM accounts WHERE name = 'live0'"), 3);
    // Moving a deleted row back into the predicate conflicts with the live one.
    const r = await sql.session().execute('UPDATE accounts SET deleted_at = NULL WHERE id = 500');
    assert.ok(!r.ok && r.error.code === '23505', r.ok ? 'updated' : r.error.message);
  });
});
