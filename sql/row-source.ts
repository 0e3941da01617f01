// The abstract row source the executor reads through (DESIGN §5): a replica's multi-version store, the
// client's write-buffer overlay and the in-memory engine all implement `scan`. A scan names a table and
// either its primary key or a secondary index, a key range over that key's order-preserving encoding
// (key-encoding.ts), the scan's filter as a bound structured predicate (sources may use it or ignore it:
// the executor re-checks it), a lock mode, and a direction. It yields every row in the range with the
// row's primary-key encoding and version; the executor decides which rows satisfied the predicate and
// records them (exec-context.ts, PROTOCOL §4.3).

import type { Expr } from './expr.ts';
import type { IndexDef, TableDef } from './catalog.ts';
import type { Row } from './types.ts';

/**
 * A scan's residual filter offered to the source, so it can leave out rows that fail it without
 * building them: `accepts` evaluates the filter with the SQL evaluator on a row of which only `columns`
 * (table column positions) need hold values. A source may apply it or ignore it; the executor re-checks
 * every row it gets, so applying it changes which rows a scan yields, never what it returns. Offered
 * only when nothing needs every scanned row (the recorder's `scanned` list is off).
 */
export interface RowPrefilter {
  readonly columns: readonly number[];
  /** The filter's verdict; throws what the evaluator throws (the same error the executor would raise). */
  accepts(row: Row): boolean;
}

/** Opaque to the SQL layer; a replica uses its (timestamp, client) versions, the memory store numbers. */
export type RowVersion = unknown;

export type ScanMode = 'read' | 'update' | 'share';

export interface ScanRequest {
  readonly table: TableDef;
  /** null scans the primary key. */
  readonly index: IndexDef | null;
  /** Inclusive lower bound on the scanned key's encoding ('' = from the start). */
  readonly lo: string;
  /** Exclusive upper bound (null = to the end). */
  readonly hi: string | null;
  /** The scan's bound filter over table rows (informational for sources; null = all rows). */
  readonly predicate: Expr | null;
  /** The residual filter a source may apply itself (RowPrefilter); absent = yield every row. */
  readonly prefilter?: RowPrefilter;
  readonly mode: ScanMode;
  /** Descending key order. */
  readonly reverse: boolean;
}

export interface ScannedRow {
  /**
   * The table's storage id. With `key` and `version` a scanned row is also its own read record
   * (exec-context.ts ReadRecord): a scan records the rows it returns without an object per row.
   */
  readonly tableId: number;
  /** Encoded primary key. */
  readonly key: string;
  /** Invariant: never mutated (sources share rows between scans; `SELECT *` returns them as they are). */
  readonly row: Row;
  readonly version: RowVersion;
  /** The transaction's own buffered write (never recorded in the read set). */
  readonly own: boolean;
}

export interface RowSource {
  /** Rows in key order of the scanned key (index entry order for index scans). */
  scan(req: ScanRequest): Iterable<ScannedRow>;
  /** Point lookup by encoded primary key. */
  get(table: TableDef, key: string): ScannedRow | null;
  /** True when the key holds one of the transaction's own buffered writes (a deletion included). */
  ownWrite?(table: TableDef, key: string): boolean;
}

/** Where DML puts its writes: full new rows by primary key, or deletions. */
export interface WriteSink {
  put(table: TableDef, key: string, row: Row): void;
  delete(table: TableDef, key: string): void;
}
