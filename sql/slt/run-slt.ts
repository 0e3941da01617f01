// The sqllogictest runner: executes a parsed script against an `SltDatabase` and reports, per record,
// whether it passed, failed or was skipped. It never stops at the first failure (only at `halt`), so
// a report shows everything that is wrong with a backend at once.
//
// Conventions (documented for corpus authors in test/sql/README.md):
//   - `statement error <SQLSTATE>` is the preferred way to expect an error: the code is stable across
//     backends, messages are not. A regex is matched against the message.
//   - Query results are formatted per column type (see format-cell.ts), then sorted for `rowsort`
//     (whole rows, compared value by value) or `valuesort` (all values), then compared.
//   - Expected lines may list one value per line (the original format) or one row per line with the
//     values separated by a single space; either matches. Trailing whitespace is ignored.
//   - `N values hashing to <md5>` compares the md5 of the values, each followed by a newline, as the
//     original does. With `hash-threshold N` (N > 0), results of more than N values are reported as
//     hashes; the comparison itself is the same either way.
//   - Queries sharing a label must produce the same values.
//   - A query that fails with an error, or returns a different number of columns than it has type
//     characters, fails.
import { assertNever } from '../../protocol/errors.ts';
import { formatCell } from './format-cell.ts';
import { md5 } from '../md5.ts';
import type { SltDatabase, SltOutcome } from './slt-database.ts';
import type { SltErrorExpectation, SltQuery, SltRecord, SltScript, SltStatement } from './slt-record.ts';

export type SltFailure = {
  readonly line: number;
  readonly sql: string;
  readonly reason: string;
  readonly expected: string;
  readonly actual: string;
};

export type SltReport = {
  readonly name: string;
  readonly passed: number;
  readonly failed: number;
  readonly skipped: number;
  /** True when a `halt` record stopped the script early. */
  readonly halted: boolean;
  readonly failures: readonly SltFailure[];
  /** Lines of every record that ran and passed: lets callers spot stale known-failure entries. */
  readonly passedLines: readonly number[];
  /**
   * The actual result lines of every query that ran without error, keyed by the query's line, in the
   * format this runner would write them (rows per line, or a hash past the threshold). Used to
   * complete a script's expected results from a trusted backend.
   */
  readonly actualResults: ReadonlyMap<number, readonly string[]>;
};

type Verdict = { readonly pass: true } | { readonly pass: false; reason: string; expected: string; actual: string };

const passVerdict: Verdict = { pass: true };

export async function runSlt(script: SltScript, db: SltDatabase): Promise<SltReport> {
  const failures: SltFailure[] = [];
  const passedLines: number[] = [];
  const actualResults = new Map<number, readonly string[]>();
  const labelled = new Map<string, string>();
  let skipped = 0;
  let hashThreshold = 0;
  let halted = false;

  for (const record of script.records) {
    if (!applies(record, db.labels)) {
      if (record.kind === 'statement' || record.kind === 'query') skipped += 1;
      continue;
    }
    if (record.kind === 'halt') {
      halted = true;
      break;
    }
    let verdict: Verdict;
    switch (record.kind) {
      case 'hash-threshold':
        hashThreshold = record.threshold;
        continue;
      case 'invalid':
        verdict = { pass: false, reason: record.message, expected: '', actual: '' };
        break;
      case 'statement':
        verdict = await runStatement(record, db);
        break;
      case 'query':
        verdict = await runQuery(record, db, hashThreshold, labelled, actualResults);
        break;
      default:
        return assertNever(record);
    }
    if (verdict.pass) {
      passedLines.push(record.line);
    } else {
      const sql = record.kind === 'invalid' ? record.text : record.sql;
      failures.push({ line: record.line, sql, reason: verdict.reason, expected: verdict.expected, actual: verdict.actual });
    }
  }
  return {
    name: script.name,
    passed: passedLines.length,
    failed: failures.length,
    skipped,
    halted,
    failures,
    passedLines,
    actualResults,
  };
}

function applies(record: SltRecord, labels: readonly string[]): boolean {
  return record.conditions.every((c) => (c.kind === 'skipif' ? !labels.includes(c.label) : labels.includes(c.label)));
}

