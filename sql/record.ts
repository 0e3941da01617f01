// Row values (PostgreSQL's record and a table's row type): ROW(a, b), (a, b) and whole-row references
// (`SELECT t FROM t`) as values. A `SqlRecord` holds its fields' values and SQL types; its SQL type is
// 'record' (types.ts), whose typmod is the row type's oid when it is a table's (the wire's type oid,
// typeOidOf), else -1 (anonymous: record, 2249).
//
// Text form as record_out: `(1,"a b",)`: a NULL field is empty, a field is double-quoted when it is
// empty or holds a quote, a backslash, a parenthesis, a comma or white space, with `"` and `\` doubled
// inside. Binary form as record_send: the field count, then per field its type oid and its value (-1:
// NULL). Comparison as btrecordcmp: field by field, NULL after every value and equal to NULL; records
// of different lengths do not compare (42804). Input of anonymous records is not implemented, as in
// PostgreSQL (record_in, record_recv: 0A000), except the binary form of built-in field types (values
// that travel between Pesto's own processes).
//
// Invariant: `items` and `types` have one entry per field and are never written to after the value is made.

import { SqlError, SqlState } from './errors.ts';
import type { SqlType, SqlValue } from './types.ts';

/** A row value: its fields and their SQL types. */
export class SqlRecord {
  constructor(
    readonly items: readonly SqlValue[],
    readonly types: readonly SqlType[],
  ) {}
  get length(): number {
    return this.items.length;
  }
}

/** The characters that make record_out quote a field. */
const NEEDS_QUOTES = /[",\\()\s]/;

/** record_out over the fields' texts (null for a NULL field). */
export function formatRecordText(fields: readonly (string | null)[]): string {
  const parts = fields.map((f) => {
    if (f === null) return '';
    if (f !== '' && !NEEDS_QUOTES.test(f)) return f;
    return `"${f.replace(/["\\]/g, (c) => c + c)}"`;
  });
  return `(${parts.join(',')})`;
}

export function recordLengthsDiffer(): SqlError {
  return new SqlError(SqlState.datatypeMismatch, 'cannot compare record types with different numbers of columns');
}

/**
 * `r IS NULL` (`neg` false): every field is NULL (a NULL row too); `r IS NOT NULL` (`neg` true): every
 * field is not NULL, as PostgreSQL's row null tests (not each other's negation).
 */
export function recordNullTest(r: SqlRecord, neg: boolean): boolean {
  return neg ? r.items.every((x) => x !== null) : r.items.every((x) => x === null);
}

export function recordArrays(): SqlError {
  return new SqlError(SqlState.featureNotSupported, 'arrays of record are not supported');
}

export function anonymousRecordInput(): SqlError {
  return new SqlError(SqlState.featureNotSupported, 'input of anonymous composite types is not implemented');
}
