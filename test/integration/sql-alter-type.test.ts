/**
 * ALTER COLUMN TYPE and ADD COLUMN with non-constant defaults on a real cluster: the client rewrites the
 * table into a fresh storage (docs/decisions/0012), converting each row. A concurrent writer of the old
 * storage either commits before the rewrite's copy (its row is converted with the rest) or fails with
 * 40001, never lost; a key column's new type rekeys the rows and its indexes; results equal the engine's.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Engine } from '../../sql/engine.ts';
import { SqlClient } from '../../client/sql/sql-session.ts';
import type { SqlValue } from '../../sql/types.ts';
import { startTestCluster, type TestCluster } from './cluster-harness.ts';
import { commitCode, q, value } from './sql-session-testkit.ts';

const BASE_PORT = 8820;

let tc: TestCluster;
let sql: SqlClient;
let engine: ReturnType<Engine['session']>;

const texts = (rows: readonly (readonly SqlValue[])[]): string[][] => rows.map((r) => r.map((v) => (v === null ? 'NULL' : String(v))));

/** Runs `statements` on the cluster and on the engine; the last one's rows (or error code) from both. */
async function bothWays(statements: readonly string[]): Promise<[unknown, unknown]> {
  const s = sql.session();
  let [c, e]: [unknown, unknown] = [null, null];
  for (const text of statements) {
    const rc = await s.execute(text, []);
    const re = engine.execute(text);
    c = rc.ok ? texts(rc.rows) : rc.error.code;
    e = re.ok ? texts(re.rows) : re.error.code;
  }
  return [c, e];
}

void describe('ALTER COLUMN TYPE and ADD COLUMN defaults over the cluster', () => {
  before(async () => {
    tc = await startTestCluster('sql-alter-type', BASE_PORT);
    sql = new SqlClient(await tc.connect(), await Engine.create());
    engine = (await Engine.create()).session();
  });
  after(async () => {
    await tc?.stop();
  });

  void it('converts every row while a concurrent writer inserts: each committed insert is converted, none lost', async (t) => {
    const s = sql.session();
    await q(s, 'CREATE TABLE conv (k int PRIMARY KEY, v text)');
    await q(s, "INSERT INTO conv SELECT g, (g * 2)::text FROM generate_series(1, 3000) AS g");
    const writer = sql.session();
    let inserted = 0;
    const writes = (async (): Promise<void> => {
      for (let k = 10_001; k <= 10_008; k++) {
        const r = await writer.execute('INSERT INTO conv VALUES ($1, $2)', [k, String(k * 2)]);
        if (r.ok) inserted++;
        else assert.equal(r.error.code, '40001', r.error.message);
      }
    })();
    let altered = '';
    for (let attempt = 0; attempt < 5 && altered !== 'ok'; attempt++) {
      const r = await sql.session().execute('ALTER TABLE conv ALTER COLUMN v TYPE bigint USING v::bigint', []);
      altered = r.ok ? 'ok' : r.error.code;
      if (!r.ok) assert.equal(r.error.code, '40001', r.error.message);
    }
    await writes;
    t.diagnostic(`ALTER COLUMN TYPE: ${altered}, concurrent inserts committed: ${inserted}`);
    assert.equal(altered, 'ok');
    // Every committed row, converted: v is a bigint now (sum, and v * 2 would not be legal on text).
    assert.equal(await value(s, 'SELECT count(*) FROM conv'), 3000 + inserted);
    assert.equal(String(await value(s, 'SELECT sum(v - 2 * k) FROM conv')), '0');
    assert.equal(String(await value(s, 'SELECT v + 1 FROM conv WHERE k = 3000')), '6001');
    const r = await s.execute("INSERT INTO conv VALUES (20000, 'x')", []);
    assert.equal(r.ok ? 'ok' : r.error.code, '22P02');
  });

  void it('an older transaction that writes the old storage after the rewrite committed aborts, or its row is converted', async (t) => {
    const s = sql.session();
    await q(s, 'CREATE TABLE late (k int PRIMARY KEY, v text)');
    await q(s, "INSERT INTO late VALUES (1, '1'), (2, '2')");
    const writer = sql.session();
    await writer.begin();
    assert.equal(await value(writer, 'SELECT count(*) FROM late WHERE k = 1'), 1); // fixes the writer's (older) timestamp and catalog
    await q(sql.session(), 'ALTER TABLE late ALTER v TYPE int USING v::int');
    const w = await writer.execute("INSERT INTO late VALUES (3, '3')", []);
    const code = w.ok ? await commitCode(writer) : w.error.code;
    t.diagnostic(`late writer: ${code}`);
    assert.ok(code === 'committed' || code === '40001', code);
    assert.equal(await value(s, 'SELECT count(*) FROM late'), code === 'committed' ? 3 : 2);
    assert.equal(String(await value(s, 'SELECT sum(v + 0) FROM late')), code === 'committed' ? '6' : '3');
  });

  void it('rekeys a primary key and a unique index whose type changed; duplicates after conversion are 23505', async () => {
    const [c1, e1] = await bothWays([
      'CREATE TABLE rk (k text PRIMARY KEY, u text UNIQUE, n int)',
      'CREATE INDEX rk_n ON rk (n)',
      "INSERT INTO rk VALUES ('10', '1', 5), ('9', '2', 6), ('011', '3', 7)",
      'ALTER TABLE rk ALTER k TYPE int USING k::int, ALTER n TYPE text',
      'SELECT k, u, n FROM rk ORDER BY k',
    ]);
    assert.deepEqual(c1, [['9', '2', '6'], ['10', '1', '5'], ['11', '3', '7']]);
    assert.deepEqual(c1, e1);
    const [c2, e2] = await bothWays(['SELECT k FROM rk WHERE k = 11', "SELECT k FROM rk WHERE n = '6'"]);
    assert.deepEqual(c2, [['9']]);
    assert.deepEqual(c2, e2);
    const [c3, e3] = await bothWays(["INSERT INTO rk VALUES ('12', '01', 8)", 'ALTER TABLE rk ALTER u TYPE int USING u::int']);
    assert.equal(c3, '23505');
    assert.equal(e3, c3);
    const [c4, e4] = await bothWays(["UPDATE rk SET u = '4' WHERE k = 12", 'ALTER TABLE rk ALTER u TYPE int USING u::int', 'SELECT k, u FROM rk WHERE u = 4']);
    assert.deepEqual(c4, [['12', '4']]);
    assert.deepEqual(c4, e4);
  });

  void it('ADD COLUMN DEFAULT now() gives every row the transaction\'s time, gen_random_uuid() a value each', async () => {
    const s = sql.session();
    await q(s, 'CREATE TABLE dflt (k int PRIMARY KEY)');
    await q(s, 'INSERT INTO dflt SELECT g FROM generate_series(1, 50) AS g');
    await s.begin();
    await q(s, 'ALTER TABLE dflt ADD COLUMN at timestamptz NOT NULL DEFAULT now(), ADD COLUMN id uuid DEFAULT gen_random_uuid()');
    assert.equal(await value(s, 'SELECT count(*) FROM dflt WHERE at = now()'), 50);
    const r = await s.commit();
    assert.ok(r.ok);
    assert.equal(await value(s, 'SELECT count(DISTINCT id) FROM dflt'), 50);
    // SERIAL: rows numbered in key order in the DDL's transaction, the counter left after them.
    await q(s, 'ALTER TABLE dflt ADD COLUMN n serial');
    await q(s, 'INSERT INTO dflt (k) VALUES (51)');
    assert.equal(await value(s, 'SELECT count(*) FROM dflt WHERE n = k'), 51);
  });
});
