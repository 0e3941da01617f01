import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Engine, type ExecResult } from './engine.ts';
import { formatText } from './types.ts';

const engine = await Engine.create();

function rows(r: ExecResult): (string | null)[][] {
  assert.ok(r.ok, r.ok ? '' : `${r.error.code} ${r.error.message}`);
  return r.rows.map((row) => row.map((v, i) => (v === null ? null : formatText(v, r.columns[i]?.type ?? 'text'))));
}

function failure(r: ExecResult): { code: string; message: string } {
  assert.ok(!r.ok, 'expected an error');
  return { code: r.error.code, message: r.error.message };
}

function run(s: ReturnType<Engine['session']>, sql: string): ExecResult {
  const r = s.execute(sql);
  assert.ok(r.ok, r.ok ? '' : `${sql}: ${r.error.code} ${r.error.message}`);
  return r;
}

void test('two sessions each create the same temporary table and see only their own rows', () => {
  const a = engine.session();
  const b = engine.session();
  run(a, 'CREATE TEMP TABLE tt1 (id int PRIMARY KEY, v text)');
  run(b, 'CREATE TEMPORARY TABLE tt1 (id int PRIMARY KEY, v text)');
  run(a, "INSERT INTO tt1 VALUES (1, 'a')");
  run(b, "INSERT INTO tt1 VALUES (2, 'b'), (3, 'b')");
  assert.deepEqual(rows(a.execute('SELECT * FROM tt1 ORDER BY id')), [['1', 'a']]);
  assert.deepEqual(rows(b.execute('SELECT * FROM tt1 ORDER BY id')), [['2', 'b'], ['3', 'b']]);
  assert.deepEqual(rows(a.execute('SELECT v FROM pg_temp.tt1')), [['a']]);
  // A third session has none.
  const c = engine.session();
  assert.equal(failure(c.execute('SELECT * FROM tt1')).code, '42P01');
  a.close();
  b.close();
  c.close();
});

void test('a temporary table shadows a permanent one for its session only', () => {
  const a = engine.session();
  const b = engine.session();
  run(a, 'CREATE TABLE tt2 (x int)');
  run(a, 'INSERT INTO tt2 VALUES (10)');
  run(a, 'CREATE TEMP TABLE tt2 (x int)');
  run(a, 'INSERT INTO tt2 VALUES (20)');
  assert.deepEqual(rows(a.execute('SELECT x FROM tt2')), [['20']]);
  assert.deepEqual(rows(a.execute('SELECT x FROM public.tt2')), [['10']]);
  assert.deepEqual(rows(b.execute('SELECT x FROM tt2')), [['10']]);
  // A CTE of the same name is the CTE.
  assert.deepEqual(rows(a.execute('WITH tt2 AS (SELECT 5 AS x) SELECT x FROM tt2')), [['5']]);
  // DROP TABLE drops the temporary one first, then the permanent one.
  run(a, 'DROP TABLE tt2');
  assert.deepEqual(rows(a.execute('SELECT x FROM tt2')), [['10']]);
  run(a, 'DROP TABLE tt2');
  assert.equal(failure(b.execute('SELECT x FROM tt2')).code, '42P01');
  a.close();
  b.close();
});

void test('a session that ends drops its temporary tables, so a new one can create them again', () => {
  const a = engine.session();
  run(a, 'CREATE TEMP TABLE tt3 (id serial PRIMARY KEY, v text)');
  run(a, "INSERT INTO tt3 (v) VALUES ('x')");
  run(a, 'CREATE INDEX tt3_v ON tt3 (v)');
  a.close();
  const b = engine.session();
  run(b, 'CREATE TEMP TABLE tt3 (id serial PRIMARY KEY, v text)');
  run(b, 'CREATE INDEX tt3_v ON tt3 (v)');
  assert.deepEqual(rows(b.execute('SELECT count(*) FROM tt3')), [['0']]);
  b.close();
  assert.equal(engine.catalog.list().filter((t) => t.name.includes('tt3')).length, 0);
});

void test('ON COMMIT DROP and ON COMMIT DELETE ROWS end with the transaction', () => {
  const a = engine.session();
  run(a, 'BEGIN');
  run(a, 'CREATE TEMP TABLE tt4 (x int) ON COMMIT DROP');
  run(a, 'INSERT INTO tt4 VALUES (1)');
  assert.deepEqual(rows(a.execute('SELECT x FROM tt4')), [['1']]);
  run(a, 'COMMIT');
  assert.equal(failure(a.execute('SELECT x FROM tt4')).code, '42P01');
  run(a, 'CREATE TEMP TABLE tt5 (x int) ON COMMIT DELETE ROWS');
  run(a, 'BEGIN');
  run(a, 'INSERT INTO tt5 VALUES (1), (2)');
  assert.deepEqual(rows(a.execute('SELECT count(*) FROM tt5')), [['2']]);
  run(a, 'COMMIT');
  assert.deepEqual(rows(a.execute('SELECT count(*) FROM tt5')), [['0']]);
  // Outside a transaction block each statement is its transaction.
  run(a, 'INSERT INTO tt5 VALUES (3)');
  assert.deepEqual(rows(a.execute('SELECT count(*) FROM tt5')), [['0']]);
  a.close();
});

