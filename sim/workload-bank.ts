/**
 * Bank transfers, the simulator's workload (issue 2 item 6): `accounts` accounts get the same
 * initial balance from one setup transaction; then each of the clients runs a closed loop: begin,
 * read two random accounts, move a random amount from one to the other if the funds allow (else
 * commit the read-only transaction as is), commit; an aborted transfer is retried with a fresh
 * transaction. Every value written is `balance:tag` with a tag unique to the writing transaction,
 * so a read names the write it saw and the checker cannot be fooled by equal balances (ABA).
 *
 * Everything a transaction read and wrote is logged (`history`), with its timestamp and outcome,
 * for the checker's serial replay. `audit` reads every account in one final transaction.
 *
 * A faulty client (client-behavior.ts) runs the same loop; its faulty transactions end with outcome
 * `unknown` (the simulation resolves them from the replicas at the end), and the client moves on to
 * a fresh transfer. Transactions its behaviour makes up are logged too (kind `shadow`).
 */
import type { Key } from '../protocol/messages.ts';
import { formatTs, type Timestamp } from '../protocol/timestamp.ts';
import type { OpResult } from '../client/core/results.ts';
import type { SimNetwork } from './network.ts';
import type { Prng } from './prng.ts';
import type { SimClient } from './sim-client.ts';

export type TxnKind = 'setup' | 'transfer' | 'audit' | 'shadow';

export interface TxnLog {
  readonly client: number;
  readonly kind: TxnKind;
  readonly ts: Timestamp;
  readonly reads: [Key, string | null][];
  readonly writes: [Key, string][];
  /** `unknown`: a faulty client's transaction, decided (or not) by the replicas, not by its client. */
  outcome: 'pending' | 'commit' | 'abort' | 'failed' | 'unknown';
  /**
   * A transaction still pending for its client at the end that correct replicas committed (another
   * client finished it): it joins the serial replay (others may have read its writes), while the
   * liveness check still counts it as pending.
   */
  committedAtReplicas?: boolean;
  path: string;
  startedUs: number;
  endedUs: number;
}

export interface BankOptions {
  readonly accounts: number;
  readonly initialBalance: number;
  /** Committed transfers after which the clients stop. */
  readonly transfers: number;
  readonly amountMax: number;
  /** Pause between a client's transactions. */
  readonly thinkUs: number;
  /** Transactions begun after which the clients give up (a livelock: the checker reports it). */
  readonly attemptsMax: number;
}

export function accountKey(i: number): Key {
  return `acct${String(i).padStart(4, '0')}`;
}

const enc = (s: string): Uint8Array => Buffer.from(s, 'utf8');
const dec = (v: Uint8Array | null): string | null => (v === null ? null : Buffer.from(v).toString('utf8'));

export function balanceOf(value: string | null): number {
  if (value === null) return 0;
  return Number(value.slice(0, value.indexOf(':')));
}

interface Intent {
  readonly from: number;
  readonly to: number;
  readonly amount: number;
}

export class BankWorkload {
  readonly history: TxnLog[] = [];
  committedTransfers = 0;
  setupDone = false;
  #active = 0;
  #stopping = false;

  constructor(
    readonly net: SimNetwork,
    readonly clients: readonly SimClient[],
    readonly prng: Prng,
    readonly opts: BankOptions,
  ) {
    for (const c of clients) {
      c.onShadow = (of, shadow) => {
        const orig = this.history.find((t) => t.client === c.id && formatTs(t.ts) === formatTs(of));
        const reads = orig === undefined ? [] : orig.reads.filter(([k]) => shadow.body.reads.some((r) => r.key === k));
        this.history.push({ client: c.id, kind: 'shadow', ts: shadow.body.ts, reads: [...reads], writes: [], outcome: 'unknown', path: 'shadow', startedUs: this.net.nowMicros, endedUs: -1 });
      };
    }
  }

  get idle(): boolean {
    return this.#stopping && this.#active === 0;
  }

  get finished(): boolean {
    return (this.committedTransfers >= this.opts.transfers || this.gaveUp) && this.#active === 0;
  }

  get targetReached(): boolean {
    return this.committedTransfers >= this.opts.transfers;
  }

  /** Operations not answered yet, with the client and the virtual time they started. */
  pending(): TxnLog[] {
    return this.history.filter((t) => t.outcome === 'pending');
  }

  /** Runs the setup transaction (retried until it commits), then starts every client's loop. */
  start(): void {
    const c = this.clients[0]!;
    const txn = c.begin();
    const log = this.#log(c, txn, 'setup');
    for (let i = 0; i < this.opts.accounts; i++) {
      const v = `${this.opts.initialBalance}:setup`;
      c.write(txn, accountKey(i), enc(v));
      log.writes.push([accountKey(i), v]);
    }
    c.commit(txn, (r) => {
      this.#end(log, r);
      if (log.outcome !== 'commit') return this.net.schedule(this.opts.thinkUs, () => this.start());
      this.setupDone = true;
      for (const client of this.clients) this.#next(client, null);
    });
  }

