import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Engine, runStatement } from './engine.ts';
import { ReadRecorder, type ExecContext } from './exec-context.ts';
import { lowerStatement } from './lower-statement.ts';
import { parseSync } from 'libpg-query';
import { evalPredicate } from './eval.ts';
import { exprFromJson, exprToJson } from './expr.ts';
import { encodeKey } from './key-encoding.ts';
import { SqlTimestamp } from './datetime.ts';
import { WriteBuffer } from './write-buffer.ts';
import { OverlaySource } from './overlay-source.ts';
import { computeUpdatedRow } from './dml.ts';
import { makeEnv } from './eval.ts';
import type { Node } from 'libpg-query';
import type { SqlValue } from './types.ts';

const engine = await Engine.create();
const s = engine.session();
s.execute('CREATE TABLE acct (w int, id int, bal numeric(10,2), tag text, PRIMARY KEY (w, id))');
s.execute("INSERT INTO acct VALUES (1, 1, 10, 'a'), (1, 2, 20, 'b'), (1, 3, 30, 'a'), (2, 1, 40, 'a')");
const acct = engine.catalog.require('acct');

function run(sql: string, params: SqlValue[] = []): { rec: ReadRecorder; rows: SqlValue[][] } {
  const node = parseSync(sql).stmts?.[0]?.stmt as Node;
  const l = lowerStatement(engine.catalog, node);
  const rec = new ReadRecorder();
  const ctx: ExecContext = {
    source: engine.store, writes: new WriteBuffer(), recorder: rec, now: new SqlTimestamp(0n),
    nextRowId: () => 1, sequences: undefined,
  };
  const r = runStatement(l, params, ctx);
  assert.ok(r.ok);
  return { rec, rows: r.rows };
}

void test('records a point read of an absent key (implicit point read)', () => {
  const { rec, rows } = run('SELECT bal FROM acct WHERE w = $1 AND id = $2', [1, 9]);
  assert.equal(rows.length, 0);
  assert.deepEqual(rec.reads, [{ tableId: acct.id, key: encodeKey([1, 9], ['int4', 'int4']), version: null }]);
});

void test('partitions scanned rows into the read set and the predicate', () => {
  const { rec, rows } = run("SELECT id FROM acct WHERE w = 1 AND tag = 'a'");
  assert.equal(rows.length, 2);
  assert.equal(rec.scanned.length, 3);
  assert.equal(rec.reads.length, 2);
  assert.equal(rec.predicates.length, 1);
  const pred = rec.predicates[0]?.predicate ?? null;
  // Every scanned row is either in the read set or fails the stored predicate.
  for (const sc of rec.scanned) {
    const row = engine.store.get(acct, sc.key)?.row ?? [];
    const inReads = rec.reads.some((r) => r.key === sc.key);
    assert.equal(inReads, evalPredicate(pred, row));
  }
});

void test('stores predicates with bound parameters that survive serialisation', () => {
  const { rec } = run('SELECT id FROM acct WHERE w = $1 AND bal > $2 AND tag IN ($3, $4)', [1, '15', 'a', 'z']);
  const pred = rec.predicates[0]?.predicate ?? null;
  assert.ok(pred !== null);
  const revived = exprFromJson(JSON.parse(JSON.stringify(exprToJson(pred))));
  const newRow: SqlValue[] = [1, 99, null, 'a'];
  newRow[2] = engine.store.get(acct, encodeKey([1, 3], ['int4', 'int4']))?.row[2] ?? null;
  assert.equal(evalPredicate(revived, newRow), true);
  assert.equal(evalPredicate(revived, [1, 99, newRow[2] ?? null, 'b']), false);
  assert.equal(evalPredicate(revived, [1, 99, engine.store.get(acct, encodeKey([1, 1], ['int4', 'int4']))?.row[2] ?? null, 'a']), false);
  // `w = $1` became the key range and is left out of the filter: the range excludes other warehouses.
  const { lo, hi } = rec.predicates[0]!;
  const w2 = encodeKey([2, 99], ['int4', 'int4']);
  assert.ok(hi !== null && lo <= encodeKey([1, 99], ['int4', 'int4']) && w2 >= hi);
  assert.equal(evalPredicate(revived, [2, 99, newRow[2] ?? null, 'a']), true);
});

void test('a range read records its range and only the residual filter', () => {
  const { rec } = run('SELECT id FROM acct WHERE w = $1 AND id >= $2 AND id < $3', [1, 2, 9]);
  const p = rec.predicates[0]!;
  assert.equal(p.predicate, null);
  assert.equal(p.lo, encodeKey([1, 2], ['int4', 'int4']));
  assert.equal(p.hi, encodeKey([1, 9], ['int4', 'int4']));
});

