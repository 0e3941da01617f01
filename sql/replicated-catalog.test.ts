import { describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { STORAGE_ID_BASE, STORAGE_ID_END } from './catalog.ts';
import { Engine } from './engine.ts';
import { SqlError } from './errors.ts';
import { CatalogDecodeError, CatalogVersion, type DdlDataAction } from './replicated-catalog.ts';

const engine = await Engine.create();

function after(ddl: readonly string[]): CatalogVersion {
  let v = CatalogVersion.empty;
  for (const sql of ddl) v = v.apply(engine.parse(sql).stmts[0]!).next ?? v;
  return v;
}

function actionsOf(v: CatalogVersion, sql: string): readonly DdlDataAction[] {
  return v.apply(engine.parse(sql).stmts[0]!).actions;
}

const describeAction = (a: DdlDataAction): string => (a.k === 'unique' ? `unique ${a.table.name}.${a.index.name}` : a.k === 'rewrite' ? `rewrite ${a.before.name}` : a.k === 'foreign-key' ? `foreign key ${a.child.name}.${a.fk.name}` : a.k === 'sequence' ? `sequence ${a.seq.name}` : `${a.k} ${a.table.name}`);

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

  void it('ADD FOREIGN KEY asks for a check of the referencing rows; NOT VALID and CREATE TABLE do not', () => {
    const withParent = after(['CREATE TABLE t (id int PRIMARY KEY, email text)', 'CREATE TABLE c (id int PRIMARY KEY, t_id int)']);
    assert.deepEqual(actionsOf(withParent, 'ALTER TABLE c ADD FOREIGN KEY (t_id) REFERENCES t').map(describeAction), ['foreign key c.c_t_id_fkey']);
    assert.deepEqual(actionsOf(withParent, 'ALTER TABLE c ADD FOREIGN KEY (t_id) REFERENCES t NOT VALID'), []);
    assert.deepEqual(actionsOf(withParent, 'CREATE TABLE d (id int PRIMARY KEY, t_id int REFERENCES t)'), []);
  });

  void it('replaying a log with foreign keys, renames, a storage switch and a dropped column yields the same definitions', () => {
    let v = after([
      'CREATE TABLE p (id int PRIMARY KEY, code text UNIQUE)',
      'CREATE TABLE c (id int PRIMARY KEY, x int, p_id int REFERENCES p ON DELETE CASCADE, code text, FOREIGN KEY (code) REFERENCES p (code) MATCH FULL ON UPDATE SET NULL)',
      'ALTER TABLE c ADD CONSTRAINT c_self FOREIGN KEY (x) REFERENCES c NOT VALID',
      'ALTER TABLE p RENAME TO p2',
      'ALTER TABLE c DROP COLUMN x',
    ]);
    v = v.withStorage('p2', STORAGE_ID_BASE + 7);
    const replayed = CatalogVersion.fromValue(v.value());
    assert.deepEqual(replayed.catalog.require('c'), v.catalog.require('c'));
    assert.deepEqual(replayed.catalog.require('c').foreignKeys, [
      { name: 'c_p_id_fkey', columns: [2], refTable: 'p2', refColumns: [0], onDelete: 'cascade', onUpdate: 'no action', matchFull: false },
      { name: 'c_code_fkey', columns: [3], refTable: 'p2', refColumns: [1], onDelete: 'no action', onUpdate: 'set null', matchFull: true },
    ]);
    assert.equal(replayed.catalog.require('p2').id, STORAGE_ID_BASE + 7);
  });

  void it('replaying a log with unique indexes yields the same catalog', () => {
    const v = after(['CREATE TABLE t (id int PRIMARY KEY, email text)', 'CREATE UNIQUE INDEX t_email ON t (email)']);
    const replayed = CatalogVersion.fromValue(v.value());
    assert.deepEqual(replayed.catalog.require('t'), v.catalog.require('t'));
  });
});

