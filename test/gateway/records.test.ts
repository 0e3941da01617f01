/**
 * Row values (the record type) through the gateway, over the engine and over a six-replica cluster:
 * psycopg2 and psycopg 3 give what they give against PostgreSQL 15 (drivers/record_check.py,
 * testdata/records-drivers.txt): record_out's text, record_send's binary form (which psycopg 3 reads
 * into typed tuples), RowDescription's oids (2249 for ROW(...) and derived tables, pg_class.reltype
 * for a table's whole row), row null tests. node-postgres sees the same oids and texts.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { runRecordCheck } from './client-scripts.ts';
import { USER, clusterGatewayForSuite, engineGatewayForSuite, withPg } from './gateway-fixture.ts';

const CLUSTER_BASE_PORT = 9366;
const DRIVERS_EXPECTED = readFileSync(join(import.meta.dirname, 'testdata', 'records-drivers.txt'), 'utf8');

async function driversMatchPostgres(port: number): Promise<void> {
  const r = await runRecordCheck(port, USER);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout, DRIVERS_EXPECTED);
}

async function nodePg(port: number): Promise<void> {
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

void describe('row values through the gateway over the engine', () => {
  const port = engineGatewayForSuite();
  void it('psycopg2 and psycopg 3 see what they see on PostgreSQL 15', () => driversMatchPostgres(port()));
  void it("node-postgres gets record's and the table row type's oids and record text", () => nodePg(port()));
});

void describe('row values through the gateway over a cluster of six replicas', () => {
  const { port } = clusterGatewayForSuite('gw-records', CLUSTER_BASE_PORT);
  void it('psycopg2 and psycopg 3 see what they see on PostgreSQL 15', () => driversMatchPostgres(port()));
  void it("node-postgres gets record's and the table row type's oids and record text", () => nodePg(port()));
});
