// The waits of pg_sleep, pg_sleep_for and pg_sleep_until (sql/session-time.ts): a query that calls them
// comes back from its backend with the waits it asked for, and the gateway's backend session waits them
// out, in order, on timers (never blocking the event loop) before it answers. A cancel request
// (CancelRequest, as PostgreSQL's pg_cancel_backend) ends the wait at once and the statement fails with
// 57014, as in PostgreSQL; inside a transaction block that fails the transaction.
// 'until' waits are measured against the backend's clock (the engine's injected one).

import type { SleepRequest } from '../../sql/session-time.ts';
import { SqlError, SqlState } from '../../sql/errors.ts';
import type { ExecResult } from '../../sql/statement-result.ts';

/** setTimeout's longest delay; longer waits go in several. */
const TIMER_MS_MAX = 2 ** 31 - 1;

export class StatementSleeper {
  /** Ends the wait in progress; null while none is. */
  #wake: (() => void) | null = null;
  /** A cancel arrived for the running statement before it began to wait. */
  #cancelled = false;

  constructor(private readonly clockMicros: () => number) {}

  /** A statement starts: a cancel of an earlier one does not reach it. */
  statement(): void {
    this.#cancelled = false;
  }

  /** A CancelRequest for the running statement. */
  cancel(): void {
    this.#cancelled = true;
    this.#wake?.();
  }

  /** `r` once its waits are over; 57014 when a cancel ended them. */
  async after(r: ExecResult): Promise<ExecResult> {
    if (!r.ok || r.sleeps === undefined) return r;
    const { sleeps: _, ...rest } = r;
    return (await this.#sleep(r.sleeps)) ? rest : { ok: false, error: new SqlError(SqlState.queryCanceled, 'canceling statement due to user request') };
  }

  /** Waits out each request in order; false when cancelled. */
  async #sleep(requests: readonly SleepRequest[]): Promise<boolean> {
    for (const q of requests) {
      // NaN (pg_sleep('NaN')) and waits in the past end at once, as in PostgreSQL.
      let ms = q.k === 'for' ? q.micros / 1000 : (q.micros - this.clockMicros()) / 1000;
      while (ms > 0) {
        if (this.#cancelled) return false;
        const step = Math.min(ms, TIMER_MS_MAX);
        await new Promise<void>((resolve) => {
          const timer = setTimeout(() => {
            this.#wake = null;
            resolve();
          }, step);
          this.#wake = () => {
            clearTimeout(timer);
            this.#wake = null;
            resolve();
          };
        });
        ms -= step;
      }
      if (this.#cancelled) return false;
    }
    return true;
  }
}