// The replicated catalog's storage switches (docs/decisions/0012): a table moves to a fresh storage id,
// every replay of the log agrees on it, and no catalog can name one storage for two tables.
const ddl = (cv: CatalogVersion, sql: string): ReturnType<CatalogVersion['apply']> => cv.apply(engine.parse(sql).stmts[0]!);
const base = ddl(ddl(CatalogVersion.empty, 'CREATE TABLE a (id int PRIMARY KEY, v text)').next!, 'CREATE TABLE b (k int, n int)').next!;

function code(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    return e instanceof SqlError ? e.code : (e as Error).name;
  }
  return 'no error';
}

void describe('storage switches in the replicated catalog', () => {
  void it('moves a table (and its indexes) to a fresh storage id that every replay of the log derives', () => {
    const before = base.catalog.require('a');
    const cv = base.withStorage('a', STORAGE_ID_BASE + 7);
    const a = cv.catalog.require('a');
    assert.equal(a.id, STORAGE_ID_BASE + 7);
    assert.deepEqual(a.columns, before.columns);
    assert.ok(a.indexes.every((i) => i.tableId === a.id));
    assert.equal(cv.catalog.getById(before.id), undefined, 'the old id no longer names a table');
    assert.deepEqual(cv.catalog.storageDef(before.id), before, 'a retired storage still resolves (predicates of a swap)');
    const replayed = CatalogVersion.fromValue(cv.value());
    assert.equal(replayed.catalog.require('a').id, STORAGE_ID_BASE + 7);
    assert.equal(replayed.catalog.require('b').id, base.catalog.require('b').id);
    // The DDL counter is unaffected: the next table gets the id it would have had.
    assert.equal(ddl(cv, 'CREATE TABLE c (x int)').next!.catalog.require('c').id, ddl(base, 'CREATE TABLE c (x int)').next!.catalog.require('c').id);
  });

  void it('records TRUNCATE and ADD PRIMARY KEY as storage work; a switch before the rewrite keeps the old layout for the old storage', () => {
    const t = ddl(base, 'TRUNCATE a, b');
    assert.deepEqual(t.actions.map((x) => x.k), ['truncate', 'truncate']);
    const old = base.catalog.require('b');
    const switched = base.withStorage('b', STORAGE_ID_BASE);
    const pk = ddl(switched, 'ALTER TABLE b ADD PRIMARY KEY (k)');
    assert.deepEqual(pk.actions.map((x) => x.k), ['rewrite']);
    const replayed = CatalogVersion.fromValue(pk.next!.value()).catalog;
    const b = replayed.require('b');
    assert.equal(b.id, STORAGE_ID_BASE);
    assert.equal(b.hiddenPk, false);
    assert.deepEqual(b.pk, [0]);
    // Predicates of the rewrite on the old storage resolve to the layout its rows have (hidden row id).
    assert.deepEqual(replayed.storageDef(old.id), old);
    assert.equal(replayed.storageDef(old.id)!.columns.length, 3);
  });

  void it('refuses an id outside the fresh range, one in use, one retired, and an unknown table', () => {
    const cv = base.withStorage('a', STORAGE_ID_BASE + 1);
    assert.equal(code(() => base.withStorage('a', base.catalog.require('b').id)), '22023');
    assert.equal(code(() => base.withStorage('a', STORAGE_ID_BASE - 1)), '22023');
    assert.equal(code(() => base.withStorage('a', STORAGE_ID_END)), '22023');
    assert.equal(code(() => base.withStorage('a', 1.5 + STORAGE_ID_BASE)), '22023');
    assert.equal(code(() => cv.withStorage('b', STORAGE_ID_BASE + 1)), '22023', 'in use by a');
    const again = cv.withStorage('a', STORAGE_ID_BASE + 2);
    assert.equal(code(() => again.withStorage('b', STORAGE_ID_BASE + 1)), '22023', "a's retired storage");
    assert.equal(code(() => base.withStorage('nope', STORAGE_ID_BASE + 3)), '42P01');
  });

  void it('refuses a forged log whose switch collides with another table, or is malformed, as undecodable', () => {
    const log = JSON.parse(new TextDecoder().decode(base.withStorage('a', STORAGE_ID_BASE + 4).value()!)) as string[];
    const forge = (entries: string[]): Uint8Array => new TextEncoder().encode(JSON.stringify(entries));
    const collide = [...log, JSON.stringify({ PestoStorage: { relname: 'b', id: STORAGE_ID_BASE + 4 } })];
    assert.throws(() => CatalogVersion.fromValue(forge(collide)), CatalogDecodeError);
    assert.throws(() => CatalogVersion.fromValue(forge([...log, JSON.stringify({ PestoStorage: { relname: 'b' } })])), CatalogDecodeError);
    assert.throws(() => CatalogVersion.fromValue(forge([...log, JSON.stringify({ PestoStorage: null })])), CatalogDecodeError);
    assert.throws(() => CatalogVersion.fromValue(forge([...log, '7'])), CatalogDecodeError);
  });
});

