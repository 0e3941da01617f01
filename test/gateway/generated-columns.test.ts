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

void describe('generated columns and LIKE through psql over the engine', () => {
  const port = engineGatewayForSuite();
  void it('generated-columns.sql prints what PostgreSQL 15 prints', async () => {
    assert.deepEqual(await psqlScript('generated-columns', port(), USER, PASSWORD), scriptOutput('generated-columns'));
  });
  void it('create-table-like.sql prints what PostgreSQL 15 prints', async () => {
    assert.deepEqual(await psqlScript('create-table-like', port(), USER, PASSWORD), scriptOutput('create-table-like'));
  });
});

void describe('generated columns and LIKE through psql over a cluster', () => {
  const { port } = clusterGatewayForSuite('gw-generated', CLUSTER_BASE_PORT);
  void it('generated-columns.sql prints what PostgreSQL 15 prints', async () => {
    assert.deepEqual(await psqlScript('generated-columns', port(), USER, PASSWORD), scriptOutput('generated-columns'));
  });
  void it('create-table-like.sql prints what PostgreSQL 15 prints', async () => {
    assert.deepEqual(await psqlScript('create-table-like', port(), USER, PASSWORD), scriptOutput('create-table-like'));
  });
});
