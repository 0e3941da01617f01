/**
 * Advisory locks on a cluster (sql/advisory-locks.ts). Every client must see every other client's locks,
 * so a locked key is a row, `pesto.advisory/<key>`, listing its holders: each an owner (client id, a
 * random process nonce and the session's number), a mode and a lease end. A session takes or gives back
 * a lock in a small transaction of its own that reads the row and writes the new list; two sessions
 * taking one lock at once conflict there and one retries, so at most one exclusive holder (or only
 * shared ones) ever commits. A blocking lock tries again with growing pauses until the lock is free or
 * the statement is cancelled.
 *
 * Leases: a gateway that dies cannot give its locks back, so each hold ends `LEASE_MICROS` after the
 * transaction that took or last renewed it, and a session renews what it holds every `RENEW_MS`. A
 * taker whose transaction timestamp is past a holder's lease end ignores that holder. Timestamps are
 * the clients' clocks (PROTOCOL §3: replicas refuse timestamps far from their own), so a lease is as
 * good as the clocks' agreement, which is seconds against a lease of a minute.
 *
 * A statement runs at the client in passes (sql-session.ts): a pass records the lock operations it
 * meets and answers them with placeholders; `settle` then performs them in order and the statement runs
 * again, now answered from the results (`StatementLocks`). Operations happen once however often the
 * statement runs, and the results are kept across the retries of an autocommit statement.
 */
import { AdvisoryHoldings, type AdvisoryLocks } from '../../sql/advisory-locks.ts';
import { SqlError, SqlState } from '../../sql/errors.ts';
import type { PestoClient } from '../pesto-client.ts';
import { randomBytes } from 'node:crypto';

const PREFIX = 'pesto.advisory/';
export const LEASE_MICROS = 60_000_000;
const RENEW_MS = 20_000;
/** A lock transaction that keeps aborting gives up after this many attempts (40001). */
const ATTEMPTS_MAX = 16;
const WAIT_FIRST_MS = 5;
const WAIT_MAX_MS = 200;
/** Tells this process's sessions from those of an earlier process with the same client id. */
const PROCESS_NONCE = randomBytes(6).toString('hex');
let sessions = 0;
const utf8 = new TextEncoder();
const fromUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

interface Holder {
  readonly o: string;
  readonly m: 'x' | 's';
  readonly exp: number;
}

function holdersOf(value: Uint8Array | null): Holder[] {
  if (value === null) return [];
  try {
    const v = JSON.parse(fromUtf8.decode(value)) as unknown;
    return Array.isArray(v) ? v.filter((h): h is Holder => typeof h === 'object' && h !== null && typeof (h as Holder).o === 'string' && ((h as Holder).m === 'x' || (h as Holder).m === 's') && typeof (h as Holder).exp === 'number') : [];
  } catch {
    return []; // a row no client wrote this way: no holder
  }
}

type Op =
  | { readonly k: 'acquire'; readonly key: string; readonly shared: boolean; readonly xact: boolean; readonly wait: boolean }
  | { readonly k: 'release'; readonly key: string; readonly shared: boolean }
  | { readonly k: 'release-all' };

/** One session's advisory locks on the cluster. */
export class ClusterLocks implements AdvisoryLocks {
  readonly #holdings = new AdvisoryHoldings();
  #renewal: NodeJS.Timeout | undefined;
  /** The running statement's operations and their results, kept across its passes and autocommit retries. */
  #done: boolean[] = [];
  #pending: Op[] = [];
  #seen = 0;
  #warnings: string[] = [];
  #cancelled = false;
  #wake: (() => void) | null = null;

  readonly #owner: string;

  constructor(private readonly client: PestoClient) {
    this.#owner = `${client.opts.clientId}:${PROCESS_NONCE}:${++sessions}`;
  }

