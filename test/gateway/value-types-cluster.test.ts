/**
 * Over one six-replica cluster, the gateway checks of arrays of enum types, row values, time with time
 * zone (drivers and node-postgres against PostgreSQL 15's output), psql's `\d index` and DROP ... CASCADE's
 * notices: the same checks as enum-arrays.test.ts, records.test.ts, timetz.test.ts, index-describe.test.ts
 * and drop-cascade.test.ts run over the engine
 * (value-type-checks.ts).
 */
import { describe, it } from 'node:test';
import { clusterGatewayForSuite } from './gateway-fixture.ts';
import {
  enumArraysDriversMatchPostgres, enumArraysNodePg, indexDescribeMatchesPostgres, recordsDriversMatchPostgres, recordsNodePg,
  timeTzDriversMatchPostgres, timeTzNodePg, dropCascadeMatchesPostgres,
} from './value-type-checks.ts';

const CLUSTER_BASE_PORT = 9360;

void describe('enum arrays, row values, timetz, \\d index and cascade notices through the gateway over a cluster of six replicas', () => {
  const { port } = clusterGatewayForSuite('gw-value-types', CLUSTER_BASE_PORT);
  void it('arrays of enum types: psycopg2 and psycopg 3 see what they see on PostgreSQL 15', () => enumArraysDriversMatchPostgres(port()));
  void it("arrays of enum types: node-postgres gets the array type's oid, array text, binds arrays of labels", () => enumArraysNodePg(port()));
  void it('row values: psycopg2 and psycopg 3 see what they see on PostgreSQL 15', () => recordsDriversMatchPostgres(port()));
  void it("row values: node-postgres gets record's and the table row type's oids and record text", () => recordsNodePg(port()));
  void it('time with time zone: psycopg2 and psycopg 3 see what they see on PostgreSQL 15', () => timeTzDriversMatchPostgres(port()));
  void it('time with time zone: node-postgres gets the oids and text', () => timeTzNodePg(port()));
  void it("psql's \\d and \\d+ of indexes print what PostgreSQL 15 prints", () => indexDescribeMatchesPostgres(port()));
  void it("DROP ... CASCADE's notice and its DETAIL print as PostgreSQL 15's", () => dropCascadeMatchesPostgres(port()));
});
