/**
 * Stored generated columns and CREATE TABLE ... LIKE through psql: testdata/generated-columns.sql (`\d`,
 * `\d+`, information_schema.columns, pg_attribute, pg_attrdef, COPY FROM and TO, 428C9 and 42P10, ADD
 * COLUMN, DROP EXPRESSION, DROP COLUMN ... CASCADE) and testdata/create-table-like.sql (each INCLUDING
 * option as `\d` shows it, the new identity sequences, the errors) print what PostgreSQL 15 prints
 * (testdata/*.out and .err, connected as pesto), over the engine and over a six-replica cluster.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { psqlScript, scriptOutput } from './client-scripts.ts';
import { PASSWORD, USER, clusterGatewayForSuite, engineGatewayForSuite } from './gateway-fixture.ts';

const CLUSTER_BASE_PORT = 9080;

/** Each script, run with psql against the gateway on `port()`, prints what PostgreSQL 15 prints. */
function scripts(port: () => number): void {
  for (const name of ['generated-columns', 'create-table-like'] as const) {
    void it(`${name}.sql prints what PostgreSQL 15 prints`, async () => {
      assert.deepEqual(await psqlScript(name, port(), USER, PASSWORD), scriptOutput(name));
    });
  }
}

void describe('generated columns and LIKE through psql over the engine', () => scripts(engineGatewayForSuite()));

void describe('generated columns and LIKE through psql over a cluster', () => scripts(clusterGatewayForSuite('gw-generated', CLUSTER_BASE_PORT).port));
