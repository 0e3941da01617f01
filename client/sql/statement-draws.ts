// What a statement run at the client draws from its environment: random bytes (gen_random_uuid,
// random()) and clock readings (clock_timestamp(), timeofday(); sql/session-time.ts). The client runs
// such a statement again after it fetched rows the previous pass missed, and the rerun must compute
// the same rows (whose keys it fetched), so each pass replays the earlier passes' draws in order and
// draws fresh values only beyond them.

import { randomBytes } from 'node:crypto';
import { SqlTimestamp } from '../../sql/datetime.ts';
import type { ExecContext } from '../../sql/exec-context.ts';
import type { SqlTxn } from './sql-txn.ts';

export class StatementDraws {
  readonly #bytes: Uint8Array[] = [];
  readonly #clock: number[] = [];
  #bytesAt = 0;
  #clockAt = 0;

  constructor(private readonly clockMicros: () => number) {}

  /** A pass starts: draws replay from the first. */
  pass(): void {
    this.#bytesAt = 0;
    this.#clockAt = 0;
  }

  readonly random = (n: number): Uint8Array => {
    const kept = this.#bytes[this.#bytesAt];
    const b = kept?.length === n ? kept : (this.#bytes[this.#bytesAt] = randomBytes(n));
    this.#bytesAt++;
    return b;
  };

  readonly readClock = (): number => {
    const t = this.#clock[this.#clockAt] ?? (this.#clock[this.#clockAt] = this.clockMicros());
    this.#clockAt++;
    return t;
  };

  /**
   * The clock, transaction id and (for a query) pg_sleep's list of a pass's context: statement_timestamp()
   * is when the statement started (`startMicros`), never before the transaction's T.
   */
  sessionTime(txn: SqlTxn, startMicros: number, query: boolean): Pick<ExecContext, 'clock' | 'xact' | 'sleeps'> {
    const statementTime = new SqlTimestamp(BigInt(Math.max(txn.ts.micros, Math.round(startMicros))));
    return { clock: { statementTime, readMicros: this.readClock }, xact: txn.xact, ...(query ? { sleeps: [] } : {}) };
  }
}
