import { describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { Engine, type ExecResult } from './engine.ts';
import { lowerStatement } from './lower-statement.ts';
import type { SessionIdentity } from './exec-context.ts';

const engine = await Engine.create();
const admin = engine.session({ user: 'admin', database: 'pesto', bootstrap: ['admin'] });
for (const sql of [
  'CREATE TABLE t (id int PRIMARY KEY, v text, n int)',
  'CREATE TABLE s (id int PRIMARY KEY, v text)',
  "INSERT INTO t VALUES (1, 'a', 1), (2, 'b', 2)",
  "INSERT INTO s VALUES (1, 'x'), (3, 'y')",
]) assert.ok(admin.execute(sql).ok, sql);

const UPSERT = 'MERGE INTO t USING s ON t.id = s.id WHEN MATCHED THEN UPDATE SET v = s.v WHEN NOT MATCHED THEN INSERT (id, v) VALUES (s.id, s.v)';

function ok(r: ExecResult): Extract<ExecResult, { ok: true }> {
  if (!r.ok) assert.fail(`${r.error.code} ${r.error.message}`);
  return r;
}

function code(r: ExecResult): string {
  return r.ok ? 'ok' : r.error.code;
}

void describe('MERGE', () => {
  void it('counts the rows inserted, updated and deleted in its tag, and returns no rows', () => {
    admin.execute('BEGIN');
    const r = ok(admin.execute(UPSERT));
    assert.equal(r.tag, 'MERGE 2');
    assert.equal(r.command, 'MERGE');
    assert.deepEqual(r.columns, []);
    const none = ok(admin.execute('MERGE INTO t USING s ON t.id = s.id WHEN MATCHED THEN DO NOTHING WHEN NOT MATCHED AND s.id > 10 THEN INSERT (id) VALUES (s.id)'));
    assert.equal(none.tag, 'MERGE 0');
    const del = ok(admin.execute('MERGE INTO t USING (VALUES (1), (2), (9)) x(id) ON t.id = x.id WHEN MATCHED THEN DELETE WHEN NOT MATCHED THEN INSERT (id) VALUES (x.id)'));
    assert.equal(del.tag, 'MERGE 3');
    assert.deepEqual(ok(admin.execute('SELECT id, v FROM t ORDER BY id')).rows, [[3, 'y'], [9, null]]);
    admin.execute('ROLLBACK');
  });

  void it('refuses PostgreSQL 17\'s WHEN NOT MATCHED BY TARGET / BY SOURCE with PostgreSQL 15\'s syntax error at the BY', () => {
    for (const [sql, token] of [
      ['MERGE INTO t USING s ON t.id = s.id WHEN NOT MATCHED BY TARGET THEN DO NOTHING', 'BY'],
      ["SELECT 'é'; MERGE INTO t USING s ON t.id = s.id WHEN NOT MATCHED by SOURCE THEN DELETE", 'by'],
    ] as const) {
      const r = admin.execute(sql);
      assert.ok(!r.ok);
      assert.deepEqual([r.error.code, r.error.message, r.error.position], ['42601', `syntax error at or near "${token}"`, sql.indexOf(token, sql.indexOf('MATCHED')) + 1]);
    }
    assert.deepEqual(ok(admin.execute('SELECT count(*) FROM t')).rows, [[2]]);
  });

  void it('binds parameters in conditions, SET and VALUES, with their types taken from the target', () => {
    const l = lowerStatement(engine.catalog, engine.parse(
      'MERGE INTO t USING (VALUES ($1::int)) x(id) ON t.id = x.id WHEN MATCHED AND t.n < $2 THEN UPDATE SET n = $3 WHEN NOT MATCHED THEN INSERT VALUES (x.id, $4, $3)').stmts[0]!);
    assert.deepEqual(l.paramTypes, ['int4', 'int4', 'int4', 'text']);
    admin.execute('BEGIN');
    assert.equal(ok(admin.execute('MERGE INTO t USING (VALUES ($1::int)) x(id) ON t.id = x.id WHEN MATCHED AND t.n < $2 THEN UPDATE SET n = $3 WHEN NOT MATCHED THEN INSERT VALUES (x.id, $4, $3)', [2, 5, 7, 'p'])).tag, 'MERGE 1');
    assert.equal(ok(admin.execute('MERGE INTO t USING (VALUES ($1::int)) x(id) ON t.id = x.id WHEN MATCHED AND t.n < $2 THEN UPDATE SET n = $3 WHEN NOT MATCHED THEN INSERT VALUES (x.id, $4, $3)', [4, 5, 8, 'q'])).tag, 'MERGE 1');
    assert.deepEqual(ok(admin.execute('SELECT id, v, n FROM t ORDER BY id')).rows, [[1, 'a', 1], [2, 'b', 7], [4, 'q', 8]]);
    admin.execute('ROLLBACK');
  });

  void it('plans a LEFT JOIN of the target only when a WHEN NOT MATCHED clause needs the unmatched source rows', () => {
    const plan = (sql: string): string => {
      const l = lowerStatement(engine.catalog, engine.parse(sql).stmts[0]!);
      assert.ok(l.stmt.k === 'dml' && l.stmt.plan.k === 'merge');
      assert.equal(l.stmt.plan.from.targetAt, 2);
      return JSON.stringify(l.stmt.plan.source);
    };
    assert.match(plan(UPSERT), /"kind":"left"/);
    assert.doesNotMatch(plan('MERGE INTO t USING s ON t.id = s.id WHEN MATCHED THEN DELETE'), /"kind":"left"/);
    const explain = ok(admin.execute(`EXPLAIN ${UPSERT}`)).rows.map((r) => r[0]);
    assert.equal(explain[0], 'Merge on t');
  });

  void it('conflicts with a concurrent writer of a row it read, serializably (40001 at COMMIT)', () => {
    const a = engine.session();
    const b = engine.session();
    a.execute('BEGIN');
    b.execute('BEGIN');
    ok(a.execute("MERGE INTO t USING s ON t.id = s.id WHEN MATCHED THEN UPDATE SET n = t.n + 1"));
    ok(b.execute("UPDATE s SET v = 'changed' WHERE id = 1"));
    assert.equal(code(b.execute('COMMIT')), 'ok');
    assert.equal(code(a.execute('COMMIT')), '40001');
    ok(admin.execute("UPDATE s SET v = 'x' WHERE id = 1"));
  });

  void it('checks SELECT on the source and the privileges of its actions on the target, and SELECT on it when it reads its columns', () => {
    for (const sql of ['CREATE ROLE mr', 'GRANT SELECT ON s TO mr', 'GRANT INSERT ON t TO mr']) ok(admin.execute(sql));
    const mr: SessionIdentity = { user: 'mr', database: 'pesto', bootstrap: ['admin'] };
    const u = engine.session(mr);
    const denied = (sql: string): string => {
      const r = u.execute(sql);
      return r.ok ? 'ok' : `${r.error.code} ${r.error.message}`;
    };
    assert.equal(denied('MERGE INTO t USING s ON t.id = s.id WHEN NOT MATCHED THEN INSERT (id) VALUES (s.id + 100)'), '42501 permission denied for table t');
    assert.equal(denied('MERGE INTO t USING s ON false WHEN NOT MATCHED AND false THEN INSERT (id) VALUES (s.id + 100)'), 'ok');
    ok(admin.execute('GRANT SELECT ON t TO mr'));
    assert.equal(denied('MERGE INTO t USING s ON t.id = s.id WHEN MATCHED THEN DO NOTHING'), 'ok');
    assert.equal(denied('MERGE INTO t USING s ON t.id = s.id WHEN MATCHED THEN DELETE'), '42501 permission denied for table t');
    assert.equal(denied("MERGE INTO t USING s ON t.id = s.id WHEN MATCHED THEN UPDATE SET v = 'r'"), '42501 permission denied for table t');
    ok(admin.execute('REVOKE SELECT ON s FROM mr'));
    assert.equal(denied('MERGE INTO t USING s ON t.id = s.id WHEN MATCHED THEN DO NOTHING'), '42501 permission denied for table s');
  });
});
