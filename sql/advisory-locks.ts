// Advisory locks (pg_advisory_lock and its family), as PostgreSQL 15 has them: locks on application-chosen
// keys, exclusive or shared, held by a session until it unlocks them or ends (session level), or until
// its transaction ends (transaction level, the _xact_ functions). A session counts its holds: a key
// locked twice is unlocked twice, and session-level and transaction-level holds count apart.
//
// Where the locks live is the session's (`ExecContext.advisory`): the single-node engine keeps them in
// one table for its sessions (engine-locks.ts), a cluster client in rows every client reads and writes in
// small transactions of their own (client/sql/advisory-rows.ts). A statement that must wait for a lock
// stops with `LockWait` before it changes anything; its session waits for the lock outside the statement
// and runs the statement again. Mind the difference from PostgreSQL: there is no deadlock detection, so
// two sessions each waiting for the other's lock wait until one is cancelled.

import { SqlError, SqlState } from './errors.ts';
import type { SqlValue } from './types.ts';

/** A lock's key: one bigint, or two int4 (PostgreSQL keeps the two forms apart). */
export function advisoryKey(args: readonly SqlValue[]): string {
  if (args.length === 1) return `b${String(args[0])}`;
  return `p${String(args[0])}:${String(args[1])}`;
}

/** What the lock functions need from the session running the statement. */
export interface AdvisoryLocks {
  /** Takes the lock, or returns false when another session holds it in a conflicting mode (`wait`: throws LockWait instead). */
  acquire(key: string, shared: boolean, xact: boolean, wait: boolean): boolean;
  /** Gives back one session-level hold; false (with PostgreSQL's warning) when the session holds none. */
  release(key: string, shared: boolean): boolean;
  /** Gives back every session-level hold. */
  releaseAll(): void;
  /** A warning for the statement's result (an unlock of a lock not held). */
  warn(message: string): void;
}

/**
 * A statement stopped to wait for a lock; its session waits and runs it again. An error only to stop the
 * statement: a session that cannot wait (none here) would report it as 55P03.
 */
export class LockWait extends SqlError {
  constructor(readonly key: string, readonly shared: boolean) {
    super(SqlState.lockNotAvailable, `could not obtain advisory lock ${key}`);
  }
}

/** The lock functions: name -> (shared, transaction level, kind). */
export const ADVISORY_FUNCTIONS: ReadonlyMap<string, { readonly shared: boolean; readonly xact: boolean; readonly op: 'lock' | 'try' | 'unlock' | 'unlock-all' }> = new Map([
  ['pg_advisory_lock', { shared: false, xact: false, op: 'lock' }],
  ['pg_advisory_lock_shared', { shared: true, xact: false, op: 'lock' }],
  ['pg_advisory_xact_lock', { shared: false, xact: true, op: 'lock' }],
  ['pg_advisory_xact_lock_shared', { shared: true, xact: true, op: 'lock' }],
  ['pg_try_advisory_lock', { shared: false, xact: false, op: 'try' }],
  ['pg_try_advisory_lock_shared', { shared: true, xact: false, op: 'try' }],
  ['pg_try_advisory_xact_lock', { shared: false, xact: true, op: 'try' }],
  ['pg_try_advisory_xact_lock_shared', { shared: true, xact: true, op: 'try' }],
  ['pg_advisory_unlock', { shared: false, xact: false, op: 'unlock' }],
  ['pg_advisory_unlock_shared', { shared: true, xact: false, op: 'unlock' }],
  ['pg_advisory_unlock_all', { shared: false, xact: false, op: 'unlock-all' }],
] as const);

/** Evaluates one lock function over its arguments (NULL arguments: NULL, as PostgreSQL's strict functions). */
export function callAdvisory(name: string, args: readonly SqlValue[], locks: AdvisoryLocks | undefined): SqlValue {
  const f = ADVISORY_FUNCTIONS.get(name);
  if (f === undefined) throw new SqlError(SqlState.internalError, `${name} is not an advisory lock function`);
  if (locks === undefined) throw new SqlError(SqlState.featureNotSupported, `${name}() is not available in statements the replicas run`);
  if (f.op === 'unlock-all') {
    locks.releaseAll();
    return '';
  }
  if (args.some((a) => a === null)) return null;
  const key = advisoryKey(args);
  switch (f.op) {
    case 'lock':
      locks.acquire(key, f.shared, f.xact, true);
      return '';
    case 'try':
      return locks.acquire(key, f.shared, f.xact, false);
    case 'unlock': {
      const held = locks.release(key, f.shared);
      if (!held) locks.warn(`you don't own a lock of type ${f.shared ? 'ShareLock' : 'ExclusiveLock'}`);
      return held;
    }
  }
}

/** One key's holds by one session: session-level and transaction-level counts per mode. */
interface Holds {
  session: number;
  xact: number;
}

/**
 * A session's holds, by key and mode (`x` exclusive, `s` shared). The lock table (engine or rows) keeps
 * who holds what; this keeps how often, so that only a session's last hold of a key and mode releases it.
 */
export class AdvisoryHoldings {
  readonly #holds = new Map<string, Holds>();

  static slot(key: string, shared: boolean): string {
    return `${shared ? 's' : 'x'}${key}`;
  }

  get empty(): boolean {
    return this.#holds.size === 0;
  }

  holds(key: string, shared: boolean): boolean {
    return this.#holds.has(AdvisoryHoldings.slot(key, shared));
  }

  /** Counts a hold; true when it is the session's first of this key and mode (the lock must be taken). */
  add(key: string, shared: boolean, xact: boolean): boolean {
    const slot = AdvisoryHoldings.slot(key, shared);
    const h = this.#holds.get(slot);
    if (h === undefined) {
      this.#holds.set(slot, xact ? { session: 0, xact: 1 } : { session: 1, xact: 0 });
      return true;
    }
    if (xact) h.xact++;
    else h.session++;
    return false;
  }

  /** Uncounts a session-level hold: null when there is none, else whether it was the last (the lock must be given back). */
  removeSession(key: string, shared: boolean): boolean | null {
    const slot = AdvisoryHoldings.slot(key, shared);
    const h = this.#holds.get(slot);
    if (h === undefined || h.session === 0) return null;
    h.session--;
    return this.#dropIfFree(slot, h);
  }

  /** Uncounts an acquisition made by `add` (a statement that stopped to wait gives back what it took). */
  undo(key: string, shared: boolean, xact: boolean): boolean {
    const slot = AdvisoryHoldings.slot(key, shared);
    const h = this.#holds.get(slot);
    if (h === undefined) return false;
    if (xact) h.xact--;
    else h.session--;
    return this.#dropIfFree(slot, h);
  }

  /** The transaction ended: its holds go; returns the slots no longer held at all. */
  endTransaction(): string[] {
    return this.#drop((h) => {
      h.xact = 0;
    });
  }

  /** pg_advisory_unlock_all or the session's end: session-level holds go; returns the slots no longer held. */
  endSession(): string[] {
    return this.#drop((h) => {
      h.session = 0;
    });
  }

  /** Every slot held (`x` or `s`, then the key). */
  slots(): string[] {
    return [...this.#holds.keys()];
  }

  #drop(change: (h: Holds) => void): string[] {
    const freed: string[] = [];
    for (const [slot, h] of [...this.#holds]) {
      change(h);
      if (this.#dropIfFree(slot, h)) freed.push(slot);
    }
    return freed;
  }

  #dropIfFree(slot: string, h: Holds): boolean {
    if (h.session > 0 || h.xact > 0) return false;
    this.#holds.delete(slot);
    return true;
  }
}
