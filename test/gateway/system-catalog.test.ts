/**
 * The system catalog in the gateway (client/gateway/system-catalog.ts): psql runs testdata/
 * system-catalog.sql (knex's hasTable and hasColumn, pg_tables, pg_class x pg_namespace x pg_attribute x
 * pg_type, pg_type's rows, postgres.js's array-type query) and prints what PostgreSQL 15 prints for it
 * (testdata/system-catalog.out, connected as pesto to a database pesto); the `pg` driver asks with
 * parameters; a query joining a system table with a user table is refused cleanly; and postgres.js, which
 * reads pg_type when it connects, runs queries, transactions, savepoints and cursors.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import postgres from 'postgres';
import { psqlScript, scriptOutput } from './client-scripts.ts';
import { DATABASE, PASSWORD, USER, startTestGateway } from './gateway-fixture.ts';

void test('psql reads information_schema, pg_tables, pg_class, pg_attribute, pg_type and pg_namespace as from PostgreSQL 15', async () => {
  const gw = await startTestGateway();
  try {
    assert.deepEqual(await psqlScript('system-catalog', gw.port, USER, PASSWORD), scriptOutput('system-catalog'));
  } finally {
    await gw.close();
  }
});

void test('the pg driver queries the system catalog with parameters; mixing in a user table is a clean 42P01, a missing function 42883', async () => {
  const gw = await startTestGateway();
  const client = new pg.Client({ host: '127.0.0.1', port: gw.port, user: USER, password: PASSWORD, database: DATABASE });
  await client.connect();
  try {
    await client.query('CREATE TABLE items (id int PRIMARY KEY, label varchar(20) NOT NULL)');
    const cols = await client.query({
      text: 'SELECT column_name, data_type, is_nullable FROM information_schema.columns WHERE table_schema = $1 AND table_name = $2 ORDER BY ordinal_position',
      values: ['public', 'items'], rowMode: 'array',
    });
    assert.deepEqual(cols.rows, [['id', 'integer', 'NO'], ['label', 'character varying', 'NO']]);
    // Prepared once, run twice: the second run sees the table created in between.
    const q = { name: 'has_table', text: 'SELECT count(*)::int AS n FROM pg_catalog.pg_tables WHERE tablename = $1', values: ['later'] };
    assert.deepEqual((await client.query(q)).rows, [{ n: 0 }]);
    await client.query('CREATE TABLE later (k int PRIMARY KEY)');
    assert.deepEqual((await client.query(q)).rows, [{ n: 1 }]);
    // Inside a transaction the catalog is the transaction's; a DROP rolled back leaves the table listed.
    await client.query('BEGIN');
    await client.query('DROP TABLE later');
    assert.deepEqual((await client.query(q)).rows, [{ n: 0 }]);
    await client.query('ROLLBACK');
    assert.deepEqual((await client.query(q)).rows, [{ n: 1 }]);
    await assert.rejects(client.query('SELECT c.relname FROM pg_class c JOIN items i ON i.label = c.relname'), { code: '42P01' });
    await assert.rejects(client.query('SELECT * FROM pg_catalog.pg_no_such_table'), { code: '42P01' });
    // A function the catalog lacks is named as missing (it was "relation pg_class does not exist"), by the
    // extended protocol too; after a rewritten catalog function the position is left out.
    await assert.rejects(client.query('SELECT no_such_fn(relname) FROM pg_class'), { code: '42883', message: 'function no_such_fn(name) does not exist', position: '8' });
    await assert.rejects(client.query({ text: 'SELECT no_such_fn(relname) FROM pg_class WHERE relname = $1', values: ['items'] }), { code: '42883' });
    await assert.rejects(client.query('SELECT obj_description(oid), pg_database_size(datname) FROM pg_database'), (e: { code?: string; position?: string }) => e.code === '42883' && e.position === undefined);
    // A regclass or regtype literal qualified with a schema that does not exist: PostgreSQL's 3F000 at the literal.
    await assert.rejects(client.query("SELECT 1, 'nos.s'::regclass"), { code: '3F000', message: 'schema "nos" does not exist', position: '11' });
    await assert.rejects(client.query(`SELECT '"Nos".int4'::regtype::oid`), { code: '3F000', message: 'schema "Nos" does not exist' });
    assert.deepEqual((await client.query({ text: "SELECT 'public.items'::regclass::text, 'pg_catalog.int4'::regtype::text", rowMode: 'array' })).rows, [['items', 'integer']]);
  } finally {
    await client.end();
    await gw.close();
  }
});

void test('a regclass constant naming no relation of public is 42P01 at the constant, rows or not; to_regclass gives NULL', async () => {
  const gw = await startTestGateway();
  const client = new pg.Client({ host: '127.0.0.1', port: gw.port, user: USER, password: PASSWORD, database: DATABASE });
  await client.connect();
  try {
    await client.query('CREATE TABLE rc_t (a int PRIMARY KEY)');
    // PostgreSQL 15's errors, messages and positions (regclassin reads unquoted names in lower case).
    await assert.rejects(client.query("SELECT 'nosuch'::regclass"), { code: '42P01', message: 'relation "nosuch" does not exist', position: '8' });
    await assert.rejects(client.query("SELECT 1, ' Public . NoSuch '::regclass::oid"), { code: '42P01', message: 'relation "public.nosuch" does not exist', position: '11' });
    await assert.rejects(client.query(`SELECT 1 WHERE false AND '"RC_T"'::regclass IS NULL`), { code: '42P01', message: 'relation "RC_T" does not exist', position: '26' });
    await assert.rejects(client.query({ text: "SELECT $1::int, 'pesto.public.nosuch'::regclass::text", values: [1] }), { code: '42P01', message: 'relation "public.nosuch" does not exist' });
    await assert.rejects(client.query("SELECT 'otherdb.public.rc_t'::regclass"), { code: '0A000', message: 'cross-database references are not implemented: "otherdb.public.rc_t"' });
    const found = await client.query({ text: "SELECT 'RC_T'::regclass = 'rc_t'::regclass, 'public.rc_t'::regclass::text, 'rc_t_pkey'::regclass IS NOT NULL", rowMode: 'array' });
    assert.deepEqual(found.rows, [[true, 'rc_t', true]]);
    // A pg_catalog relation this catalog does not list (PostgreSQL has its oid) is no error: pg_dump names some.
    await client.query("SELECT 'pg_rewrite'::regclass, 'pg_catalog.pg_trigger'::regclass");
    const lookups = await client.query({ text: "SELECT to_regclass('nosuch'), to_regclass('public.nosuch'), to_regclass('nosch.x'), to_regclass('RC_T') = 'rc_t'::regclass", rowMode: 'array' });
    assert.deepEqual(lookups.rows, [[null, null, null, true]]);
    // Prepared while the relation exists, run after it is gone: checked each time the query runs.
    const q = { name: 'rc', text: "SELECT 'rc_t'::regclass IS NOT NULL AS found", values: [] };
    assert.deepEqual((await client.query(q)).rows, [{ found: true }]);
    await client.query('DROP TABLE rc_t');
    await assert.rejects(client.query(q), { code: '42P01', message: 'relation "rc_t" does not exist' });
  } finally {
    await client.end();
    await gw.close();
  }
});

void test('postgres.js connects (it reads pg_type first) and runs queries, transactions, savepoints and cursors', async () => {
  const gw = await startTestGateway();
  const sql = postgres({ host: '127.0.0.1', port: gw.port, user: USER, password: PASSWORD, database: DATABASE, onnotice: () => undefined, max: 1 });
  try {
    await sql`CREATE TABLE pj (id int PRIMARY KEY, name text, n numeric(6,2), t timestamptz, b boolean, j int8)`;
    await sql`INSERT INTO pj ${sql([{ id: 1, name: 'a', n: '1.50', t: new Date('2024-01-02T03:04:05Z'), b: true, j: 5n }, { id: 2, name: 'b', n: '2', t: new Date(0), b: false, j: 7n }])}`;
    const [one] = await sql`SELECT * FROM pj WHERE id = ${1}`;
    assert.deepEqual({ ...one }, { id: 1, name: 'a', n: '1.50', t: new Date('2024-01-02T03:04:05Z'), b: true, j: '5' });
    assert.deepEqual((await sql`SELECT id FROM pj WHERE id IN ${sql([1, 2])} ORDER BY id`).map((r) => r['id']), [1, 2]);
    const inTx = await sql.begin(async (tx) => {
      await tx`UPDATE pj SET name = 'tx' WHERE id = 1`;
      await tx.savepoint(async (sp) => {
        await sp`UPDATE pj SET name = 'sp' WHERE id = 2`;
      });
      await tx.savepoint(async (sp) => {
        await sp`UPDATE pj SET name = 'undone' WHERE id = 2`;
        await sp`INSERT INTO pj (id) VALUES (1)`;
      }).catch((e: unknown) => assert.equal((e as { code?: string }).code, '23505'));
      return tx`SELECT name FROM pj ORDER BY id`;
    });
    assert.deepEqual(inTx.map((r) => r['name']), ['tx', 'sp']);
    const pages: number[][] = [];
    for await (const rows of sql`SELECT id FROM pj ORDER BY id`.cursor(1)) pages.push(rows.map((r) => r['id'] as number));
    assert.deepEqual(pages, [[1], [2]]);
    assert.deepEqual([...(await sql`UPDATE pj SET n = n + ${1} WHERE id = ${2} RETURNING n`)], [{ n: '3.00' }]);
    await assert.rejects(sql`INSERT INTO pj (id) VALUES (1)`, { code: '23505' });
  } finally {
    await sql.end();
    await gw.close();
  }
});
