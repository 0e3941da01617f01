/**
 * Finishing other clients' transactions (PROTOCOL §7). A prepared transaction whose client is gone, or
 * whose writeback a replica missed, keeps blocking its keys: replicas abstain because of it or make
 * ours wait for it (a Relay). The client core hands such transactions here; each is run through ST1
 * (and ST2, writeback) by a finisher of its own, at most one at a time per transaction, either at once
 * (`now`) or after `relayWaitMs` (`schedule`: its own client may still finish it meanwhile).
 */
import type { DigestKey } from '../../protocol/ids.ts';
import type { Txn } from '../../protocol/messages.ts';

export interface RecoveryHost {
  /** Starts a finisher for someone else's transaction; `done` runs once it is decided. */
  finish(txn: Txn, done: () => void): void;
  /** Arms a timer that calls `fire` after `afterMs`; returns its id. */
  timer(afterMs: number): number;
  relayWaitMs(): number;
  /** Counts a recovery started (client stats). */
  started(): void;
}

export class Recoveries {
  /** Transactions being finished now. */
  readonly #running = new Set<DigestKey>();
  /** Transactions to finish when the timer fires. */
  readonly #waiting = new Map<DigestKey, Txn>();
  #timer = -1;
  readonly #host: RecoveryHost;

  constructor(host: RecoveryHost) {
    this.#host = host;
  }

  /**
   * Finishes these a little later (`relayWaitMs`), unless already being finished: replicas abstained
   * because of them or relayed them, their clients may be gone or a replica may have missed their
   * writeback (a decided one only needs its certificate forwarded), and until they are decided
   * everywhere their prepared versions block the keys. One already waiting is finished now: it
   * blocked another of our transactions meanwhile (a retry), so its client has had its chance, and
   * waiting out the timer would only let our retries abort on it again and again.
   */
  schedule(txns: ReadonlyMap<DigestKey, Txn>): void {
    const again: Txn[] = [];
    for (const [key, txn] of txns) {
      if (this.#running.has(key)) continue;
      if (this.#waiting.delete(key)) again.push(txn);
      else this.#waiting.set(key, txn);
    }
    if (again.length > 0) this.now(again);
    if (this.#waiting.size > 0 && this.#timer < 0) this.#timer = this.#host.timer(this.#host.relayWaitMs());
  }

  /** The timer armed by `schedule` fired. */
  fire(): void {
    this.#timer = -1;
    const txns = [...this.#waiting.values()];
    this.#waiting.clear();
    this.now(txns);
  }

  /** Finishes these now, each unless already being finished. */
  now(txns: Iterable<Txn>): void {
    for (const txn of txns) {
      const key = txn.key;
      if (this.#running.has(key)) continue;
      this.#running.add(key);
      this.#host.started();
      this.#host.finish(txn, () => this.#running.delete(key));
    }
  }
}