  /** True once the clients gave up: too many attempts without reaching the target. */
  get gaveUp(): boolean {
    return this.history.length >= this.opts.attemptsMax;
  }

  #next(c: SimClient, retry: Intent | null): void {
    if (this.committedTransfers >= this.opts.transfers || this.gaveUp) {
      this.#stopping = true;
      return;
    }
    this.#active += c.awaited;
    const n = this.opts.accounts;
    let intent = retry;
    if (intent === null) {
      const from = this.prng.int(n);
      const to = (from + 1 + this.prng.int(n - 1)) % n;
      intent = { from, to, amount: this.prng.range(1, this.opts.amountMax) };
    }
    this.#transfer(c, intent);
  }

  #transfer(c: SimClient, it: Intent): void {
    const txn = c.begin();
    const log = this.#log(c, txn, 'transfer');
    const fromKey = accountKey(it.from);
    const toKey = accountKey(it.to);
    const again = (): void => {
      this.#active -= c.awaited;
      this.net.schedule(this.opts.thinkUs, () => this.#next(c, it));
    };
    c.read(txn, fromKey, (ra) => {
      if (ra.kind !== 'read') return this.#failed(c, txn, log, again);
      log.reads.push([fromKey, dec(ra.value)]);
      c.read(txn, toKey, (rb) => {
        if (rb.kind !== 'read') return this.#failed(c, txn, log, again);
        log.reads.push([toKey, dec(rb.value)]);
        const a = balanceOf(dec(ra.value));
        const b = balanceOf(dec(rb.value));
        const tag = `${c.id}.${txn}`;
        if (a >= it.amount) {
          const va = `${a - it.amount}:${tag}`;
          const vb = `${b + it.amount}:${tag}`;
          c.write(txn, fromKey, enc(va));
          c.write(txn, toKey, enc(vb));
          log.writes.push([fromKey, va], [toKey, vb]);
        }
        c.commit(txn, (r) => {
          this.#end(log, r);
          this.#active -= c.awaited;
          const fault = c.faultyTxns.get(txn);
          if (fault !== undefined) {
            // A faulty transaction: the replicas decide it; the client goes on with a new transfer.
            log.outcome = 'unknown';
            log.path = fault;
            this.net.schedule(this.opts.thinkUs, () => this.#next(c, null));
          } else if (log.outcome === 'commit') {
            this.committedTransfers++;
            this.net.schedule(this.opts.thinkUs, () => this.#next(c, null));
          } else {
            this.net.schedule(this.opts.thinkUs, () => this.#next(c, it));
          }
        });
      });
    });
  }

  #failed(c: SimClient, txn: number, log: TxnLog, again: () => void): void {
    c.abort(txn);
    log.outcome = 'failed';
    log.endedUs = this.net.nowMicros;
    again();
  }

  /** Reads every account in one transaction, retried until it commits; calls back with the values. */
  audit(c: SimClient, done: (log: TxnLog) => void): void {
    const txn = c.begin();
    const log = this.#log(c, txn, 'audit');
    const step = (i: number): void => {
      if (i === this.opts.accounts) {
        c.commit(txn, (r) => {
          this.#end(log, r);
          if (log.outcome === 'commit') done(log);
          else this.net.schedule(this.opts.thinkUs, () => this.audit(c, done));
        });
        return;
      }
      c.read(txn, accountKey(i), (r) => {
        if (r.kind !== 'read') {
          c.abort(txn);
          log.outcome = 'failed';
          return this.net.schedule(this.opts.thinkUs, () => this.audit(c, done));
        }
        log.reads.push([accountKey(i), dec(r.value)]);
        step(i + 1);
      });
    };
    step(0);
  }

  #log(c: SimClient, txn: number, kind: TxnKind): TxnLog {
    const ts = c.core.timestampOf(txn)!;
    const log: TxnLog = { client: c.id, kind, ts, reads: [], writes: [], outcome: 'pending', path: '', startedUs: this.net.nowMicros, endedUs: -1 };
    this.history.push(log);
    this.net.note(`c${c.id} begin ${kind} ${formatTs(ts)}`);
    return log;
  }

  #end(log: TxnLog, r: OpResult): void {
    log.endedUs = this.net.nowMicros;
    if (r.kind !== 'commit') {
      log.outcome = 'failed';
      log.path = r.kind === 'failed' ? r.reason : 'unexpected';
    } else {
      log.outcome = r.outcome;
      log.path = r.outcome === 'abort' ? `${r.path}:${r.cause}` : r.path;
    }
    this.net.note(`c${log.client} ${log.kind} ${formatTs(log.ts)} -> ${log.outcome} ${log.path}`);
  }
}
