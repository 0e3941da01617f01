// What the single-node engine's sessions keep between statements (sql/engine-session.ts): an open
// transaction (its buffered writes, read set, savepoints, timestamp, id and deferred checks) and the
// state DDL in a transaction block goes back to; SHOW's answer from the session's settings
// (sql/engine-settings.ts).

import type { CatalogSnapshot } from './catalog.ts';
import type { DeferredConstraints } from './foreign-key-deferred.ts';
import type { StoreSnapshot } from './memory-store.ts';
import type { ReadRecorder } from './exec-context.ts';
import type { Savepoints } from './savepoints.ts';
import type { SettingsSnapshot } from './engine-settings.ts';
import type { SqlTimestamp } from './datetime.ts';
import type { XactId } from './session-time.ts';
import type { WriteBuffer } from './write-buffer.ts';
import { SqlError, SqlState } from './errors.ts';
import type { Row } from './types.ts';
import type { ExecResult } from './statement-result.ts';

/** The catalog and rows before a transaction's first DDL, to go back to if it does not commit. */
export interface DdlState {
  readonly catalog: CatalogSnapshot;
  readonly store: StoreSnapshot;
}

export interface Txn {
  readonly buffer: WriteBuffer;
  /** What the transaction read, validated at COMMIT (occ.ts). */
  readonly reads: ReadRecorder;
  /** Open savepoints, each with the writes buffered and the settings when it was taken (and, after DDL, the catalog and rows). */
  readonly savepoints: Savepoints<{ readonly buffer: WriteBuffer; readonly settings: SettingsSnapshot; readonly ddl: DdlState | null }>;
  readonly now: SqlTimestamp;
  /** txid_current() (sql/session-time.ts), from `now`. */
  readonly xact: XactId;
  /** SET CONSTRAINTS and the foreign key checks waiting for COMMIT. */
  readonly deferred: DeferredConstraints;
  failed: boolean;
}

/** SHOW `name`: the session's value or the default (sql/engine-settings.ts); 42704 for a name it does not know. */
export function showSetting(settings: { get(name: string): string | undefined }, name: string): ExecResult {
  const v = settings.get(name);
  if (v === undefined) throw new SqlError(SqlState.undefinedObject, `unrecognized configuration parameter "${name}"`);
  const rows: Row[] = [[v]];
  return { ok: true, command: 'SHOW', rowCount: 1, columns: [{ name, type: 'text', typmod: -1 }], rows, tag: 'SHOW' };
}

export function serializationFailure(): SqlError {
  return new SqlError(SqlState.serializationFailure, 'could not serialize access due to read/write dependencies among transactions',
    'Reason code: Canceled on identification as a pivot, during commit attempt.');
}
