/**
 * ALTER DEFAULT PRIVILEGES through the gateway (sql/default-privileges.ts; pg_default_acl in
 * client/gateway/system-catalog.ts): psql's `\ddp` and `\dp` of a table created afterwards print what
 * they print against PostgreSQL 15 for the same script, and pg_dump writes the same ALTER DEFAULT
 * PRIVILEGES statements PostgreSQL 15's pg_dump writes for it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DATABASE, PASSWORD, USER, runPsql, startTestGateway } from './gateway-fixture.ts';
import { runPg } from './pg-dump-tools.ts';

const SETUP = `CREATE ROLE dp_reader;
CREATE ROLE dp_writer;
ALTER DEFAULT PRIVILEGES GRANT SELECT ON TABLES TO dp_reader;
ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT INSERT, UPDATE ON TABLES TO dp_writer;
ALTER DEFAULT PRIVILEGES GRANT USAGE ON SEQUENCES TO dp_writer;
ALTER DEFAULT PRIVILEGES GRANT EXECUTE ON FUNCTIONS TO dp_reader;
ALTER DEFAULT PRIVILEGES REVOKE EXECUTE ON FUNCTIONS FROM PUBLIC;`;

// psql 15 against PostgreSQL 15.
const EXPECTED = `            Default access privileges
 Owner | Schema |   Type   |  Access privileges  
-------+--------+----------+---------------------
 pesto | public | table    | dp_writer=aw/pesto
 pesto |        | function | pesto=X/pesto      +
       |        |          | dp_reader=X/pesto
 pesto |        | sequence | pesto=rwU/pesto    +
       |        |          | dp_writer=U/pesto
 pesto |        | table    | pesto=arwdDxt/pesto+
       |        |          | dp_reader=r/pesto
(4 rows)

                             Access privileges
 Schema | Name | Type  |  Access privileges  | Column privileges | Policies 
--------+------+-------+---------------------+-------------------+----------
 public | dp_t | table | pesto=arwdDxt/pesto+|                   | 
        |      |       | dp_reader=r/pesto  +|                   | 
        |      |       | dp_writer=aw/pesto  |                   | 
(1 row)

`;

// PostgreSQL 15's pg_dump of the same database.
const DUMPED = [
  'GRANT SELECT ON TABLE public.dp_t TO dp_reader;',
  'GRANT INSERT,UPDATE ON TABLE public.dp_t TO dp_writer;',
  'ALTER DEFAULT PRIVILEGES FOR ROLE pesto IN SCHEMA public GRANT INSERT,UPDATE ON TABLES  TO dp_writer;',
  'ALTER DEFAULT PRIVILEGES FOR ROLE pesto GRANT USAGE ON SEQUENCES  TO dp_writer;',
  'ALTER DEFAULT PRIVILEGES FOR ROLE pesto REVOKE ALL ON FUNCTIONS  FROM PUBLIC;',
  'ALTER DEFAULT PRIVILEGES FOR ROLE pesto GRANT ALL ON FUNCTIONS  TO dp_reader;',
  'ALTER DEFAULT PRIVILEGES FOR ROLE pesto GRANT SELECT ON TABLES  TO dp_reader;',
];

void test('ALTER DEFAULT PRIVILEGES: psql \\ddp and \\dp, and pg_dump, as against PostgreSQL 15', async () => {
  const gw = await startTestGateway();
  try {
    const r = await runPsql(gw.port, USER, '-q', '-v', 'ON_ERROR_STOP=1', '-c', SETUP);
    assert.equal(r.code, 0, r.stderr);
    const listed = await runPsql(gw.port, USER, '-c', '\\ddp', '-c', 'CREATE TABLE dp_t (a int)', '-c', '\\dp dp_t');
    assert.equal(listed.code, 0, listed.stderr);
    assert.equal(listed.stdout.replace('CREATE TABLE\n', ''), EXPECTED);
    const dump = await runPg('pg_dump', ['-h', '127.0.0.1', '-p', String(gw.port), '-U', USER, '-d', DATABASE, '--schema-only'], PASSWORD);
    assert.equal(dump.code, 0, dump.stderr);
    const lines = dump.stdout.split('\n').filter((l) => l.startsWith('ALTER DEFAULT PRIVILEGES') || l.startsWith('GRANT'));
    assert.deepEqual(lines, DUMPED);
  } finally {
    await gw.close();
  }
});
