/**
 * time through the gateway with real clients over the single-node engine and over a cluster of six
 * replica processes: psycopg2 sending and reading datetime.time (text protocol) with COPY text and CSV;
 * psycopg 3 with binary parameters and results (OID 1083, int64 microseconds) and binary COPY both ways;
 * node `pg`, which hands time values over as strings; psql's display of values and of `\d` and the
 * information_schema's view of time columns. The expected values are PostgreSQL 15's.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { DATABASE, PASSWORD, USER, clusterGatewayForSuite, engineGatewayForSuite, withPg } from './gateway-fixture.ts';
import { DRIVERS, PYTHON, runClient } from './client-scripts.ts';

const BASE_PORT = 8940;
const PSQL = '/usr/lib/postgresql/15/bin/psql';
const pythonSkip = DRIVERS.psycopg2.skip || DRIVERS.psycopg3.skip;

async function pythonDrivers(port: number): Promise<void> {
  const r = await runClient(PYTHON, [join(import.meta.dirname, 'drivers', 'time_check.py'), String(port), USER, PASSWORD, DATABASE]);
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(JSON.parse(r.stdout), {
    psycopg2_types: [23, 1083, 1083],
    psycopg2: [[1, '10:20:30.000005', '08:00:00.130000'], [2, '23:59:59.999999', null]],
    csv: ['1,10:20:30.000005,08:00:00.13', '2,23:59:59.999999,', '3,24:00:00,01:02:03.46', '4,07:08:00,'],
    text: ['1\t10:20:30.000005\t08:00:00.13', '2\t23:59:59.999999\t\\N', '3\t24:00:00\t01:02:03.46', '4\t07:08:00\t\\N'],
    binary_types: [23, 1083, 1083, 1186],
    binary: [[1, '10:20:30.000005', '08:00:00.130000', '9:20:30.000005'], [5, '12:34:56.789012', '00:00:00', '11:34:56.789012']],
    copy_binary: [[5, '12:34:56.789012'], [6, '06:30:00.000001']],
    error: ['22008', 'date/time field value out of range: "25:00"'],
  });
}

async function pgDriver(port: number): Promise<void> {
  await withPg(port, async (c) => {
    await c.query('CREATE TABLE pg_time (id int PRIMARY KEY, t time)');
    await c.query('INSERT INTO pg_time VALUES ($1, $2), ($3, $4)', [1, '10:20:30.5', 2, '2020-01-01 23:00']);
    const r = await c.query('SELECT id, t, t + $1::interval AS later FROM pg_time WHERE t < $2 ORDER BY t', ['2 hours', '23:30']);
    assert.deepEqual(r.fields.map((f) => f.dataTypeID), [23, 1083, 1083]);
    assert.deepEqual(r.rows, [{ id: 1, t: '10:20:30.5', later: '12:20:30.5' }, { id: 2, t: '23:00:00', later: '01:00:00' }]);
    await c.query('DROP TABLE pg_time');
  });
}

const PSQL_SCRIPT = String.raw`CREATE TABLE pt (id int PRIMARY KEY, t time, p time(3));
INSERT INTO pt VALUES (1, '10:20:30.5', '24:00');
SELECT t, p, localtime(0) < '24:00' AS ok FROM pt;
\d pt
SELECT column_name, data_type, datetime_precision FROM information_schema.columns WHERE table_name = 'pt' ORDER BY ordinal_position;
DROP TABLE pt;
`;

/** What psql prints for PSQL_SCRIPT against PostgreSQL 15. */
const PSQL_OUTPUT = `CREATE TABLE
INSERT 0 1
     t      |    p     | ok 
------------+----------+----
 10:20:30.5 | 24:00:00 | t
(1 row)

                          Table "public.pt"
 Column |           Type            | Collation | Nullable | Default 
--------+---------------------------+-----------+----------+---------
 id     | integer                   |           | not null | 
 t      | time without time zone    |           |          | 
 p      | time(3) without time zone |           |          | 
Indexes:
    "pt_pkey" PRIMARY KEY, btree (id)

 column_name |       data_type        | datetime_precision 
-------------+------------------------+--------------------
 id          | integer                |                   
 t           | time without time zone |                  6
 p           | time without time zone |                  3
(3 rows)

DROP TABLE
`;

async function psql(port: number): Promise<void> {
  const r = await runClient(PSQL, ['-X', '-h', '127.0.0.1', '-p', String(port), '-U', USER, '-d', DATABASE], PSQL_SCRIPT);
  assert.equal(r.stderr, '');
  assert.equal(r.stdout, PSQL_OUTPUT);
}

void describe('time through the gateway over the engine', () => {
  const port = engineGatewayForSuite();
  void it('round-trips psycopg2 and psycopg 3 datetime.time values in text, binary and COPY', { skip: pythonSkip }, () => pythonDrivers(port()));
  void it('hands node pg time values as strings', () => pgDriver(port()));
  void it('shows time values and columns in psql as PostgreSQL does', () => psql(port()));
});

void describe('time through the gateway over a cluster of six replicas', () => {
  const { port } = clusterGatewayForSuite('gw-time', BASE_PORT);
  void it('round-trips psycopg2 and psycopg 3 datetime.time values in text, binary and COPY', { skip: pythonSkip }, () => pythonDrivers(port()));
  void it('hands node pg time values as strings', () => pgDriver(port()));
  void it('shows time values and columns in psql as PostgreSQL does', () => psql(port()));
});
