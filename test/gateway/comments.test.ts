/**
 * COMMENT ON through the gateway (sql/comments.ts; client/gateway/catalog-constraints.ts): comments on
 * views and their columns, materialized views, indexes, sequences, constraints, enum types and schema
 * public show in pg_description with PostgreSQL's classoids, through obj_description and col_description,
 * in psql's `\dv+`, `\di+`, `\ds+`, `\dT+`, `\dn+` and `\d+ view`, and in pg_dump's output, whose restore
 * into another Pesto has them all. The expected query outputs are what psql prints against PostgreSQL 15
 * for the same script. COMMENT ON DATABASE shows in pg_shdescription and `\l+`, and pg_dump writes it
 * only with --create, as PostgreSQL 15's does.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PASSWORD, USER, runPsql, startTestGateway } from './gateway-fixture.ts';
import { runPg } from './pg-dump-tools.ts';

const DDL = `CREATE TABLE cm_t (a int PRIMARY KEY, b int CONSTRAINT cm_bpos CHECK (b > 0), c int UNIQUE);
CREATE TABLE cm_child (a int CONSTRAINT cm_fk REFERENCES cm_t (a));
CREATE INDEX cm_ti ON cm_t (b);
CREATE VIEW cm_v AS SELECT a, b FROM cm_t;
CREATE MATERIALIZED VIEW cm_m AS SELECT a FROM cm_t;
CREATE SEQUENCE cm_s;
CREATE TYPE cm_e AS ENUM ('x', 'y');
COMMENT ON TABLE cm_t IS 'a table';
COMMENT ON VIEW cm_v IS 'a view';
COMMENT ON COLUMN cm_v.b IS 'a view column';
COMMENT ON MATERIALIZED VIEW cm_m IS 'a matview';
COMMENT ON COLUMN cm_m.a IS 'a matview column';
COMMENT ON INDEX cm_ti IS 'an index';
COMMENT ON INDEX cm_t_pkey IS 'the key index';
COMMENT ON SEQUENCE cm_s IS 'a sequence';
COMMENT ON TYPE cm_e IS 'an enum';
COMMENT ON CONSTRAINT cm_t_pkey ON cm_t IS 'the key';
COMMENT ON CONSTRAINT cm_t_c_key ON cm_t IS 'unique';
COMMENT ON CONSTRAINT cm_bpos ON cm_t IS 'positive';
COMMENT ON CONSTRAINT cm_fk ON cm_child IS 'references cm_t';
COMMENT ON SCHEMA public IS 'the schema';
`;

const QUERIES = `SELECT c.relname, d.objsubid, d.description FROM pg_catalog.pg_description d JOIN pg_catalog.pg_class c ON c.oid = d.objoid WHERE d.classoid = 1259 ORDER BY 1, 2;
SELECT con.conname, d.description FROM pg_catalog.pg_description d JOIN pg_catalog.pg_constraint con ON con.oid = d.objoid WHERE d.classoid = 2606 ORDER BY 1;
SELECT t.typname, d.description FROM pg_catalog.pg_description d JOIN pg_catalog.pg_type t ON t.oid = d.objoid WHERE d.classoid = 1247 AND t.typnamespace <> 11 ORDER BY 1;
SELECT n.nspname, obj_description(n.oid, 'pg_namespace') FROM pg_catalog.pg_namespace n WHERE n.nspname = 'public';
SELECT obj_description('cm_v'::regclass, 'pg_class') AS v, obj_description('cm_s'::regclass) AS s, col_description('cm_v'::regclass, 2) AS vb, col_description('cm_m'::regclass, 1) AS ma;
`;

/** PostgreSQL 15's psql output for QUERIES after DDL. */
const DESCRIPTIONS = `  relname  | objsubid |   description    
-----------+----------+------------------
 cm_m      |        0 | a matview
 cm_m      |        1 | a matview column
 cm_s      |        0 | a sequence
 cm_t      |        0 | a table
 cm_t_pkey |        0 | the key index
 cm_ti     |        0 | an index
 cm_v      |        0 | a view
 cm_v      |        2 | a view column
(8 rows)

  conname   |   description   
------------+-----------------
 cm_bpos    | positive
 cm_fk      | references cm_t
 cm_t_c_key | unique
 cm_t_pkey  | the key
(4 rows)

 typname | description 
---------+-------------
 cm_e    | an enum
(1 row)

 nspname | obj_description 
---------+-----------------
 public  | the schema
(1 row)

   v    |     s      |      vb       |        ma        
--------+------------+---------------+------------------
 a view | a sequence | a view column | a matview column
(1 row)

`;

