// The SQL conformance suite: every test/sql/*.slt file against the single-node Pesto engine, one test
// per file. A file passes when every failing record is listed in known-failures.txt and every listed
// record still fails, so the list is always exactly what is left to do. The expected results are
// proven on real PostgreSQL 15 by `scripts/slt-report.ts --backend postgresql` (not part of npm test).
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

import { openPestoDatabase } from './pesto-database.ts';
import { corpusDir, corpusFiles, describeFailures, loadScript, readKnownFailures, runFile } from './slt-files.ts';

const known = readKnownFailures();

for (const file of corpusFiles()) {
  const { script } = loadScript(file);
  void test(`${script.name} passes on the single-node engine`, async () => {
    const report = await runFile(script, openPestoDatabase);
    const unexpected = report.failures.filter((f) => !known.has(`${script.name}:${f.line}`));
    const fixed = report.passedLines.filter((line) => known.has(`${script.name}:${line}`));
    assert.equal(
      unexpected.length,
      0,
      `${unexpected.length} failing records not in known-failures.txt:\n${describeFailures({ ...report, failures: unexpected }, 10)}`,
    );
    assert.deepEqual(fixed, [], `records listed in known-failures.txt now pass; remove ${script.name}:${fixed.join(`, ${script.name}:`)}`);
  });
}

void test('every known failure names a record of the corpus', () => {
  for (const key of known) {
    const [name = '', line = ''] = key.split(':');
    const path = join(corpusDir, name);
    assert.ok(existsSync(path), `${key}: no such file`);
    const { script } = loadScript(path);
    assert.ok(
      script.records.some((r) => String(r.line) === line),
      `${key}: no record starts on that line`,
    );
  }
});
