/**
 * The simulator's client shell (DESIGN §2): the production `ClientCore` on virtual time and seeded
 * randomness, verifying every reply at the same boundary as `client/pesto-client.ts` (vote and ST2
 * signatures, commit proofs, conflict proofs) before the core sees it. Timers become virtual events.
 * Results come back through callbacks, run as their own events (never re-entrantly inside a drain).
 *
 * It also keeps what the checker needs: each transaction's timestamp and, once it is sent for
 * commit, its digest (so replica state can be compared with what the client was told).
 *
 * A faulty client (`ClientFaultSpec`) runs the same core, but every `every`-th transaction it
 * commits goes through a `ClientBehavior` (client-behavior.ts): it filters what the core sends and
 * hears about that transaction, and tells the workload when the client is done with it.
 */
import { CertificateVerifier } from '../protocol/certificate.ts';
import { decodeMessage, encodeMessage } from '../protocol/codec.ts';
import { VerifiedRootCache } from '../protocol/crypto/signed.ts';
import { clientId, digestKey, type DigestKey, type ReplicaRef, replicaIndex, shardId } from '../protocol/ids.ts';
import type { Key, Message, Txn } from '../protocol/messages.ts';
import { formatTs, type Timestamp } from '../protocol/timestamp.ts';
import { checkAtClient, type ClientBoundary } from '../client/core/boundary.ts';
import { ClientCore } from '../client/core/client-core.ts';
import type { QuerySpec } from '../client/core/client-options.ts';
import type { OpResult } from '../client/core/results.ts';
import { CLIENT_BEHAVIORS, type ClientBehaviorName, type FaultyTxnContext, type FaultyTxnHandler } from './client-behavior.ts';
import type { NodeId, SimNetwork } from './network.ts';
import type { Prng } from './prng.ts';
import { replicaNode, type SimClusterKeys } from './sim-replica.ts';

export interface SimClientTimeouts {
  readonly fastPathWaitMs: number;
  readonly fastPathWaitMaxMs: number;
  readonly resendMs: number;
  readonly readRetryMs: number;
  readonly relayWaitMs: number;
}

export const SIM_CLIENT_TIMEOUTS: SimClientTimeouts = Object.freeze({ fastPathWaitMs: 2, fastPathWaitMaxMs: 20, resendMs: 100, readRetryMs: 50, relayWaitMs: 100 });

/** Client core knobs a scenario may set (range reads). */
export interface SimClientQueryOptions {
  /** The paper's stress knob: every eager round of a range read is treated as failed. */
  readonly forceSyncQueries?: boolean;
  /** False: eager rounds start at a random offset instead of leaving out replicas that disagreed. */
  readonly learnQueryTargets?: boolean;
}

/** A Byzantine or crashing client: `behavior` applies to every `every`-th transaction it commits. */
export interface ClientFaultSpec {
  readonly behavior: ClientBehaviorName;
  readonly every: number;
}

interface FaultyTxn {
  readonly txnId: number;
  readonly ts: Timestamp;
  readonly cb: (r: OpResult) => void;
  /** The commit operation (its `done` effect comes just before the original finisher's writeback). */
  readonly op: number;
  /** The transaction as the original finisher holds it (object identity tells its requests apart). */
  txn: Txn | null;
  handler: FaultyTxnHandler | null;
  released: boolean;
}

/** What the workload hears about a faulty transaction: nothing it can trust (the replicas decide). */
const RELEASED: OpResult = { kind: 'failed', reason: 'byzantine client' };

function digestOf(m: Message): DigestKey | null {
  switch (m.kind) {
    case 'prepare':
      return m.txn.key;
    case 'decide':
    case 'writeback':
    case 'prepareReply':
    case 'decideReply':
      return digestKey(m.digest);
    default:
      return null;
  }
}

export function clientNode(id: number): NodeId {
  return `c${id}`;
}

function parseReplica(node: NodeId): ReplicaRef | null {
  const m = /^r(\d+)\.(\d+)$/.exec(node);
  return m === null ? null : { shard: shardId(Number(m[1])), index: replicaIndex(Number(m[2])) };
}

export class SimClient {
  readonly core: ClientCore;
  readonly node: NodeId;
  readonly verifier: CertificateVerifier;
  readonly rejected: Record<string, number> = {};
  /** What the faulty behaviour did (events it counts, and `faulty` per misbehaving transaction). */
  readonly faultEvents: Record<string, number> = {};
  /** Digest of each transaction sent for commit, by formatted timestamp. */
  readonly digestByTs = new Map<string, DigestKey>();
  readonly #pending = new Map<number, (r: OpResult) => void>();
  readonly #boundary: ClientBoundary;
  #nextOp = 1;
  /** Faulty transactions by workload transaction id (the behaviour's name), for the workload. */
  readonly faultyTxns = new Map<number, ClientBehaviorName>();
  /** Faulty transactions by formatted timestamp until their first ST1, then by digest. */
  readonly #faultyByTs = new Map<string, FaultyTxn>();
  readonly #faultyByKey = new Map<DigestKey, FaultyTxn>();
  #commits = 0;
  /** Made-up transactions of a faulty behaviour: (the faulty transaction's timestamp, the made-up one). */
  onShadow: ((of: Timestamp, shadow: Txn) => void) | null = null;

