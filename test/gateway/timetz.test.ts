/**
 * time with time zone through the gateway, over the engine and over a six-replica cluster: psycopg2 and
 * psycopg 3 (text and binary results, timetz[] arrays, a binary parameter, AT TIME ZONE) give what they
 * give against PostgreSQL 15 (drivers/timetz_check.py, testdata/timetz-drivers.txt); node-postgres sees
 * oids 1266 and 1270 and PostgreSQL's text.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { runTimeTzCheck } from './client-scripts.ts';
import { USER, clusterGatewayForSuite, engineGatewayForSuite, withPg } from './gateway-fixture.ts';

const CLUSTER_BASE_PORT = 9372;
const DRIVERS_EXPECTED = readFileSync(join(import.meta.dirname, 'testdata', 'timetz-drivers.txt'), 'utf8');

async function driversMatchPostgres(port: number): Promise<void> {
  const r = await runTimeTzCheck(port, USER);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout, DRIVERS_EXPECTED);
}

async function nodePg(port: number): Promise<void> {
  await withPg(port, async (c) => {
    const r = await c.query("SELECT '12:34:56.25-03:30'::timetz AS t, ARRAY['01:00+01'::timetz] AS a, $1::timetz AS p", ['23:00:00+14']);
    assert.deepEqual(r.fields.map((f) => f.dataTypeID), [1266, 1270, 1266]);
    assert.deepEqual(r.rows, [{ t: '12:34:56.25-03:30', a: ['01:00:00+01'], p: '23:00:00+14' }]);
  });
}

void describe('time with time zone through the gateway over the engine', () => {
  const port = engineGatewayForSuite();
  void it('psycopg2 and psycopg 3 see what they see on PostgreSQL 15', () => driversMatchPostgres(port()));
  void it('node-postgres gets the oids and text of time with time zone', () => nodePg(port()));
});

void describe('time with time zone through the gateway over a cluster of six replicas', () => {
  const { port } = clusterGatewayForSuite('gw-timetz', CLUSTER_BASE_PORT);
  void it('psycopg2 and psycopg 3 see what they see on PostgreSQL 15', () => driversMatchPostgres(port()));
  void it('node-postgres gets the oids and text of time with time zone', () => nodePg(port()));
});
