/**
 * The simulator's client shell (DESIGN §2): the production `ClientCore` on virtual time and seeded
 * randomness, verifying every reply at the same boundary as `client/pesto-client.ts` (vote and ST2
 * signatures, commit proofs, conflict proofs) before the core sees it. Timers become virtual events.
 * Results come back through callbacks, run as their own events (never re-entrantly inside a drain).
 *
 * It also keeps what the checker needs: each transaction's timestamp and, once it is sent for
 * commit, its digest (so replica state can be compared with what the client was told).
 */
import { CertificateVerifier } from '../protocol/certificate.ts';
import { decodeMessage, encodeMessage } from '../protocol/codec.ts';
import { VerifiedRootCache } from '../protocol/crypto/signed.ts';
import { clientId, type DigestKey, type ReplicaRef, replicaIndex, shardId } from '../protocol/ids.ts';
import type { Key } from '../protocol/messages.ts';
import { formatTs } from '../protocol/timestamp.ts';
import { checkAtClient, type ClientBoundary } from '../client/core/boundary.ts';
import { ClientCore } from '../client/core/client-core.ts';
import type { OpResult } from '../client/core/results.ts';
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
  /** Digest of each transaction sent for commit, by formatted timestamp. */
  readonly digestByTs = new Map<string, DigestKey>();
  readonly #pending = new Map<number, (r: OpResult) => void>();
  readonly #boundary: ClientBoundary;
  #nextOp = 1;

  constructor(
    readonly net: SimNetwork,
    readonly cluster: SimClusterKeys,
    readonly id: number,
    prng: Prng,
    timeouts: SimClientTimeouts = SIM_CLIENT_TIMEOUTS,
  ) {
    this.node = clientNode(id);
    this.core = new ClientCore(
      { clientId: clientId(id), f: cluster.f, shardCount: cluster.shardCount, ...timeouts },
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

  commit(txn: number, cb: (r: OpResult) => void): void {
    this.#run((op) => this.core.commit(txn, op), cb);
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
    for (const e of this.core.takeEffects()) {
      switch (e.kind) {
        case 'send': {
          const m = e.msg;
          if (m.kind === 'prepare') this.digestByTs.set(formatTs(m.txn.body.ts), m.txn.key);
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
          const cb = this.#pending.get(e.op);
          this.#pending.delete(e.op);
          const result = e.result;
          if (cb !== undefined) this.net.schedule(0, () => cb(result));
          break;
        }
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
    this.core.handle(from, msg);
    this.#drain();
  }


  #reject(reason: string): void {
    this.rejected[reason] = (this.rejected[reason] ?? 0) + 1;
  }
}
