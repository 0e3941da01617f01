/**
 * CHECK and FOREIGN KEY constraints in the system catalog (client/gateway/catalog-constraints.ts,
 * sql/check-text.ts): psql's testdata/constraints-catalog.sql (pg_constraint with conkey/confkey,
 * pg_get_constraintdef pretty and not, information_schema.check_constraints, TypeORM's and SQLAlchemy's
 * constraint queries, `\d`) prints what PostgreSQL 15 prints, over the engine and over a cluster.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { psqlScript, scriptOutput } from './client-scripts.ts';
import { PASSWORD, USER, clusterGatewayForSuite, engineGatewayForSuite } from './gateway-fixture.ts';

const CLUSTER_BASE_PORT = 8700;

void describe('constraints in the system catalog through the gateway over the engine', () => {
  const port = engineGatewayForSuite();
  void it('psql reads CHECK and FOREIGN KEY constraints as from PostgreSQL 15', async () => {
    assert.deepEqual(await psqlScript('constraints-catalog', port(), USER, PASSWORD), scriptOutput('constraints-catalog'));
  });
});

void describe('constraints in the system catalog through the gateway over a cluster of six replicas', () => {
  const { port } = clusterGatewayForSuite('gw-constraints', CLUSTER_BASE_PORT);
  void it('psql reads CHECK and FOREIGN KEY constraints as from PostgreSQL 15', async () => {
    assert.deepEqual(await psqlScript('constraints-catalog', port(), USER, PASSWORD), scriptOutput('constraints-catalog'));
  });
});
