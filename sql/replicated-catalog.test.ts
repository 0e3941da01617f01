import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { STORAGE_ID_BASE, STORAGE_ID_END } from './catalog.ts';
import { Engine } from './engine.ts';
import { SqlError } from './errors.ts';
import { CatalogDecodeError, CatalogVersion } from './replicated-catalog.ts';

// The replicated catalog's storage switches (docs/decisions/0012): a table moves to a fresh storage id,
// every replay of the log agrees on it, and no catalog can name one storage for two tables.
const engine = await Engine.create();
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
