// Rewrites a script's expected query results with the results a trusted backend produced (the
// original sqllogictest's "complete" mode). Corpus authors run it against real PostgreSQL, then
// review the diff: the file stays the reviewed source of truth, PostgreSQL only types it out.
import type { SltReport } from './run-slt.ts';
import type { SltScript } from './slt-record.ts';

/** Returns `text` with the result section of every query that ran replaced by its actual result. */
export function completeSlt(text: string, script: SltScript, report: SltReport): string {
  const lines = text.split('\n');
  const queries = script.records.filter((r) => r.kind === 'query' && r.error === null);
  // Edit bottom-up so earlier line numbers stay valid.
  for (const record of [...queries].reverse()) {
    if (record.kind !== 'query') continue;
    const actual = report.actualResults.get(record.line);
    if (actual === undefined) continue;
    const end = record.endLine - 1; // 0-based index of the record's terminating blank line
    if (record.resultLine === null) lines.splice(end, 0, '----', ...actual);
    else lines.splice(record.resultLine, end - record.resultLine, ...actual);
  }
  return lines.join('\n');
}
