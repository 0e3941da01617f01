// The records of a sqllogictest script, as the parser produces them and the runner consumes them.
//
// A script is a sequence of records separated by blank lines. Each record may be preceded by
// `skipif <label>` / `onlyif <label>` conditions that the runner checks against the labels of the
// database under test (`pesto`, `postgresql`, ...). See `parse-slt.ts` for the accepted syntax.

/** `skipif <label>` skips the record on a database carrying the label; `onlyif <label>` runs it only there. */
export type SltCondition = { readonly kind: 'skipif' | 'onlyif'; readonly label: string };

/**
 * What a failing statement must look like.
 * - `any`: `statement error` with nothing after it, any error passes.
 * - `sqlstate`: `statement error 23505`, a five-character SQLSTATE that must equal the error's code.
 * - `regex`: `statement error <regex>`, matched (unanchored) against the error message.
 */
export type SltErrorExpectation =
  | { readonly kind: 'any' }
  | { readonly kind: 'sqlstate'; readonly code: string }
  | { readonly kind: 'regex'; readonly pattern: string };

/** How a query's result rows are ordered before comparison. */
export type SltSortMode = 'nosort' | 'rowsort' | 'valuesort';

/**
 * A query's expected output: either the result lines (one value per line, or one row per line with
 * values separated by single spaces), or the original sqllogictest's `N values hashing to <md5>`.
 */
export type SltExpected =
  | { readonly kind: 'lines'; readonly lines: readonly string[] }
  | { readonly kind: 'hash'; readonly valueCount: number; readonly md5: string };

type RecordBase = {
  /** 1-based line of the record's first line (its first condition, if any). Known-failure lists use it. */
  readonly line: number;
  readonly conditions: readonly SltCondition[];
};

export type SltStatement = RecordBase & {
  readonly kind: 'statement';
  readonly sql: string;
  /** null for `statement ok`. */
  readonly error: SltErrorExpectation | null;
};

export type SltQuery = RecordBase & {
  readonly kind: 'query';
  readonly sql: string;
  /** One character per column: I integer, R real, T text (others are treated as T). */
  readonly types: string;
  readonly sort: SltSortMode;
  /** Queries with the same label must produce the same values. */
  readonly label: string | null;
  /** null when the query is expected to fail (`query error ...`). */
  readonly expected: SltExpected | null;
  /** Set for `query error ...`. */
  readonly error: SltErrorExpectation | null;
  /** 1-based line of `----`, or null when the record has no result section. */
  readonly resultLine: number | null;
  /** 1-based line just past the record (its terminating blank line or end of file). */
  readonly endLine: number;
};

export type SltHashThreshold = RecordBase & { readonly kind: 'hash-threshold'; readonly threshold: number };

export type SltHalt = RecordBase & { readonly kind: 'halt' };

/** A record the parser could not understand. The runner counts it as a failure and carries on. */
export type SltInvalid = RecordBase & { readonly kind: 'invalid'; readonly message: string; readonly text: string };

export type SltRecord = SltStatement | SltQuery | SltHashThreshold | SltHalt | SltInvalid;

export type SltScript = { readonly name: string; readonly records: readonly SltRecord[] };