async function execute(db: SltDatabase, sql: string): Promise<SltOutcome> {
  try {
    return await db.execute(sql);
  } catch (e) {
    // A backend that throws for SQL is itself a bug (errors are values); report it as a failure.
    return { ok: false, code: 'THROWN', message: e instanceof Error ? `${e.name}: ${e.message}` : String(e) };
  }
}

function describeError(outcome: SltOutcome): string {
  return outcome.ok ? 'ok' : `error ${outcome.code}: ${outcome.message}`;
}

function describeExpectation(error: SltErrorExpectation): string {
  switch (error.kind) {
    case 'any':
      return 'an error';
    case 'sqlstate':
      return `error ${error.code}`;
    case 'regex':
      return `error matching /${error.pattern}/`;
    default:
      return assertNever(error);
  }
}

function checkError(outcome: SltOutcome, error: SltErrorExpectation): Verdict {
  const expected = describeExpectation(error);
  if (outcome.ok) return { pass: false, reason: 'succeeded but an error was expected', expected, actual: 'ok' };
  const matches =
    error.kind === 'any' ||
    (error.kind === 'sqlstate' && outcome.code === error.code) ||
    (error.kind === 'regex' && new RegExp(error.pattern).test(outcome.message));
  return matches ? passVerdict : { pass: false, reason: 'wrong error', expected, actual: describeError(outcome) };
}

async function runStatement(record: SltStatement, db: SltDatabase): Promise<Verdict> {
  const outcome = await execute(db, record.sql);
  if (record.error !== null) return checkError(outcome, record.error);
  if (outcome.ok) return passVerdict;
  return { pass: false, reason: 'statement failed', expected: 'ok', actual: describeError(outcome) };
}

async function runQuery(
  record: SltQuery,
  db: SltDatabase,
  hashThreshold: number,
  labelled: Map<string, string>,
  actualResults: Map<number, readonly string[]>,
): Promise<Verdict> {
  const outcome = await execute(db, record.sql);
  if (record.error !== null) return checkError(outcome, record.error);
  if (!outcome.ok) return { pass: false, reason: 'query failed', expected: 'rows', actual: describeError(outcome) };
  const width = record.types.length;
  if (outcome.columnCount !== width) {
    return {
      pass: false,
      reason: 'wrong number of columns',
      expected: `${width} columns`,
      actual: `${outcome.columnCount} columns`,
    };
  }
  let rows = outcome.rows.map((row) => row.map((cell, i) => formatCell(cell, record.types[i] ?? 'T')));
  if (record.sort === 'rowsort') rows = [...rows].sort(compareRows);
  let values = rows.flat();
  if (record.sort === 'valuesort') values = [...values].sort(compareText);
  const hash = `${values.length} values hashing to ${md5(values.map((v) => `${v}\n`).join(''))}`;
  const rowLines =
    record.sort === 'valuesort' ? values : rows.map((row) => row.join(' ').replace(/\s+$/, ''));
  actualResults.set(record.line, hashThreshold > 0 && values.length > hashThreshold ? [hash] : rowLines);

  if (record.label !== null) {
    const previous = labelled.get(record.label);
    if (previous === undefined) labelled.set(record.label, hash);
    else if (previous !== hash) {
      return { pass: false, reason: `differs from earlier query labelled ${record.label}`, expected: previous, actual: hash };
    }
  }
  const expected = record.expected ?? { kind: 'lines', lines: [] };
  if (expected.kind === 'hash') {
    return hash === `${expected.valueCount} values hashing to ${expected.md5}`
      ? passVerdict
      : { pass: false, reason: 'result hash differs', expected: `${expected.valueCount} values hashing to ${expected.md5}`, actual: hash };
  }
  const expectedLines = expected.lines.map((l) => l.replace(/\s+$/, ''));
  const valueLines = values.map((v) => v.replace(/\s+$/, ''));
  if (sameLines(expectedLines, rowLines) || sameLines(expectedLines, valueLines)) return passVerdict;
  return { pass: false, reason: 'result differs', expected: expectedLines.join('\n'), actual: rowLines.join('\n') };
}

function sameLines(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((line, i) => line === b[i]);
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function compareRows(a: readonly string[], b: readonly string[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i += 1) {
    const c = compareText(a[i] ?? '', b[i] ?? '');
    if (c !== 0) return c;
  }
  return a.length - b.length;
}