  /**
   * 1 when the workload waits for this client's transactions before it ends, else 0. A client that
   * `forgets` its abandoned transactions sabotages its own later ones (one that read the abandoned
   * one's prepared writes waits for it, and only other clients' recoveries finish it, which they need
   * not once the workload's target is reached): a faulty client is owed no liveness.
   */
  get awaited(): 0 | 1 {
    return this.fault !== null && CLIENT_BEHAVIORS[this.fault.behavior].forgets ? 0 : 1;
  }

  constructor(
    readonly net: SimNetwork,
    readonly cluster: SimClusterKeys,
    readonly id: number,
    readonly prng: Prng,
    timeouts: SimClientTimeouts = SIM_CLIENT_TIMEOUTS,
    readonly fault: ClientFaultSpec | null = null,
    queryOptions: SimClientQueryOptions = {},
  ) {
    this.node = clientNode(id);
    this.core = new ClientCore(
      { clientId: clientId(id), f: cluster.f, shardCount: cluster.shardCount, ...timeouts, ...(queryOptions.forceSyncQueries === true ? { forceSyncQueries: true } : {}), ...(queryOptions.learnQueryTargets === false ? { learnQueryTargets: false } : {}) },
      { nowMicros: () => net.nowMicros, random: () => prng.float() },
    );
    this.verifier = new CertificateVerifier({
      f: cluster.f,
      shardCount: cluster.shardCount,
      publicKey: (s, i) => cluster.keys[s]?.[i]?.publicKey,
      cache: new VerifiedRootCache(1 << 14),
    });
    this.#boundary = { verifier: this.verifier, txnOfReq: (req) => this.core.txnOfReq(req), verifiedCommits: new Set() };
    net.register(this.node, (from, bytes) => this.#onBytes(from, bytes));
  }

  begin(): number {
    return this.core.begin();
  }

  read(txn: number, key: Key, cb: (r: OpResult) => void): void {
    this.#run((op) => this.core.read(txn, key, op), cb);
  }

  write(txn: number, key: Key, value: Uint8Array | null): void {
    this.core.write(txn, key, value);
  }

  /** A range read (PROTOCOL §4.2): the SQL statement runs on the replicas of `spec.shard` at T. */
  query(txn: number, spec: QuerySpec, cb: (r: OpResult) => void): void {
    this.#run((op) => this.core.query(txn, spec, op), cb);
  }

  /** A read the caller already holds (a cached catalog version) joins the read set. */
  noteRead(txn: number, key: Key, version: Timestamp, value: Uint8Array | null): void {
    this.core.noteRead(txn, key, version, value);
  }

  commit(txn: number, cb: (r: OpResult) => void): void {
    this.#commits++;
    const fault = this.fault;
    const ts = this.core.timestampOf(txn);
    if (fault === null || this.#commits % fault.every !== 0 || ts === undefined) {
      this.#run((op) => this.core.commit(txn, op), cb);
      return;
    }
    const ft: FaultyTxn = { txnId: txn, ts, cb, op: this.#nextOp, txn: null, handler: null, released: false };
    this.faultyTxns.set(txn, fault.behavior);
    this.#faultyByTs.set(formatTs(ts), ft);
    this.net.note(`${this.node} ${fault.behavior} on ${formatTs(ts)}`);
    // The core's own outcome is not what the workload hears: the faulty client is done when it says so.
    this.#run((op) => this.core.commit(txn, op), () => this.#release(ft));
  }

  #release(ft: FaultyTxn): void {
    if (ft.released) return;
    ft.released = true;
    this.net.schedule(0, () => ft.cb(RELEASED));
  }

  #startFaulty(ft: FaultyTxn, txn: Txn): FaultyTxnHandler {
    const ctx: FaultyTxnContext = {
      txn,
      q: this.core.q,
      prng: this.prng,
      nowMicros: () => this.net.nowMicros,
      send: (to, msg, afterUs = 0) => {
        const bytes = encodeMessage(msg);
        const send = (): void => this.net.send(this.node, replicaNode(to.shard, to.index), bytes, msg.kind);
        if (afterUs === 0) send();
        else this.net.schedule(afterUs, send);
      },
      release: () => this.#release(ft),
      shadow: (s) => {
        this.digestByTs.set(formatTs(s.body.ts), s.key);
        this.onShadow?.(ft.ts, s);
      },
      note: (what) => this.net.note(`${this.node} ${what}`),
      count: (event) => {
        this.faultEvents[event] = (this.faultEvents[event] ?? 0) + 1;
      },
    };
    ctx.count('faulty');
    this.#faultyByKey.set(txn.key, ft);
    ft.txn = txn;
    const h = CLIENT_BEHAVIORS[this.fault!.behavior].start(ctx);
    ft.handler = h;
    return h;
  }

