/**
 * Row values (the record type) through the gateway over the engine (over a cluster: value-types-cluster.test.ts):
 * psycopg2 and psycopg 3 give what they give against PostgreSQL 15 (drivers/record_check.py,
 * testdata/records-drivers.txt): record_out's text, record_send's binary form (which psycopg 3 reads
 * into typed tuples), RowDescription's oids (2249 for ROW(...) and derived tables, pg_class.reltype
 * for a table's whole row), row null tests. node-postgres sees the same oids and texts.
 */
import { describe, it } from 'node:test';
import { engineGatewayForSuite } from './gateway-fixture.ts';
import { recordsDriversMatchPostgres, recordsNodePg } from './value-type-checks.ts';

void describe('row values through the gateway over the engine', () => {
  const port = engineGatewayForSuite();
  void it('psycopg2 and psycopg 3 see what they see on PostgreSQL 15', () => recordsDriversMatchPostgres(port()));
  void it("node-postgres gets record's and the table row type's oids and record text", () => recordsNodePg(port()));
});

