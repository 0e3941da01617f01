/**
 * knex's migrations and query builder through the gateway over the engine (knex-scenario.ts; the
 * cluster runs the same scenario in cluster.test.ts).
 */
import { test } from 'node:test';
import { knexScenario } from './knex-scenario.ts';
import { DATABASE, PASSWORD, USER, startTestGateway } from './gateway-fixture.ts';

void test('knex migrates up (tables, index, added column), queries, and rolls every migration back', async () => {
  const gw = await startTestGateway();
  try {
    await knexScenario(gw.port, USER, PASSWORD, DATABASE);
  } finally {
    await gw.close();
  }
});
