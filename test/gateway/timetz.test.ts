/**
 * time with time zone through the gateway over the engine (over a cluster: value-types-cluster.test.ts): psycopg2 and
 * psycopg 3 (text and binary results, timetz[] arrays, a binary parameter, AT TIME ZONE) give what they
 * give against PostgreSQL 15 (drivers/timetz_check.py, testdata/timetz-drivers.txt); node-postgres sees
 * oids 1266 and 1270 and PostgreSQL's text.
 */
import { describe, it } from 'node:test';
import { engineGatewayForSuite } from './gateway-fixture.ts';
import { timeTzDriversMatchPostgres, timeTzNodePg } from './value-type-checks.ts';

void describe('time with time zone through the gateway over the engine', () => {
  const port = engineGatewayForSuite();
  void it('psycopg2 and psycopg 3 see what they see on PostgreSQL 15', () => timeTzDriversMatchPostgres(port()));
  void it('node-postgres gets the oids and text of time with time zone', () => timeTzNodePg(port()));
});

