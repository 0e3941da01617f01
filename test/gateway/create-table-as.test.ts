/**
 * CREATE TABLE AS and SELECT INTO through the gateway (client/gateway/gateway-ctas.ts), and materialized
 * views (sql/matviews.ts), over the engine and over a cluster of six replicas: psql runs
 * testdata/create-table-as.sql (column names, types and modifiers as `\d` shows them, rows, WITH NO
 * DATA, IF NOT EXISTS, column lists and their errors, a rolled-back transaction) and
 * testdata/matviews.sql (CREATE, REFRESH [CONCURRENTLY] [WITH NO DATA], `\d`, `\dm`, pg_matviews,
 * pg_class, information_schema, refused writes, a rolled-back refresh, dependents) and prints what
 * PostgreSQL 15 prints.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { psqlScript, scriptOutput } from './client-scripts.ts';
import { PASSWORD, USER, clusterGatewayForSuite, engineGatewayForSuite } from './gateway-fixture.ts';

const CLUSTER_BASE_PORT = 8980;

void describe('CREATE TABLE AS through the gateway over the engine', () => {
  const port = engineGatewayForSuite();
  void it('makes and fills tables as PostgreSQL 15 does', async () => {
    assert.deepEqual(await psqlScript('create-table-as', port(), USER, PASSWORD), scriptOutput('create-table-as'));
  });
  void it('makes, refreshes and describes materialized views as PostgreSQL 15 does', async () => {
    assert.deepEqual(await psqlScript('matviews', port(), USER, PASSWORD), scriptOutput('matviews'));
  });
});

void describe('CREATE TABLE AS through the gateway over a cluster of six replicas', () => {
  const { port } = clusterGatewayForSuite('gw-ctas', CLUSTER_BASE_PORT);
  void it('makes and fills tables as PostgreSQL 15 does', async () => {
    assert.deepEqual(await psqlScript('create-table-as', port(), USER, PASSWORD), scriptOutput('create-table-as'));
  });
  void it('makes, refreshes and describes materialized views as PostgreSQL 15 does', async () => {
    assert.deepEqual(await psqlScript('matviews', port(), USER, PASSWORD), scriptOutput('matviews'));
  });
});