void test('shows buffered writes through the overlay without recording them', () => {
  const buf = new WriteBuffer();
  buf.put(acct, encodeKey([1, 4], ['int4', 'int4']), [1, 4, null, 'a']);
  buf.delete(acct, encodeKey([1, 1], ['int4', 'int4']));
  const node = parseSync("SELECT id FROM acct WHERE w = 1 AND tag = 'a' ORDER BY id").stmts?.[0]?.stmt as Node;
  const rec = new ReadRecorder();
  const r = runStatement(lowerStatement(engine.catalog, node), [], {
    source: new OverlaySource(engine.store, [buf]), writes: null, recorder: rec, now: new SqlTimestamp(0n),
    nextRowId: () => 1, sequences: undefined,
  });
  assert.ok(r.ok);
  assert.deepEqual(r.rows, [[3], [4]]);
  assert.equal(rec.reads.length, 1);
});

void test('computes an UPDATE\'s new rows from reconnaissance-read rows with the shared evaluator', () => {
  const node = parseSync('UPDATE acct SET bal = bal + $1, tag = upper(tag) WHERE w = 1').stmts?.[0]?.stmt as Node;
  const l = lowerStatement(engine.catalog, node);
  assert.ok(l.stmt.k === 'dml' && l.stmt.plan.k === 'update');
  const plan = l.stmt.plan;
  assert.equal(plan.table.name, 'acct');
  const old = engine.store.get(acct, encodeKey([1, 2], ['int4', 'int4']))?.row ?? [];
  const nw = computeUpdatedRow(plan.set, old, makeEnv([5], null));
  assert.equal(String(nw[2]), '25.00');
  assert.equal(nw[3], 'B');
});

void test('a scan stopped by LIMIT records only the part of its range it read', () => {
  const { rec, rows } = run('SELECT id FROM acct WHERE w = 1 ORDER BY id DESC LIMIT 1');
  assert.deepEqual(rows, [[3]]);
  assert.equal(rec.scanned.length, 1);
  const p = rec.predicates[0];
  assert.ok(p !== undefined);
  const key3 = encodeKey([1, 3], ['int4', 'int4']);
  const key2 = encodeKey([1, 2], ['int4', 'int4']);
  assert.ok(p.lo <= key3 && (p.hi === null || key3 < p.hi));
  assert.ok(key2 < p.lo, 'row 2 was not read, so the predicate must not cover it');
});

void test('an INSERT records its key probe and unique-index probes', () => {
  s.execute('CREATE TABLE uq2 (id int PRIMARY KEY, email text UNIQUE)');
  const { rec } = run("INSERT INTO uq2 VALUES (1, 'a@x')");
  const t = engine.catalog.require('uq2');
  assert.deepEqual(rec.reads, [{ tableId: t.id, key: encodeKey([1], ['int4']), version: null }]);
  assert.equal(rec.predicates.length, 1);
  assert.equal(evalPredicate(rec.predicates[0]?.predicate ?? null, [2, 'a@x']), true);
  assert.equal(evalPredicate(rec.predicates[0]?.predicate ?? null, [2, 'b@x']), false);
});

void test("current_user, session_user and current_database() answer the session's identity; only where one is given", () => {
  const alice = engine.session({ user: 'alice', database: 'books' });
  const r = alice.execute("SELECT current_user, session_user, current_database(), count(*) FROM acct WHERE tag = 'a'");
  assert.ok(r.ok);
  assert.deepEqual(r.rows, [['alice', 'alice', 'books', 3]]);
  // Statements that ask are marked to run at the client; replicas (no identity in their context) refuse them.
  const lower = (sql: string): ReturnType<typeof lowerStatement> => lowerStatement(engine.catalog, parseSync(sql).stmts?.[0]?.stmt as Node);
  for (const sql of ['SELECT current_user FROM acct', 'SELECT id FROM acct WHERE tag = current_database()', "UPDATE acct SET tag = session_user WHERE tag = 'a'", 'SELECT gen_random_uuid() FROM acct']) {
    assert.equal(lower(sql).atClient, true, sql);
  }
  for (const sql of ["SELECT id, now(), version(), current_schema() FROM acct WHERE tag = 'a'", 'UPDATE acct SET bal = bal + 1']) {
    assert.equal(lower(sql).atClient, false, sql);
  }
  const ctx: ExecContext = { source: engine.store, writes: null, recorder: null, now: new SqlTimestamp(0n), nextRowId: () => 1, sequences: undefined };
  assert.throws(() => runStatement(lower('SELECT current_user FROM acct'), [], ctx), { code: '0A000' });
});
