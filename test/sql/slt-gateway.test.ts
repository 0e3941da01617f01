// The SQL conformance suite end to end through the PostgreSQL wire gateway: every test/sql/*.slt file
// sent by the node `pg` driver (simple query protocol, SCRAM, text results) to a gateway over a fresh
// single-node engine, one test per file. It must fail exactly where the engine alone fails
// (known-failures.txt, empty today), so the wire path adds no failure of its own. The cluster backend
// will run the same files through the same backend module.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { openGatewayDatabase } from './gateway-database.ts';
import { corpusFiles, describeFailures, loadScript, readKnownFailures, runFile } from './slt-files.ts';

const known = readKnownFailures();

for (const file of corpusFiles()) {
  const { script } = loadScript(file);
  void test(`${script.name} passes through the gateway`, async () => {
    const report = await runFile(script, openGatewayDatabase);
    assert.equal(report.halted, false, `${script.name} halted`);
    const unexpected = report.failures.filter((f) => !known.has(`${script.name}:${f.line}`));
    assert.equal(
      unexpected.length,
      0,
      `${unexpected.length} records fail through the gateway but not on the engine:\n${describeFailures({ ...report, failures: unexpected }, 10)}`,
    );
    assert.ok(report.passed > 0, `${script.name}: no record passed`);
  });
}
