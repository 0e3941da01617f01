/**
 * Arrays of enum types through the gateway over the engine (over a cluster: value-types-cluster.test.ts): psycopg2
 * and psycopg 3 (text and binary results, with and without its enum adapter, array parameters) give
 * what they give against PostgreSQL 15 (drivers/enum_array_check.py, testdata/enum-arrays-drivers.txt);
 * node-postgres sees the array type's oid (pg_type.typarray of the enum) in RowDescription, array text
 * with PostgreSQL's quoting, binds arrays of labels and gets PostgreSQL's 22P02. Binary results (the
 * enum's oid as the element type, also in an empty array) are checked through psycopg 3.
 */
import { describe, it } from 'node:test';
import { engineGatewayForSuite } from './gateway-fixture.ts';
import { enumArraysDriversMatchPostgres, enumArraysNodePg } from './value-type-checks.ts';

void describe('arrays of enum types through the gateway over the engine', () => {
  const port = engineGatewayForSuite();
  void it('psycopg2 and psycopg 3 see what they see on PostgreSQL 15', () => enumArraysDriversMatchPostgres(port()));
  void it("node-postgres gets the array type's oid, array text, binds arrays of labels", () => enumArraysNodePg(port()));
});

