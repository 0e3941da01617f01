/**
 * SQLAlchemy 1.4 (Debian's python3-sqlalchemy, psycopg2 dialect) through the gateway, over the engine
 * and over a six-replica cluster: MetaData.create_all twice (the second creates nothing: has_table and
 * has_sequence find what the first made), an ORM session's add, commit, query, update and delete, and
 * reflection: inspect()'s table, view and sequence names, columns (types, nullability, server defaults,
 * SERIAL's and an identity column's autoincrement), primary keys, foreign keys, indexes (pg_index.indkey
 * as int2vector, unnest and generate_subscripts over it), unique and check constraints, and
 * MetaData.reflect() of the tables and a view. drivers/sqlalchemy_check.py prints what it saw as JSON;
 * testdata/sqlalchemy-reflect.json is what the same script prints against PostgreSQL 15 (regenerate:
 * `/usr/bin/python3 test/gateway/drivers/sqlalchemy_check.py PORT USER PASSWORD DB sa` against a fresh
 * database). Skipped, with the reason, where Debian's package is not installed.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { SQLALCHEMY_SKIP, runSqlalchemyCheck } from './client-scripts.ts';
import { USER, clusterGatewayForSuite, engineGatewayForSuite } from './gateway-fixture.ts';

const CLUSTER_BASE_PORT = 8840;
const EXPECTED: unknown = JSON.parse(readFileSync(join(import.meta.dirname, 'testdata', 'sqlalchemy-reflect.json'), 'utf8'));

async function scenario(port: number): Promise<void> {
  const r = await runSqlalchemyCheck(port, USER, 'sa');
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(JSON.parse(r.stdout), EXPECTED);
}

void describe('SQLAlchemy through the gateway over the engine', { skip: SQLALCHEMY_SKIP }, () => {
  const port = engineGatewayForSuite();
  void it('creates the schema twice, runs an ORM session and reflects what PostgreSQL 15 reflects', () => scenario(port()));
});

void describe('SQLAlchemy through the gateway over a cluster of six replicas', { skip: SQLALCHEMY_SKIP }, () => {
  const { port } = clusterGatewayForSuite('gw-sqlalchemy', CLUSTER_BASE_PORT);
  void it('creates the schema twice, runs an ORM session and reflects what PostgreSQL 15 reflects', () => scenario(port()));
});