void test('errors name temporary tables as the user wrote them', () => {
  const a = engine.session();
  run(a, 'CREATE TEMP TABLE tt6 (id int PRIMARY KEY)');
  run(a, 'INSERT INTO tt6 VALUES (1)');
  assert.deepEqual(failure(a.execute('INSERT INTO tt6 VALUES (1)')), { code: '23505', message: 'duplicate key value violates unique constraint "tt6_pkey"' });
  assert.deepEqual(failure(a.execute('CREATE TEMP TABLE tt6 (b int)')), { code: '42P07', message: 'relation "tt6" already exists' });
  assert.deepEqual(failure(a.execute('SELECT nope FROM tt6')), { code: '42703', message: 'column "nope" does not exist' });
  assert.equal(failure(a.execute('SELECT * FROM pg_temp.tt_missing')).message, 'relation "tt_missing" does not exist');
  // Another session's internal name cannot be spelled.
  const b = engine.session();
  const internal = engine.catalog.list().find((t) => t.name.endsWith('\u0001tt6'))!.name;
  assert.equal(failure(b.execute(`SELECT * FROM "${internal}"`)).code, '42P01');
  a.close();
  b.close();
});

void test('foreign keys between temporary and permanent tables are refused as in PostgreSQL', () => {
  const a = engine.session();
  run(a, 'CREATE TEMP TABLE tt7 (id int PRIMARY KEY)');
  run(a, 'CREATE TABLE tp7 (id int PRIMARY KEY)');
  assert.deepEqual(failure(a.execute('CREATE TABLE tp8 (r int REFERENCES tt7)')), { code: '42P16', message: 'constraints on permanent tables may reference only permanent tables' });
  assert.deepEqual(failure(a.execute('CREATE TEMP TABLE tt8 (r int REFERENCES tp7)')), { code: '42P16', message: 'constraints on temporary tables may reference only temporary tables' });
  run(a, 'CREATE TEMP TABLE tt9 (r int REFERENCES tt7)');
  assert.equal(failure(a.execute('INSERT INTO tt9 VALUES (1)')).code, '23503');
  assert.equal(failure(a.execute('CREATE VIEW vt7 AS SELECT * FROM tt7')).code, '0A000');
  run(a, 'DROP TABLE tp7');
  a.close();
});

void test('prepared statements read the session\'s temporary table', () => {
  const a = engine.session();
  const b = engine.session();
  run(a, 'CREATE TEMP TABLE tt10 (x int); INSERT INTO tt10 VALUES (1)');
  run(b, 'CREATE TEMP TABLE tt10 (x int); INSERT INTO tt10 VALUES (2)');
  assert.deepEqual(rows(a.execute('SELECT x FROM tt10')), [['1']]);
  assert.deepEqual(rows(b.execute('SELECT x FROM tt10')), [['2']]);
  const p = b.prepare('q', 'SELECT x FROM tt10');
  assert.ok(p.ok);
  assert.deepEqual(rows(b.executePrepared('q')), [['2']]);
  run(b, 'INSERT INTO tt10 VALUES (3)');
  assert.deepEqual(rows(b.executePrepared('q')), [['2'], ['3']]);
  a.close();
  b.close();
});

void test('ALTER TABLE, CREATE INDEX, RENAME and TRUNCATE act on the temporary table', () => {
  const a = engine.session();
  const b = engine.session();
  run(a, 'CREATE TEMP TABLE tt11 (x int)');
  run(b, 'CREATE TEMP TABLE tt11 (x int)');
  run(a, 'ALTER TABLE tt11 ADD COLUMN y text');
  run(a, "INSERT INTO tt11 VALUES (1, 'one')");
  run(a, 'CREATE INDEX tt11_y ON tt11 (y)');
  run(b, 'CREATE INDEX tt11_y ON tt11 (x)');
  run(a, 'ALTER TABLE tt11 RENAME TO tt12');
  assert.deepEqual(rows(a.execute('SELECT y FROM tt12')), [['one']]);
  assert.equal(failure(a.execute('SELECT * FROM tt11')).code, '42P01');
  run(b, 'INSERT INTO tt11 VALUES (2)');
  run(a, 'TRUNCATE tt12');
  assert.deepEqual(rows(a.execute('SELECT count(*) FROM tt12')), [['0']]);
  assert.deepEqual(rows(b.execute('SELECT x FROM tt11')), [['2']]);
  run(b, 'DROP INDEX tt11_y');
  a.close();
  b.close();
  assert.equal(engine.catalog.list().filter((t) => t.name.includes('tt1')).length, 0);
});

