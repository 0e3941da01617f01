/**
 * SQL cursors through the gateway (client/gateway/sql-cursors.ts). The positioning rules are checked
 * against the answers PostgreSQL 15 gives (the psql session in testdata/cursors.sql, whose output and
 * errors testdata/cursors.out and .err are PostgreSQL 15's, byte for byte); psql runs the same script
 * through the gateway over the engine (the cluster runs it in test/gateway/cluster.test.ts). The `pg`
 * driver declares a cursor with parameters (extended protocol) and pages through it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadModule } from 'libpg-query';
import pg from 'pg';
import { classify } from '../../client/gateway/gateway-command.ts';
import { cursorStep, stepsBack, type FetchSpec } from '../../client/gateway/sql-cursors.ts';
import { psqlScript, scriptOutput } from './client-scripts.ts';
import { DATABASE, PASSWORD, USER, startTestGateway } from './gateway-fixture.ts';

function spec(sql: string): FetchSpec {
  const c = classify(sql);
  assert.equal(c.k, 'fetch', sql);
  return (c as { spec: FetchSpec }).spec;
}

void test('FETCH and MOVE forms parse to a direction and a count', async () => {
  await loadModule();
  assert.deepEqual(spec('FETCH c'), { name: 'c', move: false, direction: 'forward', count: 1 });
  assert.deepEqual(spec('fetch next from "My Cursor"'), { name: 'My Cursor', move: false, direction: 'forward', count: 1 });
  assert.deepEqual(spec('FETCH ALL IN c'), { name: 'c', move: false, direction: 'forward', count: Infinity });
  assert.deepEqual(spec('FETCH FORWARD 5 FROM c'), { name: 'c', move: false, direction: 'forward', count: 5 });
  assert.deepEqual(spec('FETCH -2 c'), { name: 'c', move: false, direction: 'backward', count: 2 });
  assert.deepEqual(spec('FETCH 0 c'), { name: 'c', move: false, direction: 'relative', count: 0 });
  assert.deepEqual(spec('FETCH BACKWARD 0 c'), { name: 'c', move: false, direction: 'relative', count: 0 });
  assert.deepEqual(spec('FETCH BACKWARD ALL c'), { name: 'c', move: false, direction: 'backward', count: Infinity });
  assert.deepEqual(spec('FETCH PRIOR c'), { name: 'c', move: false, direction: 'backward', count: 1 });
  assert.deepEqual(spec('FETCH FIRST c'), { name: 'c', move: false, direction: 'absolute', count: 1 });
  assert.deepEqual(spec('FETCH LAST c'), { name: 'c', move: false, direction: 'absolute', count: -1 });
  assert.deepEqual(spec('MOVE RELATIVE -3 IN c'), { name: 'c', move: true, direction: 'relative', count: -3 });
  const d = classify('DECLARE "a for b" BINARY NO SCROLL CURSOR WITH HOLD FOR SELECT * FROM t WHERE x = $1 -- end');
  assert.deepEqual(d, { k: 'declare', spec: { name: 'a for b', query: 'SELECT * FROM t WHERE x = $1 -- end', hold: true, noScroll: true, binary: true } });
});

void test('cursor positions follow PostgreSQL: 0 before the first row, n + 1 after the last', () => {
  // Five rows; rows are 0-based indices, positions 1-based rows.
  assert.deepEqual(cursorStep(5, 0, 'forward', 2), { rows: [0, 1], pos: 2 });
  assert.deepEqual(cursorStep(5, 2, 'backward', 1), { rows: [0], pos: 1 });
  assert.deepEqual(cursorStep(5, 1, 'backward', 1), { rows: [], pos: 0 });
  assert.deepEqual(cursorStep(5, 0, 'absolute', -1), { rows: [4], pos: 5 });
  assert.deepEqual(cursorStep(5, 5, 'relative', 0), { rows: [4], pos: 5 });
  assert.deepEqual(cursorStep(5, 5, 'absolute', 0), { rows: [], pos: 0 });
  assert.deepEqual(cursorStep(5, 0, 'forward', Infinity), { rows: [0, 1, 2, 3, 4], pos: 6 });
  assert.deepEqual(cursorStep(5, 6, 'backward', 1), { rows: [4], pos: 5 });
  assert.deepEqual(cursorStep(5, 5, 'backward', Infinity), { rows: [3, 2, 1, 0], pos: 0 });
  assert.deepEqual(cursorStep(5, 6, 'forward', 10), { rows: [], pos: 6 });
  assert.deepEqual(cursorStep(5, 3, 'absolute', 9), { rows: [], pos: 6 });
  assert.deepEqual(cursorStep(5, 3, 'absolute', -9), { rows: [], pos: 0 });
  assert.deepEqual(cursorStep(5, 3, 'relative', -1), { rows: [1], pos: 2 });
  assert.deepEqual(cursorStep(0, 0, 'forward', 1), { rows: [], pos: 1 });
  // What a NO SCROLL cursor refuses (PostgreSQL 15: "cursor can only scan forward").
  assert.equal(stepsBack(5, 0, 'backward', 1), true);
  assert.equal(stepsBack(5, 0, 'absolute', 1), false); // FETCH FIRST from the start
  assert.equal(stepsBack(5, 1, 'absolute', 1), true);
  assert.equal(stepsBack(5, 1, 'absolute', 3), false);
  assert.equal(stepsBack(5, 0, 'absolute', -1), true);
  assert.equal(stepsBack(5, 1, 'relative', 0), true);
  assert.equal(stepsBack(5, 6, 'relative', 0), false);
  assert.equal(stepsBack(5, 0, 'relative', 0), false);
  assert.equal(stepsBack(5, 3, 'forward', Infinity), false);
});

void test('psql runs DECLARE, FETCH, MOVE and CLOSE (and FETCH_COUNT) through the gateway as against PostgreSQL 15', async () => {
  const gw = await startTestGateway();
  try {
    const r = await psqlScript('cursors', gw.port, USER, PASSWORD);
    assert.equal(r.stdout, scriptOutput('cursors').stdout);
    assert.equal(r.stderr, scriptOutput('cursors').stderr);
  } finally {
    await gw.close();
  }
});

void test('the pg driver declares a cursor with parameters and pages through it; a WITH HOLD cursor outlives its commit', async () => {
  const gw = await startTestGateway();
  const client = new pg.Client({ host: '127.0.0.1', port: gw.port, user: USER, password: PASSWORD, database: DATABASE });
  await client.connect();
  try {
    await client.query('CREATE TABLE k (id int PRIMARY KEY, v text)');
    await client.query("INSERT INTO k SELECT g, 'v' || g FROM generate_series(1, 10) g");
    await client.query('BEGIN');
    await client.query('DECLARE c SCROLL CURSOR FOR SELECT id, v FROM k WHERE id > $1 ORDER BY id', [4]);
    const first = await client.query({ text: 'FETCH 2 FROM c', rowMode: 'array' });
    assert.deepEqual(first.rows, [[5, 'v5'], [6, 'v6']]);
    assert.equal(first.command, 'FETCH');
    assert.deepEqual(first.fields.map((f) => f.name), ['id', 'v']);
    const moved = await client.query('MOVE FORWARD 2 IN c');
    assert.equal(moved.command, 'MOVE');
    assert.equal(moved.rowCount, 2);
    // Extended protocol too: the statement describes the cursor's columns.
    const next = await client.query({ text: 'FETCH NEXT FROM c', values: [], rowMode: 'array' });
    assert.deepEqual(next.rows, [[9, 'v9']]);
    await assert.rejects(client.query('DECLARE c CURSOR FOR SELECT 1'), { code: '42P03' });
    await client.query('ROLLBACK');
    await assert.rejects(client.query('FETCH c'), { code: '34000' });
    await client.query('BEGIN');
    await client.query('DECLARE h CURSOR WITH HOLD FOR SELECT id FROM k WHERE id <= $1 ORDER BY id DESC', [3]);
    await client.query('COMMIT');
    assert.deepEqual((await client.query({ text: 'FETCH ALL FROM h', rowMode: 'array' })).rows, [[3], [2], [1]]);
    await client.query('CLOSE h');
    await assert.rejects(client.query('DECLARE n CURSOR FOR SELECT 1'), { code: '25P01' });
  } finally {
    await client.end();
    await gw.close();
  }
});
