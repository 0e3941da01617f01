import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { noticeWithDetail, outcomeNotices } from './notices.ts';

import { Engine } from './engine.ts';
import { CatalogVersion } from './replicated-catalog.ts';
import { viewDefinition } from './views.ts';

const engine = await Engine.create();

function after(ddl: readonly string[]): CatalogVersion {
  let v = CatalogVersion.empty;
  for (const sql of ddl) v = v.apply(engine.parse(sql).stmts[0]!).next ?? v;
  return v;
}

/** The view's stored query as text of its target list: (qualifier.)column per target. */
function targets(v: CatalogVersion, name: string): string[] {
  const q = v.catalog.getView(name)?.query as { SelectStmt: { targetList: { ResTarget: { val: { ColumnRef?: { fields: { String: { sval: string } }[] } } } }[] } };
  return q.SelectStmt.targetList.map((t) => (t.ResTarget.val.ColumnRef?.fields ?? []).map((f) => f.String.sval).join('.'));
}

void describe('views: definitions', () => {
  const base = after([
    'CREATE TABLE t (id int PRIMARY KEY, name text, n int)',
    'CREATE TABLE u (id int PRIMARY KEY, t_id int, label varchar(10))',
  ]);

  void it('expands every * when the view is made, so columns added later stay out', () => {
    const v = after(['CREATE TABLE t (id int PRIMARY KEY, name text, n int)', 'CREATE TABLE u (id int PRIMARY KEY, t_id int, label varchar(10))',
      'CREATE VIEW j AS SELECT *, u.t_id AS again FROM t JOIN u USING (id)', 'ALTER TABLE t ADD COLUMN later int']);
    // USING's merged column once, from the left; then the right table's other columns.
    assert.deepEqual(targets(v, 'j'), ['t.id', 't.name', 't.n', 'u.t_id', 'u.label', 'u.t_id']);
    assert.deepEqual(v.catalog.getView('j')?.columns.map((c) => c.name), ['id', 'name', 'n', 't_id', 'label', 'again']);
    const s = engine.session();
    for (const sql of ['CREATE TABLE t (id int PRIMARY KEY, name text, n int)', "INSERT INTO t VALUES (1, 'a', 2)", 'CREATE VIEW st AS SELECT * FROM t', 'ALTER TABLE t ADD COLUMN later int']) assert.ok(s.execute(sql).ok, sql);
    const r = s.execute('SELECT * FROM st');
    assert.ok(r.ok);
    assert.deepEqual([r.columns.map((c) => c.name), r.rows], [['id', 'name', 'n'], [[1, 'a', 2]]]);
    assert.ok(s.execute('DROP VIEW st').ok && s.execute('DROP TABLE t').ok);
  });

  void it('records the relations a view names, and replays to the same view from the catalog log', () => {
    const v = base.apply(engine.parse('CREATE VIEW w (a, b) AS SELECT t.id, u.label FROM t JOIN u ON u.t_id = t.id WHERE t.n > 1').stmts[0]!).next!;
    const w = v.catalog.getView('w')!;
    assert.deepEqual(w.uses, ['t', 'u']);
    assert.deepEqual(w.columns, [{ name: 'a', type: 'int4', typmod: -1 }, { name: 'b', type: 'varchar', typmod: 14 }]);
    const replayed = CatalogVersion.fromValue(v.value()).catalog.getView('w')!;
    assert.deepEqual(replayed, w);
    assert.equal(viewDefinition(w), ' SELECT t.id, u.label FROM t JOIN u ON u.t_id = t.id WHERE t.n > 1;');
  });

  void it('keeps the SELECT text as written after AS, pg_dump\'s leading spaces included', () => {
    const v = after(['CREATE TABLE t (id int)', 'CREATE VIEW "a s" (x) AS\n SELECT t.id\n   FROM t;']);
    assert.equal(viewDefinition(v.catalog.getView('a s')!), ' SELECT t.id\n   FROM t;');
  });
});

