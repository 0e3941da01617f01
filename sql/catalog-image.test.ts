import { describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { STORAGE_ID_BASE, type TableDef } from './catalog.ts';
import { CatalogImageError, decodeCatalogImage, encodeCatalogImage } from './catalog-image.ts';
import { Engine } from './engine.ts';
import { CatalogDecodeError, CatalogVersion } from './replicated-catalog.ts';

const engine = await Engine.create();
const run = (v: CatalogVersion, sql: string): CatalogVersion => v.apply(engine.parse(sql).stmts[0]!).next ?? v;
const after = (v: CatalogVersion, ddl: readonly string[]): CatalogVersion => ddl.reduce(run, v);

const SCRIPT = [
  "CREATE TYPE mood AS ENUM ('sad', 'ok')",
  'CREATE TABLE p (id int PRIMARY KEY, code text UNIQUE, n serial, price numeric(6,2) DEFAULT 1.50::numeric(6,2), at timestamptz DEFAULT now())',
  "CREATE TABLE c (id int PRIMARY KEY, p_id int REFERENCES p ON DELETE CASCADE DEFERRABLE, m mood DEFAULT 'ok', d date DEFAULT '2020-02-29', CHECK (id > 0), total int GENERATED ALWAYS AS (id * 2) STORED)",
  'CREATE INDEX c_lower ON c ((p_id + 1)) WHERE id > 10',
  'CREATE TABLE h (v int, w bytea DEFAULT \'\\x0102\')',
  'CREATE SEQUENCE s START 5 INCREMENT 3 MAXVALUE 9223372036854775807',
  'CREATE VIEW pv AS SELECT id, code FROM p WHERE id > 1',
  "ALTER TYPE mood ADD VALUE 'happy' BEFORE 'ok'",
  "CREATE ROLE r1 LOGIN PASSWORD 'SCRAM-SHA-256$4096:c2FsdHNhbHRzYWx0c2FsdA==$ZnJvbXRoZXN0b3JlZGtleWZyb210aGVzdG9yZWRrZXk=:ZnJvbXRoZXNlcnZlcmtleWZyb210aGVzZXJ2ZXJrZXk=' VALID UNTIL '2030-01-01 00:00:00+00'",
  'GRANT SELECT ON p TO r1',
  'GRANT USAGE ON SCHEMA public TO r1',
  'ALTER DEFAULT PRIVILEGES GRANT SELECT ON TABLES TO r1',
  "COMMENT ON TABLE p IS 'parents'",
  "COMMENT ON COLUMN c.m IS 'how it feels'",
  "COMMENT ON SCHEMA public IS NULL",
  'CREATE EXTENSION IF NOT EXISTS "uuid-ossp"',
  'CREATE MATERIALIZED VIEW mv AS SELECT count(*) AS n FROM p',
  'ALTER TABLE c DROP COLUMN d',
];

/** A catalog of everything the image writes, a storage switch (a retired storage) included. */
const rich = run(after(CatalogVersion.empty, SCRIPT), 'CREATE TABLE later (k int PRIMARY KEY)').withStorage('h', STORAGE_ID_BASE + 7);

void describe('the catalog image (decision 0077)', () => {
  void it('reads back as the catalog it was written from, sharing what that shared', () => {
    const s = rich.catalog.snapshot();
    const read = decodeCatalogImage(JSON.parse(JSON.stringify(encodeCatalogImage(s))));
    assert.deepEqual(read, s);
    for (const [name, t] of read.tables) assert.equal(read.byId.get(t.id), t, name);
    const c = read.tables.get('c')!;
    assert.equal(c.columns.find((x) => x.name === 'm')!.enumType, read.enums.get('mood'));
    assert.equal(read.retired.size, 1);
  });

  void it('a compacted version is one entry, replays to the same catalog everywhere, and DDL goes on from it as from the log', () => {
    const compact = rich.compact();
    assert.equal(compact.log.length, 1);
    assert.ok(compact.value()!.length < rich.value()!.length);
    const replayed = CatalogVersion.fromValue(compact.value());
    assert.deepEqual(replayed.catalog.snapshot(), rich.catalog.snapshot());
    assert.deepEqual(compact.catalog.snapshot(), rich.catalog.snapshot());
    const more = ["ALTER TABLE c ADD COLUMN note text DEFAULT 'n'", 'DROP VIEW pv', 'CREATE TABLE z (a int REFERENCES later)', "ALTER TYPE mood RENAME VALUE 'sad' TO 'blue'", 'DROP TABLE p CASCADE', 'CREATE TABLE q (k serial PRIMARY KEY)'];
    const fromLog = after(rich, more);
    const fromImage = after(compact, more);
    assert.deepEqual(fromImage.catalog.snapshot(), fromLog.catalog.snapshot());
    assert.equal(fromImage.log.length, 1 + more.length);
    // Replicas holding the compacted version replay only what came after it; fresh ones the image and the rest.
    assert.deepEqual(CatalogVersion.fromValue(fromImage.value(), [replayed]).catalog.snapshot(), fromLog.catalog.snapshot());
    assert.deepEqual(CatalogVersion.fromValue(fromImage.value()).catalog.snapshot(), fromLog.catalog.snapshot());
    // A compacted version compacts again to itself.
    assert.deepEqual(compact.compact().log, compact.log);
  });

  void it('refuses to write what it cannot write exactly', () => {
    const s = rich.catalog.snapshot();
    const withField = (t: TableDef, extra: Record<string, unknown>): Map<string, TableDef> => new Map([...s.tables, [t.name, { ...t, ...extra } as TableDef]]);
    const p = s.tables.get('p')!;
    assert.throws(() => encodeCatalogImage({ ...s, tables: withField(p, { partitions: 3 }) }), CatalogImageError);
    const m = s.tables.get('mv')!;
    assert.throws(() => encodeCatalogImage({ ...s, tables: withField(m, { matview: { ...m.matview!, query: { when: new Date(0) } } }) }), CatalogImageError);
    assert.throws(() => encodeCatalogImage({ ...s, tables: withField(p, { name: undefined }) }), CatalogImageError);
  });

  void it('refuses forged images as undecodable catalogs, and a catalog that replays to one throws nothing else', () => {
    const good = JSON.parse(JSON.stringify(encodeCatalogImage(rich.catalog.snapshot()))) as Record<string, unknown>;
    const forge = (change: (j: { tables: [string, Record<string, unknown>][] } & Record<string, unknown>) => void): Uint8Array => {
      const j = structuredClone(good) as { tables: [string, Record<string, unknown>][] } & Record<string, unknown>;
      change(j);
      return new TextEncoder().encode(JSON.stringify([JSON.stringify({ PestoCatalog: j })]));
    };
    const table = (j: { tables: [string, Record<string, unknown>][] }, name: string): Record<string, unknown> => j.tables.find(([n]) => n === name)![1];
    const forgeries: Record<string, Uint8Array> = {
      'not an object': new TextEncoder().encode(JSON.stringify([JSON.stringify({ PestoCatalog: 7 })])),
      'an unknown field': forge((j) => (table(j, 'p')['extra'] = 1)),
      'a missing field': forge((j) => delete table(j, 'p')['pk']),
      'a string for an id': forge((j) => (table(j, 'p')['id'] = '3')),
      'a key ordinal out of range': forge((j) => (table(j, 'p')['pk'] = [40])),
      'an unknown type': forge((j) => ((table(j, 'p')['pkTypes'] as string[])[0] = 'int16')),
      'a reference to nothing': forge((j) => (j.byId as unknown[][])[0]![1] = { '@': 99 }),
      'a table under another name': forge((j) => (j.tables[0]![0] = 'other')),
      'a table missing from the ids': forge((j) => (j.byId = [])),
      'a malformed integer text': forge((j) => ((j.sequences as [number, Record<string, unknown>][])[0]![1]['max'] = '1e9')),
      'an expression that does not read': forge((j) => {
        const cols = table(j, 'p')['columns'] as Record<string, unknown>[];
        cols[3]!['default'] = { k: 'const', v: 'one', t: 'numeric' };
      }),
      'an expression that is not one': forge((j) => ((table(j, 'p')['columns'] as Record<string, unknown>[])[3]!['default'] = [1])),
      'a repeated key': forge((j) => j.tables.push(j.tables[0]!)),
      'a table id counter set back (the next table would share a storage)': forge((j) => (j.nextId = 2)),
      'a sequence id counter set back': forge((j) => (j.nextSequenceId = 1)),
      'a type oid counter set back': forge((j) => (j.nextTypeOid = (j.nextTypeOid as number) - 1)),
    };
    for (const [what, value] of Object.entries(forgeries)) assert.throws(() => CatalogVersion.fromValue(value), CatalogDecodeError, what);
    assert.ok(CatalogVersion.fromValue(forge(() => undefined)).catalog.get('p') !== undefined);
  });
});
