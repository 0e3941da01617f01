// The SQL conformance suite end to end over a real cluster (issue 5): every test/sql/*.slt file sent by
// the node `pg` driver to the wire gateway, which runs it as one Pesto client against six replica
// processes over gRPC (test/sql/cluster-database.ts). One cluster serves the whole corpus; each file
// starts on an empty database (the tables the previous file left are dropped first) in a new session.
// A file must fail exactly where the single-node engine fails (known-failures.txt, empty today): every
// other failure is a difference between the cluster path and the engine. No record is skipped.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';

import { startSltCluster, type SltCluster } from './cluster-database.ts';
import { corpusFiles, describeFailures, loadScript, readKnownFailures, runFile } from './slt-files.ts';

const BASE_PORT = 7800;
const known = readKnownFailures();

void describe('the sqllogictest corpus over a cluster of six replicas, through the gateway', () => {
  let cluster: SltCluster | undefined;
  before(async () => {
    cluster = await startSltCluster('slt', BASE_PORT);
  });
  after(async () => {
    await cluster?.stop();
  });

  for (const file of corpusFiles()) {
    const { script } = loadScript(file);
    void it(`${script.name} passes on the cluster`, async () => {
      assert.ok(cluster !== undefined, 'the cluster started');
      const report = await runFile(script, () => cluster!.open());
      assert.equal(report.halted, false, `${script.name} halted`);
      assert.equal(report.skipped, 0, `${script.name}: ${report.skipped} records skipped`);
      const unexpected = report.failures.filter((f) => !known.has(`${script.name}:${f.line}`));
      assert.equal(
        unexpected.length,
        0,
        `${unexpected.length} records fail on the cluster but not on the engine:\n${describeFailures({ ...report, failures: unexpected }, 10)}`,
      );
      assert.ok(report.passed > 0, `${script.name}: no record passed`);
    });
  }
});