/**
 * psql's \`\\dv+\`, \`\\ds+\` and \`\\di+\`: PostgreSQL 15's, except Size (Pesto tracks none; PostgreSQL
 * prints "0 bytes" and "8192 bytes") and the narrower title that follows from it.
 */
const LISTS = `                        List of relations
 Schema | Name | Type | Owner | Persistence | Size | Description 
--------+------+------+-------+-------------+------+-------------
 public | cm_v | view | pesto | permanent   |      | a view
(1 row)

                          List of relations
 Schema | Name |   Type   | Owner | Persistence | Size | Description 
--------+------+----------+-------+-------------+------+-------------
 public | cm_s | sequence | pesto | permanent   |      | a sequence
(1 row)

                                        List of relations
 Schema |    Name    | Type  | Owner | Table | Persistence | Access method | Size |  Description  
--------+------------+-------+-------+-------+-------------+---------------+------+---------------
 public | cm_t_c_key | index | pesto | cm_t  | permanent   | btree         |      | 
 public | cm_t_pkey  | index | pesto | cm_t  | permanent   | btree         |      | the key index
 public | cm_ti      | index | pesto | cm_t  | permanent   | btree         |      | an index
(3 rows)

`;

/** PostgreSQL 15's psql output of \`\\dT+\` and \`\\dn+\`, and \`\\d+ cm_v\`'s columns (its definition prints differently). */
const TYPES_SCHEMAS = `                                    List of data types
 Schema | Name | Internal name | Size | Elements | Owner | Access privileges | Description 
--------+------+---------------+------+----------+-------+-------------------+-------------
 public | cm_e | cm_e          | 4    | x       +| pesto |                   | an enum
        |      |               |      | y        |       |                   | 
(1 row)

                                  List of schemas
  Name  |       Owner       |           Access privileges            | Description 
--------+-------------------+----------------------------------------+-------------
 public | pg_database_owner | pg_database_owner=UC/pg_database_owner+| the schema
        |                   | =U/pg_database_owner                   | 
(1 row)

                             View "public.cm_v"
 Column |  Type   | Collation | Nullable | Default | Storage |  Description  
--------+---------+-----------+----------+---------+---------+---------------
 a      | integer |           |          |         | plain   | 
 b      | integer |           |          |         | plain   | a view column
`;

/** PostgreSQL 15's psql output of \`\\dd\` (constraints' comments; the other kinds it lists Pesto has none of). */
const OBJECT_DESCRIPTIONS = `                   Object descriptions
 Schema |    Name    |      Object      |   Description   
--------+------------+------------------+-----------------
 public | cm_bpos    | table constraint | positive
 public | cm_fk      | table constraint | references cm_t
 public | cm_t_c_key | table constraint | unique
 public | cm_t_pkey  | table constraint | the key
(4 rows)

`;

const psql = (port: number, ...args: string[]): ReturnType<typeof runPsql> => runPsql(port, USER, ...args);

