/**
 * Drivers against the gateway over the engine: psycopg2 (simple protocol, parameters interpolated by the
 * driver, named cursors), psycopg 3 (server-side binding, binary formats, prepared statements, pipelines,
 * server-side cursors, COPY, savepoints) and pgjdbc (extended protocol only, named statements from the
 * fifth execution, batches, fetch sizes as portal suspension, binary results, savepoints, generated
 * keys). The checks themselves are in drivers/ and compare values (they pass against PostgreSQL 15
 * too); the cluster runs them in cluster.test.ts. Skipped, with the reason, where Debian's packages are
 * not installed.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DRIVERS, runDriverChecks } from './client-scripts.ts';
import { PASSWORD, USER, startTestGateway } from './gateway-fixture.ts';

for (const driver of ['psycopg2', 'psycopg3', 'pgjdbc'] as const) {
  void test(`${driver} runs its checks through the gateway`, { skip: DRIVERS[driver].skip }, async (t) => {
    const gw = await startTestGateway();
    try {
      const r = await runDriverChecks(driver, gw.port, USER, PASSWORD, `${driver}_checks`);
      assert.equal(r.code, 0, r.output);
      assert.match(r.output, /^ok \d+ checks$/m);
      t.diagnostic(r.output.trim());
    } finally {
      await gw.close();
    }
  });
}
