/**
 * The `pg` driver (node-postgres 8) against the gateway over the single-node engine: simple queries,
 * unnamed and named parameterised statements, SQLSTATEs on errors, transaction states, SCRAM, limits.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import { DATABASE, PASSWORD, USER, startTestGateway } from './gateway-fixture.ts';

type Gw = Awaited<ReturnType<typeof startTestGateway>>;

async function withClient(gw: Gw, fn: (c: pg.Client) => Promise<void>, password = PASSWORD): Promise<void> {
  const c = new pg.Client({ host: '127.0.0.1', port: gw.port, user: USER, password, database: DATABASE });
  await c.connect();
  try {
    await fn(c);
  } finally {
    await c.end();
  }
}

async function sqlState(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (e) {
    return (e as { code?: string }).code ?? 'no code';
  }
  return 'no error';
}

void test('runs simple queries and reports exact command tags as row counts', async () => {
  const gw = await startTestGateway();
  try {
    await withClient(gw, async (c) => {
      await c.query('CREATE TABLE kv (k INT PRIMARY KEY, v TEXT, n NUMERIC(10,2), d DATE, ts TIMESTAMP, f FLOAT8, b BOOLEAN)');
      const ins = await c.query(`INSERT INTO kv VALUES (1, 'one', 1.5, '2024-01-02', '2024-01-02 03:04:05', 0.25, true), (2, 'two', NULL, NULL, NULL, NULL, false), (3, 'three', 3, NULL, NULL, 1e10, NULL)`);
      assert.equal(ins.command, 'INSERT');
      assert.equal(ins.rowCount, 3);
      const upd = await c.query(`UPDATE kv SET v = v || '!' WHERE k >= 2`);
      assert.equal(upd.command, 'UPDATE');
      assert.equal(upd.rowCount, 2);
      const sel = await c.query('SELECT k, v, n, d, f, b FROM kv ORDER BY k');
      assert.equal(sel.rowCount, 3);
      assert.deepEqual(sel.fields.map((f) => f.dataTypeID), [23, 25, 1700, 1082, 701, 16]);
      assert.deepEqual(sel.rows.map((r: { v: string }) => r.v), ['one', 'two!', 'three!']);
      assert.equal((sel.rows[0] as { n: string }).n, '1.50');
      assert.equal((sel.rows[0] as { b: boolean }).b, true);
      assert.equal((sel.rows[2] as { f: number }).f, 1e10);
      const del = await c.query('DELETE FROM kv WHERE k = 3');
      assert.equal(del.rowCount, 1);
    });
  } finally {
    await gw.close();
  }
});

void test('runs unnamed parameterised statements with text parameters', async () => {
  const gw = await startTestGateway();
  try {
    await withClient(gw, async (c) => {
      await c.query('CREATE TABLE acct (id INT PRIMARY KEY, owner VARCHAR(20), balance BIGINT)');
      for (let i = 1; i <= 5; i++) await c.query('INSERT INTO acct VALUES ($1, $2, $3)', [i, `o${i}`, i * 100]);
      const r = await c.query('SELECT owner, balance FROM acct WHERE id BETWEEN $1 AND $2 ORDER BY id', [2, 4]);
      assert.deepEqual(r.rows, [{ owner: 'o2', balance: '200' }, { owner: 'o3', balance: '300' }, { owner: 'o4', balance: '400' }]);
      const u = await c.query('UPDATE acct SET balance = balance + $1 WHERE id = $2', [5, 1]);
      assert.equal(u.rowCount, 1);
      const one = await c.query('SELECT balance FROM acct WHERE id = $1', [1]);
      assert.equal((one.rows[0] as { balance: string }).balance, '105');
      const nul = await c.query('SELECT $1::text IS NULL AS isnull', [null]);
      assert.equal((nul.rows[0] as { isnull: boolean }).isnull, true);
    });
  } finally {
    await gw.close();
  }
});

void test('reuses a named prepared statement across executions', async () => {
  const gw = await startTestGateway();
  try {
    await withClient(gw, async (c) => {
      await c.query('CREATE TABLE item (id INT PRIMARY KEY, name TEXT)');
      for (let i = 0; i < 10; i++) await c.query({ name: 'ins', text: 'INSERT INTO item VALUES ($1, $2)', values: [i, `n${i}`] });
      const seen: string[] = [];
      for (let i = 0; i < 10; i += 3) {
        const r = await c.query({ name: 'get', text: 'SELECT name FROM item WHERE id = $1', values: [i] });
        seen.push((r.rows[0] as { name: string }).name);
      }
      assert.deepEqual(seen, ['n0', 'n3', 'n6', 'n9']);
    });
  } finally {
    await gw.close();
  }
});

void test('reports errors with their SQLSTATE and keeps the connection usable', async () => {
  const gw = await startTestGateway();
  try {
    await withClient(gw, async (c) => {
      await c.query('CREATE TABLE u (id INT PRIMARY KEY)');
      await c.query('INSERT INTO u VALUES (1)');
      assert.equal(await sqlState(c.query('INSERT INTO u VALUES (1)')), '23505');
      assert.equal(await sqlState(c.query('SELECT * FROM missing')), '42P01');
      assert.equal(await sqlState(c.query('SELEC 1')), '42601');
      assert.equal(await sqlState(c.query('SELECT 1/0')), '22012');
      assert.equal(await sqlState(c.query('SELECT $1::int', ['x'])), '22P02');
      assert.equal(await sqlState(c.query('SHOW no_such_setting')), '42704');
      const r = await c.query('SELECT count(*) AS n FROM u');
      assert.equal((r.rows[0] as { n: string }).n, '1');
    });
  } finally {
    await gw.close();
  }
});

void test('keeps a failed transaction failed (25P02) until ROLLBACK, and COMMIT of it rolls back', async () => {
  const gw = await startTestGateway();
  try {
    await withClient(gw, async (c) => {
      await c.query('CREATE TABLE t (id INT PRIMARY KEY)');
      await c.query('BEGIN');
      await c.query('INSERT INTO t VALUES (1)');
      assert.equal(await sqlState(c.query('INSERT INTO t VALUES (1)')), '23505');
      assert.equal(await sqlState(c.query('SELECT 1')), '25P02');
      assert.equal(await sqlState(c.query('SELECT $1::int', [1])), '25P02');
      const end = await c.query('COMMIT');
      assert.equal(end.command, 'ROLLBACK');
      const r = await c.query('SELECT count(*) AS n FROM t');
      assert.equal((r.rows[0] as { n: string }).n, '0');

      await c.query('START TRANSACTION ISOLATION LEVEL SERIALIZABLE');
      await c.query('INSERT INTO t VALUES (2)');
      await c.query('END');
      await c.query('BEGIN ISOLATION LEVEL REPEATABLE READ, READ WRITE');
      await c.query('INSERT INTO t VALUES (3)');
      await c.query('ROLLBACK');
      const after = await c.query('SELECT id FROM t ORDER BY id');
      assert.deepEqual(after.rows, [{ id: 2 }]);
    });
  } finally {
    await gw.close();
  }
});

void test('runs a multi-statement query as one implicit transaction', async () => {
  const gw = await startTestGateway();
  try {
    await withClient(gw, async (c) => {
      await c.query('CREATE TABLE m (id INT PRIMARY KEY)');
      assert.equal(await sqlState(c.query('INSERT INTO m VALUES (1); INSERT INTO m VALUES (1); INSERT INTO m VALUES (2)')), '23505');
      const none = await c.query('SELECT count(*) AS n FROM m');
      assert.equal((none.rows[0] as { n: string }).n, '0');
      const results = (await c.query('INSERT INTO m VALUES (1); SELECT id FROM m; BEGIN; INSERT INTO m VALUES (2); COMMIT')) as unknown as pg.QueryResult[];
      assert.deepEqual(results.map((r) => r.command), ['INSERT', 'SELECT', 'BEGIN', 'INSERT', 'COMMIT']);
      const both = await c.query('SELECT count(*) AS n FROM m');
      assert.equal((both.rows[0] as { n: string }).n, '2');
    });
  } finally {
    await gw.close();
  }
});

void test('answers SET, SHOW, current_setting and version as PostgreSQL 15 does', async () => {
  const gw = await startTestGateway();
  try {
    await withClient(gw, async (c) => {
      await c.query(`SET application_name = 'gw-test'`);
      await c.query('SET extra_float_digits = 3');
      await c.query(`SET search_path TO public`);
      await c.query('SET SESSION CHARACTERISTICS AS TRANSACTION ISOLATION LEVEL SERIALIZABLE');
      await c.query('SET session_replication_role = replica');
      await c.query(`SET TIME ZONE 'UTC'`);
      const s = await c.query('SHOW application_name');
      assert.deepEqual(s.rows, [{ application_name: 'gw-test' }]);
      const ds = await c.query('SHOW DateStyle');
      assert.deepEqual(ds.rows, [{ DateStyle: 'ISO, MDY' }]);
      const cs = await c.query(`SELECT current_setting('server_version_num') AS v`);
      assert.deepEqual(cs.rows, [{ v: '150000' }]);
      const v = await c.query('SELECT version() AS v');
      assert.match((v.rows[0] as { v: string }).v, /^PostgreSQL 15/);
      assert.equal(await sqlState(c.query(`SET client_encoding = 'LATIN1'`)), '0A000');
      assert.equal(await sqlState(c.query('SET no_such_thing = 1')), '42704');
      // A value PostgreSQL does not know is 22023; one it knows and the gateway does not write, 0A000.
      assert.equal(await sqlState(c.query(`SET DateStyle = 'nonsense'`)), '22023');
      assert.equal(await sqlState(c.query(`SET DateStyle = 'SQL, DMY'`)), '0A000');
      // Dates of numbers are read month first: another order is refused, not taken and ignored.
      assert.equal(await sqlState(c.query(`SET DateStyle = 'ISO, DMY'`)), '0A000');
      await c.query(`SET DateStyle = 'iso, us'`);
      assert.deepEqual((await c.query('SHOW DateStyle')).rows, [{ DateStyle: 'ISO, MDY' }]);
      // TimeZone as PostgreSQL checks it (test/sql/time-zone-sessions.slt has the zones at work).
      await c.query(`SET TIME ZONE 'etc/utc'`);
      assert.deepEqual((await c.query('SHOW TimeZone')).rows, [{ TimeZone: 'Etc/UTC' }]);
      await c.query(`SET TIME ZONE 'europe/paris'`);
      assert.deepEqual((await c.query('SHOW TimeZone')).rows, [{ TimeZone: 'Europe/Paris' }]);
      assert.equal(await sqlState(c.query(`SET TIME ZONE 'Mars/Olympus_Mons'`)), '22023');
      await c.query('SET TIME ZONE LOCAL');
      assert.deepEqual((await c.query('SHOW TimeZone')).rows, [{ TimeZone: 'UTC' }]);
      // timestamptz: the offset given moves the instant; the driver gets type 1184 and a Date.
      await c.query('CREATE TABLE tzs (k int PRIMARY KEY, t timestamptz)');
      await c.query(`INSERT INTO tzs VALUES (1, '2020-01-01 00:00:00-03'), (2, $1)`, [new Date(Date.UTC(2021, 5, 1, 12, 0, 0))]);
      const tz = await c.query('SELECT t FROM tzs ORDER BY k');
      assert.equal(tz.fields[0]?.dataTypeID, 1184);
      assert.deepEqual(tz.rows.map((r: { t: Date }) => r.t.toISOString()), ['2020-01-01T03:00:00.000Z', '2021-06-01T12:00:00.000Z']);
      // uuid: a parameter in any input form, the canonical text back, type 2950.
      await c.query('CREATE TABLE uids (id uuid PRIMARY KEY, n int)');
      await c.query('INSERT INTO uids VALUES ($1, 1)', ['{A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11}']);
      const u = await c.query('SELECT id FROM uids WHERE id = $1', ['a0eebc999c0b4ef8bb6d6bb9bd380a11']);
      assert.equal(u.fields[0]?.dataTypeID, 2950);
      assert.deepEqual(u.rows, [{ id: 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11' }]);
    });
  } finally {
    await gw.close();
  }
});

void test('refuses a wrong password with 28P01 and an unknown user the same way', async () => {
  const gw = await startTestGateway();
  try {
    for (const [user, password] of [[USER, 'wrong'], ['nobody', PASSWORD]] as const) {
      const c = new pg.Client({ host: '127.0.0.1', port: gw.port, user, password, database: DATABASE });
      assert.equal(await sqlState(c.connect()), '28P01');
    }
    await withClient(gw, async (c) => {
      const r = await c.query('SELECT 1 AS one');
      assert.deepEqual(r.rows, [{ one: 1 }]);
    });
  } finally {
    await gw.close();
  }
});

void test('refuses connections beyond the limit with 53300 and accepts them again once one closes', async () => {
  const gw = await startTestGateway({ maxConnections: 2 });
  try {
    const open = [0, 1].map(() => new pg.Client({ host: '127.0.0.1', port: gw.port, user: USER, password: PASSWORD, database: DATABASE }));
    for (const c of open) await c.connect();
    const extra = new pg.Client({ host: '127.0.0.1', port: gw.port, user: USER, password: PASSWORD, database: DATABASE });
    assert.equal(await sqlState(extra.connect()), '53300');
    await (open[0] as pg.Client).end();
    // The slot frees when the gateway sees the close; retry until then, bounded by attempts, not time.
    let state = '53300';
    for (let i = 0; i < 200 && state === '53300'; i++) {
      const again = new pg.Client({ host: '127.0.0.1', port: gw.port, user: USER, password: PASSWORD, database: DATABASE });
      state = await sqlState(again.connect());
      if (state === 'no error') await again.end();
    }
    assert.equal(state, 'no error');
    await (open[1] as pg.Client).end();
  } finally {
    await gw.close();
  }
});

void test('refuses an unknown database with 3D000', async () => {
  const gw = await startTestGateway();
  try {
    const c = new pg.Client({ host: '127.0.0.1', port: gw.port, user: USER, password: PASSWORD, database: 'nope' });
    assert.equal(await sqlState(c.connect()), '3D000');
  } finally {
    await gw.close();
  }
});
