/**
 * Sequelize's schema sync, introspection, CRUD and transactions (sequelize-scenario.ts) through the
 * gateway over the engine and over a six-replica cluster, and the same assertions against PostgreSQL 15;
 * and psql's testdata/orm-catalog.sql (pg_index, pg_constraint, pg_attrdef, pg_get_indexdef, format_type,
 * ..., Sequelize's own catalog queries) printing what PostgreSQL 15 prints, over the engine and the cluster.
 */
import { after, before, describe, it } from 'node:test';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import assert from 'node:assert/strict';
import { PG_BIN, startPostgres, type PostgresServer } from '../../bench/postgres-server.ts';
import { sequelizeScenario, sequelizeTypeChange } from './sequelize-scenario.ts';
import { psqlScript, scriptOutput } from './client-scripts.ts';
import { DATABASE, PASSWORD, USER, clusterGatewayForSuite, engineGatewayForSuite } from './gateway-fixture.ts';

const CLUSTER_BASE_PORT = 8000;
const POSTGRES_PORT = 8040;

/** The same three checks through a gateway on `port` (over the engine or a cluster). */
function gatewayChecks(port: () => number): void {
  void it('changes a column\'s type with sync({ alter: true }), its rows converted', async () => {
    assert.equal(await sequelizeTypeChange({ port: port(), user: USER, password: PASSWORD, database: DATABASE }), null);
  });
  void it('syncs (twice, then with alter), describes, queries and runs transactions', () =>
    sequelizeScenario({ port: port(), user: USER, password: PASSWORD, database: DATABASE }));
  void it('psql reads pg_index, pg_constraint, pg_attrdef and their functions as from PostgreSQL 15', async () => {
    assert.deepEqual(await psqlScript('orm-catalog', port(), USER, PASSWORD), scriptOutput('orm-catalog'));
  });
}

void describe('Sequelize through the gateway over the engine', () => {
  gatewayChecks(engineGatewayForSuite());
});

void describe('Sequelize through the gateway over a cluster of six replicas', () => {
  gatewayChecks(clusterGatewayForSuite('gw-sequelize', CLUSTER_BASE_PORT).port);
});

void describe('Sequelize against PostgreSQL 15 (the scenario\'s expectations)', { skip: existsSync(join(PG_BIN, 'postgres')) ? false : `no PostgreSQL 15 at ${PG_BIN}` }, () => {
  let server: PostgresServer | undefined;
  before(() => {
    server = startPostgres(POSTGRES_PORT);
  });
  after(() => server?.stop());
  void it('passes the same scenario', () =>
    sequelizeScenario({ port: POSTGRES_PORT, user: 'postgres', password: '', database: 'postgres' }));
  void it('changes a column\'s type with sync({ alter: true })', async () => {
    assert.equal(await sequelizeTypeChange({ port: POSTGRES_PORT, user: 'postgres', password: '', database: 'postgres' }), null);
  });
});