void describe('views: renames and dependencies', () => {
  const ddl = [
    'CREATE TABLE t (id int PRIMARY KEY, name text, n int)',
    'CREATE VIEW v AS SELECT id, t.name FROM t WHERE n > 0',
    'CREATE VIEW vv AS SELECT v.name, x.id FROM v JOIN v AS x ON x.id = v.id',
  ];

  void it('a renamed table is named in the stored query under its old name as alias, so references resolve', () => {
    const v = after([...ddl, 'ALTER TABLE t RENAME TO t2']);
    const q = JSON.stringify(v.catalog.getView('v')!.query);
    assert.match(q, /"relname":"t2","inh":true,"relpersistence":"p","location":\d+,"alias":\{"aliasname":"t"\}/);
    assert.deepEqual(v.catalog.getView('v')!.uses, ['t2']);
  });

  void it('a renamed column is renamed in qualified and unqualified references; the view keeps its column names', () => {
    const v = after([...ddl, 'ALTER TABLE t RENAME COLUMN name TO title', 'ALTER TABLE t RENAME COLUMN n TO m']);
    assert.deepEqual(targets(v, 'v'), ['id', 't.title']);
    assert.match(JSON.stringify((v.catalog.getView('v')!.query as { SelectStmt: { whereClause?: unknown } }).SelectStmt.whereClause), /"sval":"m"/);
    assert.deepEqual(v.catalog.getView('v')!.columns.map((c) => c.name), ['id', 'name']);
  });

  void it('a renamed view column is renamed in the views over it, under either alias', () => {
    const v = after([...ddl, 'ALTER VIEW v RENAME COLUMN id TO key']);
    assert.deepEqual(targets(v, 'vv'), ['v.name', 'x.key']);
    assert.match(JSON.stringify(v.catalog.getView('vv')!.query), /"fields":\[\{"String":\{"sval":"x"\}\},\{"String":\{"sval":"key"\}\}\]/);
  });

  void it('DROP refuses dependents with every dependency line; CASCADE drops views over views too', () => {
    const v = after(ddl);
    assert.throws(() => v.apply(engine.parse('DROP TABLE t').stmts[0]!), {
      code: '2BP01', message: 'cannot drop table t because other objects depend on it', detail: 'view v depends on table t\nview vv depends on view v',
    });
    assert.throws(() => v.apply(engine.parse('ALTER TABLE t DROP COLUMN n').stmts[0]!), { code: '2BP01', detail: 'view v depends on column n of table t\nview vv depends on view v' });
    const dropped = v.apply(engine.parse('DROP TABLE t CASCADE').stmts[0]!);
    assert.deepEqual(outcomeNotices(dropped.outcome), [noticeWithDetail('drop cascades to 2 other objects', ['drop cascades to view v', 'drop cascades to view vv'])]);
    assert.deepEqual(dropped.next!.catalog.listViews(), []);
    // A column no view reads can go.
    assert.ok(after([...ddl, 'ALTER TABLE t ADD COLUMN extra int', 'ALTER TABLE t DROP COLUMN extra']).catalog.getView('vv'));
  });

  void it('a view that reaches itself (CREATE OR REPLACE) is 42P17 when read, as in PostgreSQL', () => {
    const e = engine.session();
    for (const sql of ['CREATE TABLE r (x int)', 'CREATE VIEW r1 AS SELECT x FROM r', 'CREATE VIEW r2 AS SELECT x FROM r1', 'CREATE OR REPLACE VIEW r1 AS SELECT x FROM r2']) {
      const r = e.execute(sql);
      assert.ok(r.ok, sql);
    }
    const r = e.execute('SELECT * FROM r1');
    assert.equal(r.ok ? 'ok' : r.error.code, '42P17');
    assert.ok(e.execute('DROP VIEW r1, r2').ok);
    assert.ok(e.execute('DROP TABLE r').ok);
  });
});

void describe('views: limits', () => {
  void it('a statement expanding too many views (each level joining the previous twice) fails with 54000 at once', () => {
    const ddl = ['CREATE TABLE base (x int)', 'CREATE VIEW d0 AS SELECT x FROM base'];
    for (let i = 1; i <= 12; i++) ddl.push(`CREATE VIEW d${i} AS SELECT a.x FROM d${i - 1} a JOIN d${i - 1} b ON a.x = b.x`);
    let v = CatalogVersion.empty;
    let refused: unknown = null;
    for (const sql of ddl) {
      try {
        v = v.apply(engine.parse(sql).stmts[0]!).next ?? v;
      } catch (e) {
        refused = e;
        break;
      }
    }
    // d9 expands 2^9 + ... views: the first CREATE past the limit is refused, the catalog stays usable.
    assert.equal((refused as { code?: string } | null)?.code, '54000');
    assert.ok(v.catalog.getView('d8') !== undefined && v.catalog.getView('d9') === undefined);
  });
});