void test('comments on views, matviews, columns, indexes, sequences, constraints, enum types and schema public show in pg_description and psql as in PostgreSQL 15, and survive pg_dump and restore', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'pesto-comments-'));
  const gw = await startTestGateway();
  const copy = await startTestGateway();
  try {
    const ddl = join(dir, 'ddl.sql');
    const queries = join(dir, 'queries.sql');
    writeFileSync(ddl, DDL);
    writeFileSync(queries, QUERIES);
    const load = await psql(gw.port, '-q', '-v', 'ON_ERROR_STOP=1', '-f', ddl);
    assert.equal(load.stderr, '');
    const described = await psql(gw.port, '-f', queries);
    assert.equal(described.stdout, DESCRIPTIONS);
    const lists = await psql(gw.port, '-c', '\\dv+', '-c', '\\ds+', '-c', '\\di+');
    assert.equal(lists.stdout, LISTS);
    const others = await psql(gw.port, '-c', '\\dT+', '-c', '\\dn+', '-c', '\\d+ cm_v');
    assert.equal(others.stdout.slice(0, TYPES_SCHEMAS.length), TYPES_SCHEMAS);
    const dd = await psql(gw.port, '-c', '\\dd');
    assert.equal(dd.stderr, '');
    assert.equal(dd.stdout, OBJECT_DESCRIPTIONS);

    // pg_dump writes a COMMENT ON for each; restored into another Pesto, every one is there.
    const dump = await runPg('pg_dump', ['-h', '127.0.0.1', '-p', String(gw.port), '-U', USER, 'pesto'], PASSWORD);
    assert.equal(dump.code, 0, dump.stderr);
    assert.equal(dump.stdout.match(/^COMMENT ON /gm)?.length, 14);
    const file = join(dir, 'dump.sql');
    writeFileSync(file, dump.stdout);
    const restore = await psql(copy.port, '-q', '-v', 'ON_ERROR_STOP=1', '-f', file);
    assert.equal(restore.stderr, '');
    assert.equal((await psql(copy.port, '-f', queries)).stdout, DESCRIPTIONS);

    // NULL or '' removes a comment; dropping an object drops its comments.
    const removed = await psql(gw.port, '-q', '-v', 'ON_ERROR_STOP=1', '-c', "COMMENT ON VIEW cm_v IS ''", '-c', 'COMMENT ON SCHEMA public IS NULL', '-c', 'DROP MATERIALIZED VIEW cm_m',
      '-c', 'ALTER TABLE cm_t DROP CONSTRAINT cm_bpos', '-c', 'DROP INDEX cm_ti', '-c', 'ALTER SEQUENCE cm_s RENAME TO cm_s2',
      '-c', 'SELECT count(*) FILTER (WHERE classoid = 1259) AS rel, count(*) FILTER (WHERE classoid = 2606) AS con, count(*) FILTER (WHERE classoid = 2615) AS nsp FROM pg_catalog.pg_description WHERE objoid >= 16384 OR classoid = 2615',
      '-c', "SELECT obj_description('cm_s2'::regclass, 'pg_class')");
    assert.equal(removed.stderr, '');
    assert.equal(removed.stdout, ` rel | con | nsp \n-----+-----+-----\n   4 |   3 |   0\n(1 row)\n\n obj_description \n-----------------\n a sequence\n(1 row)\n\n`);
  } finally {
    await gw.close();
    await copy.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

void test('COMMENT ON DATABASE shows in pg_shdescription, shobj_description and \\l+, and pg_dump writes it with --create only, as PostgreSQL 15', async () => {
  const gw = await startTestGateway();
  try {
    const set = await psql(gw.port, '-c', "COMMENT ON DATABASE pesto IS 'the database'", '-c', "COMMENT ON DATABASE other IS 'elsewhere'");
    assert.equal(set.stdout, 'COMMENT\nCOMMENT\n');
    // Another database's name: PostgreSQL's warning, and nothing changes.
    assert.match(set.stderr, /^WARNING: {2}database "other" does not exist\n$/);
    const read = await psql(gw.port, '-At', '-c', "SELECT d.description FROM pg_catalog.pg_shdescription d JOIN pg_catalog.pg_database db ON db.oid = d.objoid WHERE d.classoid = 'pg_database'::regclass",
      '-c', "SELECT shobj_description(oid, 'pg_database') FROM pg_catalog.pg_database WHERE datname = current_database()");
    assert.equal(read.stdout, 'the database\nthe database\n');
    const list = await psql(gw.port, '-c', '\\l+');
    assert.match(list.stdout, /^ pesto \| .*\| pg_default \| the database$/m);
    const plain = await runPg('pg_dump', ['-h', '127.0.0.1', '-p', String(gw.port), '-U', USER, '-s', 'pesto'], PASSWORD);
    assert.equal(plain.code, 0, plain.stderr);
    assert.doesNotMatch(plain.stdout, /COMMENT ON DATABASE/);
    const created = await runPg('pg_dump', ['-h', '127.0.0.1', '-p', String(gw.port), '-U', USER, '-s', '--create', 'pesto'], PASSWORD);
    assert.equal(created.code, 0, created.stderr);
    assert.match(created.stdout, /^COMMENT ON DATABASE pesto IS 'the database';$/m);
    const removed = await psql(gw.port, '-At', '-c', 'COMMENT ON DATABASE pesto IS NULL', '-c', 'SELECT count(*) FROM pg_catalog.pg_shdescription');
    assert.equal(removed.stdout, 'COMMENT\n0\n');
  } finally {
    await gw.close();
  }
});
