// The types a SQL session's users see (client/sql/sql-session.ts).
import type { PreparedInfo } from '../../sql/engine.ts';
import type { SqlError } from '../../sql/errors.ts';
import type { LoweredStatement } from '../../sql/lower-statement.ts';
import type { CatalogVersion } from '../../sql/replicated-catalog.ts';
import type { SqlType } from '../../sql/types.ts';

/** What a SQL client's sessions did (client/sql/sql-session.ts; exported as metrics by client/metrics.ts). */
export interface SqlStats {
  statements: number;
  pointStatements: number;
  rangeReads: number;
  reconReads: number;
  syncRounds: number;
  rangeReadsFailed: number;
  rowFetches: number;
  autocommitRetries: number;
}

export interface SqlPrepared {
  readonly sql: string;
  readonly info: PreparedInfo;
  readonly hints: readonly SqlType[];
  /** Lowered against `catalog` (re-lowered when a transaction sees another catalog). */
  lowered: LoweredStatement;
  catalog: CatalogVersion;
}

export type PrepareOutcome = { readonly ok: true; readonly statement: SqlPrepared } | { readonly ok: false; readonly error: SqlError };
