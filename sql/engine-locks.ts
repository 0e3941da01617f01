// The single-node engine's advisory locks (advisory-locks.ts): one table for all its sessions, and each
// session's view of it. A lock is free for a session when no other session holds it exclusively and,
// for an exclusive lock, none holds it shared; a session's own holds never conflict with each other.

import { AdvisoryHoldings, LockWait, type AdvisoryLocks } from './advisory-locks.ts';

interface Holders {
  exclusive: object | null;
  readonly shared: Set<object>;
}

export class EngineLockTable {
  readonly #locks = new Map<string, Holders>();
  #waiters: (() => void)[] = [];

  take(owner: object, key: string, shared: boolean): boolean {
    const h = this.#locks.get(key) ?? { exclusive: null, shared: new Set<object>() };
    if (h.exclusive !== null && h.exclusive !== owner) return false;
    if (shared) h.shared.add(owner);
    else {
      for (const o of h.shared) if (o !== owner) return false;
      h.exclusive = owner;
    }
    this.#locks.set(key, h);
    return true;
  }

  give(owner: object, key: string, shared: boolean): void {
    const h = this.#locks.get(key);
    if (h === undefined) return;
    if (shared) h.shared.delete(owner);
    else if (h.exclusive === owner) h.exclusive = null;
    if (h.exclusive === null && h.shared.size === 0) this.#locks.delete(key);
    const waiters = this.#waiters;
    this.#waiters = [];
    for (const w of waiters) w();
  }

  /** Resolves when any lock is given back (a waiting session then tries again). */
  released(): Promise<void> {
    return new Promise((resolve) => this.#waiters.push(resolve));
  }
}

/** One engine session's advisory locks; `statement` marks where a statement starts (what a LockWait gives back). */
export class EngineSessionLocks implements AdvisoryLocks {
  readonly #holdings = new AdvisoryHoldings();
  /** Acquisitions of the running statement, given back if it stops to wait. */
  #taken: { key: string; shared: boolean; xact: boolean }[] = [];
  #warnings: string[] = [];

  constructor(private readonly table: EngineLockTable) {}

  statement(): void {
    if (this.#taken.length > 0) this.#taken = [];
    if (this.#warnings.length > 0) this.#warnings = [];
  }

  /** Warnings the statement raised (unlocking a lock not held). */
  warnings(): string[] {
    return this.#warnings;
  }

  acquire(key: string, shared: boolean, xact: boolean, wait: boolean): boolean {
    if (!this.#holdings.holds(key, shared) && !this.table.take(this, key, shared)) {
      if (!wait) return false;
      // Give back what the statement took: it runs again once the lock is free.
      for (const t of this.#taken.reverse()) if (this.#holdings.undo(t.key, t.shared, t.xact)) this.table.give(this, t.key, t.shared);
      this.#taken = [];
      throw new LockWait(key, shared);
    }
    this.#holdings.add(key, shared, xact);
    this.#taken.push({ key, shared, xact });
    return true;
  }

  release(key: string, shared: boolean): boolean {
    const last = this.#holdings.removeSession(key, shared);
    if (last === null) return false;
    if (last) this.table.give(this, key, shared);
    return true;
  }

  releaseAll(): void {
    this.#give(this.#holdings.endSession());
  }

  warn(message: string): void {
    this.#warnings.push(message);
  }

  /** The transaction ended (committed, rolled back, or an autocommit statement's). */
  endTransaction(): void {
    if (!this.#holdings.empty) this.#give(this.#holdings.endTransaction());
  }

  /** The session ended: every lock it holds goes. */
  close(): void {
    this.#give(this.#holdings.endTransaction());
    this.#give(this.#holdings.endSession());
  }

  #give(slots: readonly string[]): void {
    for (const s of slots) this.table.give(this, s.slice(1), s[0] === 's');
  }
}
