// The checks of test/gateway/enum-arrays.test.ts, records.test.ts, timetz.test.ts, index-describe.test.ts
// and drop-cascade.test.ts (each over the engine) and value-types-cluster.test.ts (all of them over one
// cluster): driver scripts and psql scripts whose output must equal PostgreSQL 15's (testdata/), and
// node-postgres's view of oids and values.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { psqlScript, runDriverScript, scriptOutput, type ScriptName } from './client-scripts.ts';
import { PASSWORD, USER, withPg } from './gateway-fixture.ts';

/** drivers/FILE's output against `port` equals testdata/EXPECTED, what it printed against PostgreSQL 15. */
async function driverScriptMatches(file: string, expected: string, port: number): Promise<void> {
  const r = await runDriverScript(file, port, USER);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout, readFileSync(join(import.meta.dirname, 'testdata', expected), 'utf8'));
}

/** psql runs testdata/NAME.sql against `port` and prints what it printed against PostgreSQL 15, byte for byte. */
async function psqlScriptMatches(name: ScriptName, port: number): Promise<void> {
  const r = await psqlScript(name, port, USER, PASSWORD);
  const expected = scriptOutput(name);
  assert.equal(r.stderr, expected.stderr);
  assert.equal(r.stdout, expected.stdout);
}

export const enumArraysDriversMatchPostgres = (port: number): Promise<void> => driverScriptMatches('enum_array_check.py', 'enum-arrays-drivers.txt', port);

export async function enumArraysNodePg(port: number): Promise<void> {
  await withPg(port, async (c) => {
    await c.query("CREATE TYPE npa_mood AS ENUM ('sad', 'ok', 'a b')");
    try {
      await c.query('CREATE TABLE npa_t (id int PRIMARY KEY, ms npa_mood[])');
      await c.query('INSERT INTO npa_t VALUES ($1, $2), ($3, $4), (3, $5)', [1, ['a b', 'sad'], 2, '{ok,NULL}', []]);
      const oids = (await c.query("SELECT oid, typarray FROM pg_type WHERE typname = 'npa_mood'")).rows[0] as { oid: number; typarray: number };
      const r = await c.query('SELECT id, ms FROM npa_t ORDER BY ms');
      assert.equal(r.fields[1]?.dataTypeID, oids.typarray);
      assert.deepEqual(r.rows, [{ id: 3, ms: '{}' }, { id: 2, ms: '{ok,NULL}' }, { id: 1, ms: '{"a b",sad}' }]);
      const any = await c.query('SELECT id FROM npa_t WHERE $1 = ANY (ms) ORDER BY id', ['sad']);
      assert.deepEqual(any.rows, [{ id: 1 }]);
      const agg = await c.query('SELECT array_agg(u ORDER BY u) AS a FROM npa_t, unnest(ms) u');
      assert.equal(agg.fields[0]?.dataTypeID, oids.typarray);
      assert.deepEqual(agg.rows, [{ a: '{sad,ok,"a b",NULL}' }]);
      await assert.rejects(c.query('INSERT INTO npa_t VALUES (4, $1)', [['nope']]), (e: Error & { code?: string }) => {
        assert.equal(e.code, '22P02');
        assert.equal(e.message, 'invalid input value for enum npa_mood: "nope"');
        return true;
      });
    } finally {
      await c.query('DROP TABLE IF EXISTS npa_t');
      await c.query('DROP TYPE npa_mood');
    }
  });
}

export const recordsDriversMatchPostgres = (port: number): Promise<void> => driverScriptMatches('record_check.py', 'records-drivers.txt', port);

export async function recordsNodePg(port: number): Promise<void> {
  await withPg(port, async (c) => {
    await c.query('CREATE TABLE np_rec (id int PRIMARY KEY, t text)');
    try {
      await c.query("INSERT INTO np_rec VALUES (1, 'a,b'), (2, NULL)");
      const reltype = ((await c.query("SELECT reltype FROM pg_class WHERE relname = 'np_rec'")).rows[0] as { reltype: number }).reltype;
      const r = await c.query('SELECT np_rec, ROW(id, t) AS r, (id, 1.5) AS s FROM np_rec ORDER BY id');
      assert.deepEqual(r.fields.map((f) => f.dataTypeID), [reltype, 2249, 2249]);
      assert.deepEqual(r.rows, [{ np_rec: '(1,"a,b")', r: '(1,"a,b")', s: '(1,1.5)' }, { np_rec: '(2,)', r: '(2,)', s: '(2,1.5)' }]);
      const t = await c.query("SELECT format_type(reltype, NULL) AS f, 'np_rec'::regtype::oid = reltype AS same FROM pg_class WHERE relname = 'np_rec'");
      assert.deepEqual(t.rows, [{ f: 'np_rec', same: true }]);
    } finally {
      await c.query('DROP TABLE np_rec');
    }
  });
}

export const timeTzDriversMatchPostgres = (port: number): Promise<void> => driverScriptMatches('timetz_check.py', 'timetz-drivers.txt', port);

export async function timeTzNodePg(port: number): Promise<void> {
  await withPg(port, async (c) => {
    const r = await c.query("SELECT '12:34:56.25-03:30'::timetz AS t, ARRAY['01:00+01'::timetz] AS a, $1::timetz AS p", ['23:00:00+14']);
    assert.deepEqual(r.fields.map((f) => f.dataTypeID), [1266, 1270, 1266]);
    assert.deepEqual(r.rows, [{ t: '12:34:56.25-03:30', a: ['01:00:00+01'], p: '23:00:00+14' }]);
  });
}

/** psql's \d and \d+ of indexes (testdata/index-describe.sql) print what PostgreSQL 15 prints, byte for byte. */
export const indexDescribeMatchesPostgres = (port: number): Promise<void> => psqlScriptMatches('index-describe', port);

/** DROP ... CASCADE's notices with their DETAIL (testdata/drop-cascade.sql) as psql prints PostgreSQL 15's, byte for byte. */
export const dropCascadeMatchesPostgres = (port: number): Promise<void> => psqlScriptMatches('drop-cascade', port);