  /** A new statement (not a retry of the last one). Runs per statement: allocates only after lock functions ran. */
  statement(): void {
    if (this.#done.length > 0) this.#done = [];
    if (this.#warnings.length > 0) this.#warnings = [];
    this.#cancelled = false;
  }

  /** Whether the session holds any lock (nothing to give back at a transaction's end otherwise). */
  get holding(): boolean {
    return !this.#holdings.empty;
  }

  /** One pass of the statement starts: its lock functions answer from what earlier passes settled. */
  pass(): AdvisoryLocks {
    this.#seen = 0;
    if (this.#pending.length > 0) this.#pending = [];
    return this;
  }

  acquire(key: string, shared: boolean, xact: boolean, wait: boolean): boolean {
    return this.#answer({ k: 'acquire', key, shared, xact, wait });
  }

  release(key: string, shared: boolean): boolean {
    return this.#answer({ k: 'release', key, shared });
  }

  releaseAll(): void {
    this.#answer({ k: 'release-all' });
  }

  warn(): void {
    // `settle` warns, once however often the statement runs
  }

  /** The result of the pass's next operation when settled, else a placeholder (the operation waits for `settle`). */
  #answer(op: Op): boolean {
    const i = this.#seen++;
    if (i < this.#done.length) return this.#done[i]!;
    this.#pending.push(op);
    return true;
  }

  unsettled(): boolean {
    return this.#pending.length > 0;
  }

  /** Performs the operations the last pass met, in order. */
  async settle(): Promise<void> {
    for (const op of this.#pending.splice(0)) this.#done.push(await this.#perform(op));
  }

  /** Warnings of the statement (unlocking a lock not held). */
  warnings(): readonly string[] {
    return this.#warnings;
  }

  /** A CancelRequest: a statement waiting for a lock stops with 57014. */
  cancel(): void {
    this.#cancelled = true;
    this.#wake?.();
  }

  /** The transaction ended: its transaction-level locks go (callers skip this when not `holding`). */
  async endTransaction(): Promise<void> {
    await this.#giveAtEnd(this.#holdings.endTransaction());
  }

  /** The session ended: every lock goes. */
  async close(): Promise<void> {
    await this.#giveAtEnd([...this.#holdings.endTransaction(), ...this.#holdings.endSession()]);
  }

  /**
   * Gives back locks whose holds ended with a transaction or the session. A row that kept aborting its
   * update is left to its lease (no longer renewed): the statement or session that ended is not failed for it.
   */
  async #giveAtEnd(slots: readonly string[]): Promise<void> {
    try {
      await this.#give(slots);
    } catch {
      // the lease runs out within LEASE_MICROS
    }
  }

  async #perform(op: Op): Promise<boolean> {
    if (op.k === 'release-all') {
      await this.#give(this.#holdings.endSession());
      return true;
    }
    if (op.k === 'release') {
      const last = this.#holdings.removeSession(op.key, op.shared);
      if (last === null) {
        this.#warnings.push(`you don't own a lock of type ${op.shared ? 'ShareLock' : 'ExclusiveLock'}`);
        return false;
      }
      if (last) await this.#give([AdvisoryHoldings.slot(op.key, op.shared)]);
      return true;
    }
    if (!this.#holdings.holds(op.key, op.shared)) {
      for (let pause = WAIT_FIRST_MS; !(await this.#take(op.key, op.shared)); pause = Math.min(pause * 2, WAIT_MAX_MS)) {
        if (!op.wait) return false;
        await this.#pause(pause);
      }
    }
    this.#holdings.add(op.key, op.shared, op.xact);
    this.#renew();
    return true;
  }

  #pause(ms: number): Promise<void> {
    if (this.#cancelled) throw new SqlError(SqlState.queryCanceled, 'canceling statement due to user request');
    return new Promise<void>((resolve) => {
      const t = setTimeout(done, ms);
      function done(): void {
        clearTimeout(t);
        resolve();
      }
      this.#wake = done;
    }).then(() => {
      this.#wake = null;
      if (this.#cancelled) throw new SqlError(SqlState.queryCanceled, 'canceling statement due to user request');
    });
  }

  /** Takes `key` in `mode` if no live holder conflicts (the row written in a transaction of its own). */
  #take(key: string, shared: boolean): Promise<boolean> {
    const mode = shared ? 's' : 'x';
    return this.#update(key, (holders, now) => {
      const live = holders.filter((h) => h.exp > now);
      if (live.some((h) => h.o !== this.#owner && (h.m === 'x' || mode === 'x'))) return null;
      return [...live.filter((h) => !(h.o === this.#owner && h.m === mode)), { o: this.#owner, m: mode, exp: now + LEASE_MICROS }];
    });
  }

  /** Gives back the locks of `slots` (AdvisoryHoldings slots). */
  async #give(slots: readonly string[]): Promise<void> {
    for (const s of slots) {
      const mode = s[0] === 's' ? 's' : 'x';
      await this.#update(s.slice(1), (holders) => holders.filter((h) => !(h.o === this.#owner && h.m === mode)));
    }
    if (this.#holdings.slots().length === 0) {
      clearInterval(this.#renewal);
      this.#renewal = undefined;
    }
  }

  /** While the session holds locks, their leases are renewed. */
  #renew(): void {
    if (this.#renewal !== undefined) return;
    this.#renewal = setInterval(() => {
      for (const s of this.#holdings.slots()) {
        const mode = s[0] === 's' ? 's' : 'x';
        void this.#update(s.slice(1), (holders, now) => holders.map((h) => (h.o === this.#owner && h.m === mode ? { ...h, exp: now + LEASE_MICROS } : h))).catch(() => undefined);
      }
    }, RENEW_MS);
    this.#renewal.unref();
  }

  /** Reads the lock row and writes `next`'s list (null: leave it, returns false), retrying aborts. */
  async #update(key: string, next: (holders: Holder[], nowMicros: number) => Holder[] | null): Promise<boolean> {
    const k = PREFIX + key;
    for (let attempt = 0; attempt < ATTEMPTS_MAX; attempt++) {
      const tx = this.client.session().begin();
      const r = await tx.read(k);
      const holders = next(holdersOf(r.value), tx.timestamp.micros);
      if (holders === null) {
        tx.abort();
        return false;
      }
      tx.writeKey(k, holders.length === 0 ? null : utf8.encode(JSON.stringify(holders)));
      if ((await tx.commit()).outcome === 'commit') return true;
    }
    throw new SqlError(SqlState.serializationFailure, 'could not serialize access: an advisory lock transaction kept aborting');
  }
}