  /**
   * The behaviour that handles an outgoing message about a faulty transaction, if any (starting it
   * at the transaction's first ST1). Only the original finisher's messages misbehave, unless the
   * behaviour `forgets`: a later recovery of the transaction by this client's core (a dependency
   * of its next transaction) is correct-client behaviour. `finishing`: the faulty transaction's
   * outcome was just reported, so a writeback in the same drain is the original finisher's.
   */
  #faultyOf(m: Message, finishing: FaultyTxn | null): FaultyTxnHandler | null {
    if (this.fault === null) return null;
    const key = digestOf(m);
    if (key === null) return null;
    const ft = this.#faultyByKey.get(key);
    if (ft !== undefined) {
      if (CLIENT_BEHAVIORS[this.fault.behavior].forgets) return ft.handler;
      const original = m.kind === 'writeback' ? finishing === ft || m.txn === ft.txn : 'req' in m && this.core.txnOfReq(m.req) === ft.txn;
      return original ? ft.handler : null;
    }
    if (m.kind !== 'prepare' || m.txn.body.ts.clientId !== this.id) return null;
    const byTs = this.#faultyByTs.get(formatTs(m.txn.body.ts));
    if (byTs === undefined || byTs.handler !== null) return null;
    this.#faultyByTs.delete(formatTs(m.txn.body.ts));
    return this.#startFaulty(byTs, m.txn);
  }

  abort(txn: number): void {
    this.core.abort(txn);
  }

  #run(start: (op: number) => void, cb: (r: OpResult) => void): void {
    const op = this.#nextOp++;
    this.#pending.set(op, cb);
    start(op);
    this.#drain();
  }

  #drain(): void {
    let finishing: FaultyTxn | null = null;
    for (const e of this.core.takeEffects()) {
      switch (e.kind) {
        case 'send': {
          const m = e.msg;
          if (m.kind === 'prepare') this.digestByTs.set(formatTs(m.txn.body.ts), m.txn.key);
          const faulty = this.#faultyOf(m, finishing);
          if (faulty !== null && !faulty.outgoing(m, e.to)) break;
          this.net.send(this.node, replicaNode(e.to.shard, e.to.index), encodeMessage(m), m.kind);
          break;
        }
        case 'timer': {
          const id = e.id;
          this.net.schedule(e.afterMs * 1000, () => {
            this.core.onTimer(id);
            this.#drain();
          });
          break;
        }
        case 'done': {
          if (this.#faultyByKey.size > 0) finishing = [...this.#faultyByKey.values()].find((ft) => ft.op === e.op) ?? finishing;
          const cb = this.#pending.get(e.op);
          this.#pending.delete(e.op);
          const result = e.result;
          if (cb !== undefined) this.net.schedule(0, () => cb(result));
          break;
        }
        case 'early':
          // The simulator's workloads decode only agreed results (their range reads do not ask for early ones).
          break;
      }
    }
  }

  #onBytes(fromNode: NodeId, bytes: Uint8Array): void {
    const from = parseReplica(fromNode);
    if (from === null) return this.#reject('not-a-replica');
    const decoded = decodeMessage(bytes);
    if (!decoded.ok) return this.#reject(`decode-${decoded.reason}`);
    const msg = decoded.value;
    const reason = checkAtClient(this.#boundary, from, msg);
    if (reason === 'late') return;
    if (reason !== null) return this.#reject(reason);
    if (this.fault !== null) {
      // Replies to the original finisher's requests (a later recovery by this core is correct).
      const txn = 'req' in msg ? this.core.txnOfReq(msg.req) : null;
      const ft = txn === null ? undefined : this.#faultyByKey.get(txn.key);
      const h = ft === undefined || (ft.txn !== txn && !CLIENT_BEHAVIORS[this.fault.behavior].forgets) ? null : ft.handler;
      if (h !== null && !h.incoming(from, msg)) return;
    }
    this.core.handle(from, msg);
    this.#drain();
  }


  #reject(reason: string): void {
    this.rejected[reason] = (this.rejected[reason] ?? 0) + 1;
  }
}
