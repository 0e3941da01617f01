/**
 * Arrays of enum types through the gateway, over the engine and over a six-replica cluster: psycopg2
 * and psycopg 3 (text and binary results, with and without its enum adapter, array parameters) give
 * what they give against PostgreSQL 15 (drivers/enum_array_check.py, testdata/enum-arrays-drivers.txt);
 * node-postgres sees the array type's oid (pg_type.typarray of the enum) in RowDescription, array text
 * with PostgreSQL's quoting, binds arrays of labels and gets PostgreSQL's 22P02. Binary results (the
 * enum's oid as the element type, also in an empty array) are checked through psycopg 3.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { runEnumArrayCheck } from './client-scripts.ts';
import { USER, clusterGatewayForSuite, engineGatewayForSuite, withPg } from './gateway-fixture.ts';

const CLUSTER_BASE_PORT = 9360;
const DRIVERS_EXPECTED = readFileSync(join(import.meta.dirname, 'testdata', 'enum-arrays-drivers.txt'), 'utf8');

async function driversMatchPostgres(port: number): Promise<void> {
  const r = await runEnumArrayCheck(port, USER);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout, DRIVERS_EXPECTED);
}

async function nodePg(port: number): Promise<void> {
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

void describe('arrays of enum types through the gateway over the engine', () => {
  const port = engineGatewayForSuite();
  void it('psycopg2 and psycopg 3 see what they see on PostgreSQL 15', () => driversMatchPostgres(port()));
  void it("node-postgres gets the array type's oid, array text, binds arrays of labels", () => nodePg(port()));
});

void describe('arrays of enum types through the gateway over a cluster of six replicas', () => {
  const { port } = clusterGatewayForSuite('gw-enum-arrays', CLUSTER_BASE_PORT);
  void it('psycopg2 and psycopg 3 see what they see on PostgreSQL 15', () => driversMatchPostgres(port()));
  void it("node-postgres gets the array type's oid, array text, binds arrays of labels", () => nodePg(port()));
});
