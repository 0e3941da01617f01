import { describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { Engine } from './engine.ts';
import { rewriteViewDml } from './view-dml.ts';

const engine = await Engine.create();
const s = engine.session();
for (const sql of [
  'CREATE TABLE t (id int PRIMARY KEY, name text, n int)',
  'CREATE VIEW v (k, label, twice) AS SELECT id, t.name, n * 2 FROM t WHERE n > 0',
  'CREATE VIEW g AS SELECT n, count(*) FROM t GROUP BY n',
]) assert.ok(s.execute(sql).ok, sql);

/** The rewritten statement of `sql` as JSON, without parse locations. */
function rewritten(sql: string): unknown {
  const out = rewriteViewDml(engine.catalog, engine.parse(sql).stmts[0]!);
  return out === null ? null : JSON.parse(JSON.stringify(out, (k, v: unknown) => (k === 'location' ? undefined : v)));
}

const col = (...names: string[]): unknown => ({ ColumnRef: { fields: names.map((sval) => ({ String: { sval } })) } });

void describe('writes through views', () => {
  void it('leaves statements on tables alone', () => {
    assert.equal(rewritten('UPDATE t SET n = 1'), null);
    assert.equal(rewritten('SELECT * FROM v'), null);
  });

  void it('maps INSERT columns to the base columns, all of the view\'s when none are listed', () => {
    const r = rewritten("INSERT INTO v (label, k) VALUES ('a', 1)") as { InsertStmt: { relation: { relname: string; alias: unknown }; cols: unknown[] } };
    assert.equal(r.InsertStmt.relation.relname, 't');
    assert.deepEqual(r.InsertStmt.relation.alias, { aliasname: 't' });
    assert.deepEqual(r.InsertStmt.cols, [{ ResTarget: { name: 'name' } }, { ResTarget: { name: 'id' } }]);
    assert.throws(() => rewritten('INSERT INTO v VALUES (1, 2, 3)'), { code: '0A000', message: 'cannot insert into column "twice" of view "v"' });
  });

  void it('replaces view columns by their expressions in SET and WHERE and adds the view\'s WHERE', () => {
    const r = rewritten('UPDATE v AS x SET label = x.label WHERE twice > k') as { UpdateStmt: { targetList: { ResTarget: { name: string; val: unknown } }[]; whereClause: { BoolExpr: { args: unknown[] } } } };
    assert.equal(r.UpdateStmt.targetList[0]!.ResTarget.name, 'name');
    assert.deepEqual(r.UpdateStmt.targetList[0]!.ResTarget.val, col('t', 'name'));
    const [mine, views] = r.UpdateStmt.whereClause.BoolExpr.args as [{ A_Expr: { lexpr: unknown; rexpr: unknown } }, { A_Expr: { lexpr: unknown } }];
    assert.deepEqual(mine.A_Expr.rexpr, col('id'));
    assert.deepEqual((mine.A_Expr.lexpr as { A_Expr: { lexpr: unknown } }).A_Expr.lexpr, col('n'));
    assert.deepEqual(views.A_Expr.lexpr, col('n'));
  });

  void it('refuses views PostgreSQL does not update, with its SQLSTATE, detail and hint', () => {
    assert.throws(() => rewritten('DELETE FROM g'), {
      code: '55000', message: 'cannot delete from view "g"', detail: 'Views containing GROUP BY are not automatically updatable.',
      hint: 'To enable deleting from the view, provide an INSTEAD OF DELETE trigger or an unconditional ON DELETE DO INSTEAD rule.',
    });
  });

  void it('runs through the engine, RETURNING the view\'s columns', () => {
    const r = s.execute("INSERT INTO v (k, label) VALUES (1, 'one') RETURNING *");
    assert.ok(r.ok);
    assert.deepEqual([r.columns.map((c) => c.name), r.rows], [['k', 'label', 'twice'], [[1, 'one', null]]]);
    assert.ok(s.execute('UPDATE t SET n = 3 WHERE id = 1').ok);
    const u = s.execute("UPDATE v SET label = 'uno' RETURNING twice");
    assert.ok(u.ok);
    assert.deepEqual(u.rows, [[6]]);
  });
});
