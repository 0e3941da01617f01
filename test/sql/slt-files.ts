// File-system side of the sqllogictest suite: finding the corpus, running one file against a freshly
// opened backend, and reading the known-failure list. The runner itself (sql/slt/) does no I/O.
import { readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { parseSlt } from '../../sql/slt/parse-slt.ts';
import { runSlt } from '../../sql/slt/run-slt.ts';
import type { SltReport } from '../../sql/slt/run-slt.ts';
import type { SltDatabase } from '../../sql/slt/slt-database.ts';
import type { SltScript } from '../../sql/slt/slt-record.ts';
import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { SltCluster } from './cluster-database.ts';
import { CATALOG_COMPACT_AT } from '../../sql/replicated-catalog.ts';

/** A backend opened for one script; `close` releases it (drops the scratch database, ...). */
export type OpenedDatabase = { readonly db: SltDatabase; close(): Promise<void> };

export const corpusDir = dirname(fileURLToPath(import.meta.url));
export const knownFailuresPath = join(corpusDir, 'known-failures.txt');

/** Every `.slt` file of the corpus, sorted, as absolute paths. */
export function corpusFiles(): string[] {
  return readdirSync(corpusDir)
    .filter((f) => f.endsWith('.slt'))
    .sort()
    .map((f) => join(corpusDir, f));
}

export function loadScript(path: string): { script: SltScript; text: string } {
  const text = readFileSync(path, 'utf8');
  return { script: parseSlt(basename(path), text), text };
}

/** Runs a script against a backend opened for it alone, and always closes the backend. */
export async function runFile(script: SltScript, open: () => Promise<OpenedDatabase>): Promise<SltReport> {
  const opened = await open();
  try {
    return await runSlt(script, opened.db);
  } finally {
    await opened.close();
  }
}

/**
 * The known-failure list: `file.slt:line` entries, one per line (`#` starts a comment), naming records
 * the Pesto engine does not pass yet. Returned as a set of `file:line` keys.
 */
export function readKnownFailures(path = knownFailuresPath): Set<string> {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return new Set();
  }
  const keys = text
    .split('\n')
    .map((l) => l.replace(/#.*$/, '').trim())
    .filter((l) => l !== '');
  return new Set(keys);
}

/** A human-readable account of a report's failures, for test messages and the report command. */
export function describeFailures(report: SltReport, limit = Infinity): string {
  const shown = report.failures.slice(0, limit).map((f) => {
    const parts = [`${report.name}:${f.line}: ${f.reason}`, indent(f.sql, '  sql> ')];
    if (f.expected !== '' || f.actual !== '') {
      parts.push(indent(f.expected, '  expected> '), indent(f.actual, '  actual>   '));
    }
    return parts.join('\n');
  });
  const more = report.failures.length > limit ? [`... and ${report.failures.length - limit} more`] : [];
  return [...shown, ...more].join('\n');
}

function indent(text: string, prefix: string): string {
  return text
    .split('\n')
    .map((l) => prefix + l)
    .join('\n');
}

const knownOnCluster = readKnownFailures();

/**
 * Every corpus file on the cluster `get` returns, failing only where the engine fails; then the catalog
 * the corpus's DDL left must be compacted (decision 0077): an image followed by at most `compactAt` entries.
 */
export function corpusOn(get: () => SltCluster | undefined, compactAt = CATALOG_COMPACT_AT): void {
  for (const file of corpusFiles()) {
    const { script } = loadScript(file);
    void it(`${script.name} passes on the cluster`, async () => {
      const cluster = get();
      assert.ok(cluster !== undefined, 'the cluster started');
      const report = await runFile(script, () => cluster.open());
      assert.equal(report.halted, false, `${script.name} halted`);
      assert.equal(report.skipped, 0, `${script.name}: ${report.skipped} records skipped`);
      const unexpected = report.failures.filter((f) => !knownOnCluster.has(`${script.name}:${f.line}`));
      assert.equal(
        unexpected.length,
        0,
        `${unexpected.length} records fail on the cluster but not on the engine:\n${describeFailures({ ...report, failures: unexpected }, 10)}`,
      );
      assert.ok(report.passed > 0, `${script.name}: no record passed`);
    });
  }
  void it('the catalog the corpus left is an image and at most the compaction threshold of entries after it', async () => {
    const log = await get()!.catalogLog();
    assert.ok(log.length > 0 && log.length <= compactAt + 1, `${log.length} entries`);
    assert.ok(log[0]!.startsWith('{"PestoCatalog":'), `the log starts with ${log[0]!.slice(0, 40)}`);
  });
}
