import { describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { Engine } from './engine.ts';
import { CatalogVersion } from './replicated-catalog.ts';

const engine = await Engine.create();

/** A fresh session with `ddl` run; its statements must succeed. */
function session(ddl: readonly string[]): ReturnType<Engine['session']> {
  const s = engine.session();
  for (const sql of ddl) {
    const r = s.execute(sql);
    assert.ok(r.ok, `${sql}: ${r.ok ? '' : r.error.message}`);
  }
  return s;
}

/** The error `sql` fails with: code, message, detail and hint as PostgreSQL 15 gives them. */
function failure(s: ReturnType<Engine['session']>, sql: string): { code: string; message: string; detail?: string; hint?: string } {
  const r = s.execute(sql);
  assert.ok(!r.ok, `${sql} succeeded`);
  const e = r.error;
  return { code: e.code, message: e.message, ...(e.detail === undefined ? {} : { detail: e.detail }), ...(e.hint === undefined ? {} : { hint: e.hint }) };
}

function rows(s: ReturnType<Engine['session']>, sql: string): string[][] {
  const r = s.execute(sql);
  assert.ok(r.ok, r.ok ? '' : r.error.message);
  return r.rows.map((row) => row.map((v) => (v === null ? 'NULL' : String(v))));
}

void describe('ALTER COLUMN TYPE on the engine', () => {
  void it('refuses a column without an assignment cast with PostgreSQL\'s message and HINT', () => {
    const s = session(["CREATE TABLE e1 (a int PRIMARY KEY, b text, c varchar(10) DEFAULT 'x')"]);
    assert.deepEqual(failure(s, 'ALTER TABLE e1 ALTER b TYPE integer'),
      { code: '42804', message: 'column "b" cannot be cast automatically to type integer', hint: 'You might need to specify "USING b::integer".' });
    assert.deepEqual(failure(s, 'ALTER TABLE e1 ALTER b TYPE timestamp USING a'),
      { code: '42804', message: 'result of USING clause for column "b" cannot be cast automatically to type timestamp without time zone', hint: 'You might need to add an explicit cast.' });
    assert.deepEqual(failure(s, 'ALTER TABLE e1 ALTER c TYPE int USING 1'),
      { code: '42804', message: 'default for column "c" cannot be cast automatically to type integer' });
    assert.deepEqual(failure(s, 'ALTER TABLE e1 ALTER b TYPE varchar(3), ALTER b TYPE text'),
      { code: '0A000', message: 'cannot alter type of column "b" twice' });
  });

  void it('refuses a column a view reads, naming the view in DETAIL', () => {
    const s = session(['CREATE TABLE e2 (x int, y int)', 'CREATE VIEW e2v AS SELECT x FROM e2']);
    assert.deepEqual(failure(s, 'ALTER TABLE e2 ALTER x TYPE bigint'),
      { code: '0A000', message: 'cannot alter type of a column used by a view or rule', detail: 'rule _RETURN on view e2v depends on column "x"' });
  });

  void it('undoes the earlier subcommands of an ALTER TABLE whose later one fails', () => {
    const s = session(["CREATE TABLE e3 (k int PRIMARY KEY, v text)", "INSERT INTO e3 VALUES (1, '5')"]);
    assert.equal(failure(s, 'ALTER TABLE e3 ALTER v TYPE int USING NULL, ALTER v SET NOT NULL').code, '23502');
    assert.deepEqual(rows(s, 'SELECT k, v || \'!\' FROM e3'), [['1', '5!']]);
  });

  void it('rekeys a primary key whose type changes: lookups by the new type find the rows', () => {
    const s = session(["CREATE TABLE e4 (k text PRIMARY KEY, v int)", "INSERT INTO e4 VALUES ('2', 20), ('10', 100)"]);
    assert.deepEqual(rows(s, 'SELECT k FROM e4 ORDER BY k'), [['10'], ['2']]);
    assert.ok(s.execute('ALTER TABLE e4 ALTER k TYPE bigint USING k::bigint').ok);
    assert.deepEqual(rows(s, 'SELECT k FROM e4 ORDER BY k'), [['2'], ['10']]);
    assert.deepEqual(rows(s, 'SELECT v FROM e4 WHERE k = 10'), [['100']]);
    assert.equal(failure(s, 'INSERT INTO e4 VALUES (10, 1)').code, '23505');
  });

  void it('ADD COLUMN SERIAL numbers rows in key order and leaves the sequence after them; an existing sequence\'s default is 0A000', () => {
    const s = session(['CREATE TABLE e5 (k int PRIMARY KEY)', 'INSERT INTO e5 VALUES (3), (1), (2)', 'CREATE SEQUENCE e5s']);
    assert.ok(s.execute('ALTER TABLE e5 ADD COLUMN n serial').ok);
    assert.ok(s.execute('INSERT INTO e5 VALUES (4)').ok);
    assert.deepEqual(rows(s, 'SELECT k, n FROM e5 ORDER BY k'), [['1', '1'], ['2', '2'], ['3', '3'], ['4', '4']]);
    assert.equal(failure(s, "ALTER TABLE e5 ADD COLUMN m int DEFAULT nextval('e5s')").code, '0A000');
  });
});

void describe('ALTER COLUMN TYPE in the replicated catalog', () => {
  const apply = (v: CatalogVersion, sql: string): ReturnType<CatalogVersion['apply']> => v.apply(engine.parse(sql).stmts[0]!);
  const base = apply(CatalogVersion.empty, 'CREATE TABLE r (k text PRIMARY KEY, v text, n int)').next!;

  void it('records a rewrite whose transform converts the row and whose key types are the new ones', () => {
    const { actions, next } = apply(base, 'ALTER TABLE r ALTER k TYPE int USING k::int, ALTER n TYPE text');
    assert.equal(actions.length, 1);
    const a = actions[0]!;
    assert.equal(a.k, 'rewrite');
    if (a.k !== 'rewrite') return;
    assert.deepEqual(a.after.pkTypes, ['int4']);
    assert.deepEqual(a.transform(['12', 'x', 3]), [12, 'x', '3']);
    assert.deepEqual(next!.catalog.require('r').columns.map((c) => c.type), ['int4', 'text', 'text']);
  });

  void it('records nothing for the column\'s own type (ORMs\' schema sync)', () => {
    const { actions, next } = apply(base, 'ALTER TABLE r ALTER v TYPE text, ALTER n SET DATA TYPE integer');
    assert.equal(actions.length, 0);
    assert.equal(next, null);
  });
});
