// The one interface a database implements to be tested by the sqllogictest runner. It is kept small
// so that every path reuses the same runner and files: the single-node engine, real PostgreSQL (the
// oracle that proves the expected results), and the full cluster through the wire gateway.

/** A result cell in PostgreSQL's text output format; null is SQL NULL. */
export type SltCell = string | null;

export type SltOutcome =
  | { readonly ok: true; readonly columnCount: number; readonly rows: readonly (readonly SltCell[])[] }
  | { readonly ok: false; readonly code: string; readonly message: string };

export interface SltDatabase {
  /** Labels matched by `skipif` / `onlyif`, e.g. `['pesto']` or `['postgresql']`. */
  readonly labels: readonly string[];
  /** Runs one SQL text (statement or query) in the script's session. Must not reject for SQL errors. */
  execute(sql: string): Promise<SltOutcome>;
}