void test('a temporary table may reference itself', () => {
  const a = engine.session();
  run(a, 'CREATE TEMP TABLE tt13 (id int PRIMARY KEY, parent int REFERENCES tt13)');
  run(a, 'INSERT INTO tt13 VALUES (1, NULL), (2, 1)');
  assert.equal(failure(a.execute('INSERT INTO tt13 VALUES (3, 9)')).code, '23503');
  a.close();
});

void test('COMMENT ON and DROP name the temporary table, also as pg_temp.name', () => {
  const a = engine.session();
  run(a, 'CREATE TABLE tt14 (x int)');
  run(a, 'CREATE TEMP TABLE tt14 (x int)');
  run(a, "COMMENT ON TABLE tt14 IS 'temporary'");
  run(a, "COMMENT ON COLUMN pg_temp.tt14.x IS 'its x'");
  const temp = engine.catalog.list().find((t) => t.name.endsWith('\u0001tt14'))!;
  assert.equal(temp.comment, 'temporary');
  assert.equal(engine.catalog.get('tt14')?.comment, undefined);
  run(a, 'DROP TABLE pg_temp.tt14');
  assert.equal(engine.catalog.list().filter((t) => t.name.endsWith('tt14')).length, 1);
  run(a, 'DROP TABLE tt14');
  a.close();
});

void test('CREATE TABLE pg_temp.name makes a temporary table', () => {
  const a = engine.session();
  const b = engine.session();
  run(a, 'CREATE TABLE pg_temp.tt15 (x int)');
  run(a, 'INSERT INTO tt15 VALUES (1)');
  assert.equal(failure(b.execute('SELECT * FROM tt15')).code, '42P01');
  a.close();
  b.close();
});

void test('another session\'s temporary table cannot be named with Unicode escapes either', () => {
  const a = engine.session();
  const b = engine.session();
  run(a, 'CREATE TEMP TABLE tt16 (x int)');
  const internal = engine.catalog.list().find((t) => t.name.endsWith('\u0001tt16'))!.name;
  const escaped = [...internal].map((ch) => `\\${ch.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');
  assert.equal(failure(b.execute(`SELECT * FROM U&"${escaped}"`)).code, '42P01');
  assert.equal(failure(b.execute(`DROP TABLE U&"${escaped}"`)).code, '42P01');
  assert.deepEqual(rows(a.execute(`SELECT count(*) FROM U&"${escaped}"`)), [['0']]);
  a.close();
  b.close();
});

void test('columns qualified with a temporary table\'s name resolve, as with a permanent table', () => {
  const a = engine.session();
  run(a, 'CREATE TEMP TABLE tt11 (id int PRIMARY KEY, v text)');
  run(a, 'CREATE TABLE tp11 (id int PRIMARY KEY, w text)');
  run(a, "INSERT INTO tt11 VALUES (1, 'a'), (2, 'b'); INSERT INTO tp11 VALUES (1, 'x')");
  assert.deepEqual(rows(a.execute('SELECT tt11.id, tt11.v FROM tt11 ORDER BY tt11.id')), [['1', 'a'], ['2', 'b']]);
  assert.deepEqual(rows(a.execute('SELECT tt11.v, tp11.w FROM tt11 JOIN tp11 ON tp11.id = tt11.id')), [['a', 'x']]);
  assert.deepEqual(rows(a.execute('SELECT t.v FROM tt11 t WHERE t.id = 2')), [['b']]);
  run(a, "UPDATE tt11 SET v = tt11.v || '!' WHERE tt11.id = 1");
  run(a, 'DELETE FROM tt11 USING tp11 WHERE tt11.id = tp11.id + 1');
  assert.deepEqual(rows(a.execute('SELECT tt11 FROM tt11')), [['(1,a!)']]);
  run(a, "INSERT INTO tt11 VALUES (1, 'c') ON CONFLICT (id) DO UPDATE SET v = tt11.v || excluded.v");
  assert.deepEqual(rows(a.execute('SELECT v FROM pg_temp.tt11 WHERE pg_temp.tt11.id = 1')), [['a!c']]);
  assert.equal(failure(a.execute('SELECT tt11.nope FROM tt11')).message, 'column tt11.nope does not exist');
  run(a, 'DROP TABLE tp11');
  a.close();
});
