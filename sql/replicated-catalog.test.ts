import { describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { Engine } from './engine.ts';
import { CatalogVersion, type DdlDataAction } from './replicated-catalog.ts';

const engine = await Engine.create();

function after(ddl: readonly string[]): CatalogVersion {
  let v = CatalogVersion.empty;
  for (const sql of ddl) v = v.apply(engine.parse(sql).stmts[0]!).next ?? v;
  return v;
}

function actionsOf(v: CatalogVersion, sql: string): readonly DdlDataAction[] {
  return v.apply(engine.parse(sql).stmts[0]!).actions;
}

const describeAction = (a: DdlDataAction): string => (a.k === 'unique' ? `unique ${a.table.name}.${a.index.name}` : a.k === 'rewrite' ? `rewrite ${a.before.name}` : `truncate ${a.table.name}`);

void describe('replicated DDL: the row work a statement asks the client to do', () => {
  const base = after(['CREATE TABLE t (id int PRIMARY KEY, email text, n int)', 'CREATE TABLE h (v int)']);

  void it('a new unique index on an existing table asks for a uniqueness check of its rows', () => {
    assert.deepEqual(actionsOf(base, 'CREATE UNIQUE INDEX t_email ON t (email)').map(describeAction), ['unique t.t_email']);
    assert.deepEqual(actionsOf(base, 'ALTER TABLE t ADD CONSTRAINT t_n_key UNIQUE (n)').map(describeAction), ['unique t.t_n_key']);
  });

  void it('a plain index, a new table with UNIQUE columns and DROP INDEX ask for nothing', () => {
    assert.deepEqual(actionsOf(base, 'CREATE INDEX t_n ON t (n)'), []);
    assert.deepEqual(actionsOf(base, 'CREATE TABLE u (id int PRIMARY KEY, e text UNIQUE)'), []);
    const withIndex = after(['CREATE TABLE t (id int PRIMARY KEY, email text)', 'CREATE UNIQUE INDEX t_email ON t (email)']);
    assert.deepEqual(actionsOf(withIndex, 'DROP INDEX t_email'), []);
  });

  void it('ADD PRIMARY KEY rewrites the rows, TRUNCATE deletes them', () => {
    assert.deepEqual(actionsOf(base, 'ALTER TABLE h ADD PRIMARY KEY (v)').map(describeAction), ['rewrite h']);
    assert.deepEqual(actionsOf(base, 'TRUNCATE t').map(describeAction), ['truncate t']);
  });

  void it('replaying a log with unique indexes yields the same catalog', () => {
    const v = after(['CREATE TABLE t (id int PRIMARY KEY, email text)', 'CREATE UNIQUE INDEX t_email ON t (email)']);
    const replayed = CatalogVersion.fromValue(v.value());
    assert.deepEqual(replayed.catalog.require('t'), v.catalog.require('t'));
  });
});
