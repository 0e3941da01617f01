import { describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { Engine } from './engine.ts';
import { lowerStatement } from './lower-statement.ts';
import type { ExecResult } from './engine.ts';

const engine = await Engine.create();
const s = engine.session();
for (const sql of [
  'CREATE TABLE t (id int PRIMARY KEY, v int)',
  'CREATE TABLE s (id int PRIMARY KEY, tid int, amount int)',
  'INSERT INTO t VALUES (1, 0), (2, 0)',
  'INSERT INTO s VALUES (5, 1, 50), (2, 1, 20), (9, 2, 90)',
]) assert.ok(s.execute(sql).ok, sql);

function rows(r: ExecResult): unknown[][] {
  if (!r.ok) assert.fail(r.error.message);
  return r.rows;
}

void describe('UPDATE ... FROM and DELETE ... USING', () => {
  void it('writes a target row joined with several FROM rows once, with the first row the join yields (FROM rows in key order)', () => {
    s.execute('BEGIN');
    const r = s.execute('UPDATE t SET v = s.amount FROM s WHERE s.tid = t.id RETURNING t.id, t.v, s.id');
    assert.ok(r.ok && r.tag === 'UPDATE 2');
    assert.deepEqual(rows(r), [[1, 20, 2], [2, 90, 9]]);
    // A VALUES list yields its rows in the order written.
    assert.deepEqual(rows(s.execute('UPDATE t SET v = x.a FROM (VALUES (1, 12), (1, 11)) x(i, a) WHERE x.i = t.id RETURNING t.v')), [[12]]);
    const d = s.execute('DELETE FROM t USING s WHERE s.tid = t.id RETURNING t.id, s.id');
    assert.ok(d.ok && d.tag === 'DELETE 2');
    assert.deepEqual(rows(d), [[1, 2], [2, 9]]);
    s.execute('ROLLBACK');
  });

  void it('reads the FROM items and then the target, whose row the plan locates', () => {
    const l = lowerStatement(engine.catalog, engine.parse('UPDATE t SET v = s.amount FROM s WHERE s.tid = t.id').stmts[0]!);
    assert.ok(l.stmt.k === 'dml' && l.stmt.plan.k === 'update');
    const from = l.stmt.plan.from;
    assert.ok(from !== null);
    assert.equal(from.targetAt, 3);
    assert.deepEqual(from.columns.map((c) => c.name), ['id', 'tid', 'amount', 'id', 'v']);
    // The target is looked up by its key per FROM row, not scanned whole.
    assert.equal(l.stmt.plan.source.k, 'nljoin');
    // Restricted by its own conjuncts, the target is read first (its rows projected back after the FROM items').
    const pinned = lowerStatement(engine.catalog, engine.parse('UPDATE t SET v = s.amount FROM s WHERE t.id = 1 AND s.tid = t.id').stmts[0]!);
    assert.ok(pinned.stmt.k === 'dml' && pinned.stmt.plan.k === 'update' && pinned.stmt.plan.source.k === 'project');
    const join = pinned.stmt.plan.source.input;
    assert.ok(join.k === 'nljoin' || join.k === 'hashjoin');
    assert.ok(join.left.k === 'scan' && join.left.table.name === 't' && join.left.pinsPk);
    const plain = lowerStatement(engine.catalog, engine.parse('UPDATE t SET v = 1 WHERE id > 0').stmts[0]!);
    assert.ok(plain.stmt.k === 'dml' && plain.stmt.plan.k === 'update' && plain.stmt.plan.from === null);
  });

  void it('writes the same rows with the target read first', () => {
    s.execute('BEGIN');
    const r = s.execute('UPDATE t SET v = s.amount FROM s WHERE t.id = 1 AND s.tid = t.id RETURNING t.id, t.v, s.id');
    assert.deepEqual(rows(r), [[1, 20, 2]]);
    const d = s.execute('DELETE FROM t USING s WHERE t.id >= 2 AND s.tid = t.id AND EXISTS (SELECT 1 FROM s s2 WHERE s2.id = s.id) RETURNING t.id, s.id');
    assert.deepEqual(rows(d), [[2, 9]]);
    s.execute('ROLLBACK');
  });

  void it('takes parameters in FROM, WHERE and SET', () => {
    s.execute('BEGIN');
    const r = s.execute('UPDATE t SET v = s.amount + $2 FROM s WHERE s.tid = t.id AND s.id = $1 RETURNING t.id, t.v', [9, 1]);
    assert.deepEqual(rows(r), [[2, 91]]);
    s.execute('ROLLBACK');
  });
});