void describe('decoding a catalog value from the version before it', () => {
  const script = [
    'CREATE TABLE p (id int PRIMARY KEY, code text UNIQUE, n serial)',
    "CREATE TYPE mood AS ENUM ('sad', 'ok')",
    'CREATE TABLE c (id int PRIMARY KEY, p_id int REFERENCES p, m mood, CHECK (id > 0))',
    'CREATE SEQUENCE s START 5',
    'CREATE VIEW pv AS SELECT id, code FROM p WHERE id > 1',
    'CREATE INDEX c_m ON c (m)',
    "ALTER TYPE mood ADD VALUE 'happy'",
    'CREATE ROLE r1',
    'GRANT SELECT ON p TO r1',
    'ALTER DEFAULT PRIVILEGES GRANT SELECT ON TABLES TO r1',
    "COMMENT ON TABLE p IS 'parents'",
    'CREATE EXTENSION IF NOT EXISTS "uuid-ossp"',
    'ALTER TABLE p RENAME TO p2',
    'ALTER TABLE c ADD COLUMN extra text DEFAULT \'x\'',
    'ALTER TABLE c RENAME COLUMN extra TO extra2',
    'DROP VIEW pv',
    'DROP TABLE c',
    'CREATE MATERIALIZED VIEW mv AS SELECT count(*) AS n FROM p2',
  ];
  const versions: CatalogVersion[] = [CatalogVersion.empty];
  for (const sql of script) versions.push(versions[versions.length - 1]!.apply(engine.parse(sql).stmts[0]!).next!);
  versions.push(versions[versions.length - 1]!.withStorage('p2', STORAGE_ID_BASE + 3));

  void it('replays only the entries after the longest base whose log is a prefix, and yields the full replay\'s catalog', () => {
    for (let k = 1; k < versions.length; k++) {
      const value = versions[k]!.value();
      const full = CatalogVersion.fromValue(value);
      const bases = versions.slice(0, k).map((v) => CatalogVersion.fromValue(v.value()));
      const incremental = CatalogVersion.fromValue(value, bases);
      assert.deepEqual(incremental.catalog.snapshot(), full.catalog.snapshot(), `after ${k} statements`);
      assert.deepEqual(incremental.log, full.log);
      // The same log as a base: that version itself.
      assert.equal(CatalogVersion.fromValue(value, [full]), full);
    }
  });

  void it('does not start from a version whose log is not a prefix (another branch of DDL)', () => {
    const common = versions[3]!;
    const left = common.apply(engine.parse('CREATE TABLE left_t (a int)').stmts[0]!).next!;
    const right = common.apply(engine.parse('CREATE TABLE right_t (b int)').stmts[0]!).next!;
    const decoded = CatalogVersion.fromValue(right.value(), [CatalogVersion.fromValue(left.value())]);
    assert.equal(decoded.catalog.get('left_t'), undefined);
    assert.ok(decoded.catalog.get('right_t') !== undefined);
    assert.deepEqual(decoded.catalog.snapshot(), CatalogVersion.fromValue(right.value()).catalog.snapshot());
  });

  void it('a version applied to does not change (its catalog is copied)', () => {
    const v = versions[5]!;
    const before = v.catalog.snapshot();
    v.apply(engine.parse('DROP TABLE p CASCADE').stmts[0]!);
    v.apply(engine.parse('ALTER TABLE c ADD COLUMN q int').stmts[0]!);
    assert.deepEqual(v.catalog.snapshot(), before);
  });
});
