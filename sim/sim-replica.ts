/**
 * The simulator's replica shell (DESIGN §2): the production `ReplicaCore` on virtual time, fed
 * through the same boundary as `replica/shell/replica-server.ts` (bytes decoded by the codec,
 * decisions and writebacks checked by a `CertificateVerifier`, failures counted by reason), with
 * real ed25519 signatures in Merkle batches: every statement the core asks to sign during one
 * virtual instant goes under one signature when the instant ends.
 *
 * Byzantine variants wrap the outgoing side (`ReplicaBehavior`): a behaviour sees each message the
 * correct core wants to send and returns what actually leaves (nothing, the message, a rewritten
 * or re-signed one, or different messages to different peers). `alive: false` also stops the
 * inbound side: a crash. Examples are in `REPLICA_BEHAVIORS`.
 */
import { CertificateVerifier } from '../protocol/certificate.ts';
import { decodeMessage, encodeMessage } from '../protocol/codec.ts';
import type { KeyPair } from '../protocol/crypto/ed25519.ts';
import { signBatchWithRoot, VerifiedRootCache } from '../protocol/crypto/signed.ts';
import { digestKey, replicaIndex, shardId, type DigestKey, type ShardId } from '../protocol/ids.ts';
import type { Key, Message, SigProof, Txn, VoteDecision, Writeback } from '../protocol/messages.ts';
import { shardOwns } from '../protocol/sharding.ts';
import { st2Leaf, voteLeaf } from '../protocol/statements.ts';
import type { Timestamp } from '../protocol/timestamp.ts';
import type { LogRecord } from '../protocol/log-record.ts';
import { checkAtReplica } from '../replica/core/boundary.ts';
import { ReplicaCore, type PeerHandle, type ReplicaCoreOptions, type SignRef } from '../replica/core/replica-core.ts';
import type { ApplyFault } from '../replica/core/range-reads.ts';
import type { TxnRecord } from '../replica/core/txn-record.ts';
import type { Engine } from '../sql/engine.ts';
import { QUERY_BEHAVIORS } from './byzantine-queries.ts';
import type { NodeId, SimNetwork } from './network.ts';
import type { Prng } from './prng.ts';

export interface SimClusterKeys {
  readonly f: number;
  readonly shardCount: number;
  /** keys[shard][index]. */
  readonly keys: readonly (readonly KeyPair[])[];
}

export function replicaNode(shard: number, index: number): NodeId {
  return `r${shard}.${index}`;
}

/** What a Byzantine behaviour may use: the replica's own identity and key, and seeded randomness. */
export interface ByzantineTools {
  readonly shard: ShardId;
  readonly index: number;
  readonly prng: Prng;
  /** Signs one statement with this replica's key right away (a batch of one). */
  signNow(leaf: Uint8Array): SigProof;
  /** T of the query `req` from `client` this replica is answering, if it saw it. */
  queryTs(client: NodeId, req: number): Timestamp | undefined;
  /** Transactions this replica received lately (ST1s and writebacks), oldest first. */
  recentTxns(): readonly Txn[];
  /** Certified outcomes this replica received lately, with their transactions, oldest first. */
  recentDecided(): readonly Writeback[];
  txnState(key: DigestKey): TxnRecord['state'] | 'unknown';
  /** Counts what the behaviour did (reported by the simulation). */
  count(event: string): void;
  /** Sends `msg` to `to` `afterUs` from now instead of at once (the network's delay comes on top). */
  sendLater(afterUs: number, to: NodeId, msg: Message): void;
}

export interface ReplicaBehavior {
  readonly name: string;
  /** False: a crashed replica, which neither receives nor sends. */
  readonly alive: boolean;
  /** The messages that actually leave when the correct core sends `msg` to `to`. */
  outgoing(msg: Message, to: NodeId, tools: ByzantineTools): readonly Message[];
}

export const CORRECT: ReplicaBehavior = { name: 'correct', alive: true, outgoing: (m) => [m] };

const flip = { commit: 'abstain', abstain: 'commit' } as const;

/** How late the 'late-votes' replica sends its votes: past the simulated clients' 2 ms floor on the fast-path wait, within eight times the calm network's ST1 round trip. */
const LATE_VOTE_US = 3_000;

/** Example Byzantine replicas (at most f per shard in a run). */
export const REPLICA_BEHAVIORS = {
  correct: CORRECT,
  /** Crashed from the start: drops everything. */
  crashed: { name: 'crashed', alive: false, outgoing: () => [] },
  /** Votes the opposite of what validation said, and logs the opposite ST2 decision, validly signed. */
  'flip-votes': {
    name: 'flip-votes',
    alive: true,
    outgoing(m, _to, t) {
      if (m.kind === 'prepareReply' && m.decided === null && m.decision !== 'abort') {
        const decision = flip[m.decision];
        return [{ ...m, decision, sig: t.signNow(voteLeaf(m.digest, m.shard, decision)) }];
      }
      if (m.kind === 'decideReply') {
        const decision = m.decision === 'commit' ? 'abort' : 'commit';
        return [{ ...m, decision, sig: t.signNow(st2Leaf(m.digest, m.logShard, decision, m.view)) }];
      }
      return [m];
    },
  },
  /** Signs garbage: every signature it sends is random bytes; read replies claim the key is empty. */
  'garbage-sigs': {
    name: 'garbage-sigs',
    alive: true,
    outgoing(m, _to, t) {
      const garble = (s: SigProof): SigProof => ({ signer: s.signer, rootSignature: t.prng.bytes(64), index: s.index, path: s.path, macs: s.macs });
      switch (m.kind) {
        case 'prepareReply':
          return [{ ...m, sig: m.sig === null ? null : garble(m.sig) }];
        case 'decideReply':
          return [{ ...m, sig: garble(m.sig) }];
        case 'readReply':
          return [{ ...m, committed: null, prepared: null }];
        default:
          return [m];
      }
    },
  },
  /** Equivocates: tells half of its peers one vote and the other half the opposite, both validly signed. */
  equivocate: {
    name: 'equivocate',
    alive: true,
    outgoing(m, to, t) {
      if (m.kind === 'prepareReply' && m.decided === null && m.decision !== 'abort' && t.prng.chance(0.5)) {
        const decision = flip[m.decision];
        return [{ ...m, decision, sig: t.signNow(voteLeaf(m.digest, m.shard, decision)) }];
      }
      if (m.kind === 'readReply' && Number(to.slice(1)) % 2 === 0) return [{ ...m, committed: null, prepared: null }];
      return [m];
    },
  },
  /**
   * Votes late on purpose: every ST1 vote leaves `LATE_VOTE_US` after the core made it, long after the
   * other replicas' votes but within the client's long fast-path wait (decision 0030), so that a client
   * waiting long for every missing vote would wait for this one every time.
   */
  'late-votes': {
    name: 'late-votes',
    alive: true,
    outgoing(m, to, t) {
      if (m.kind !== 'prepareReply' || m.decided !== null) return [m];
      t.count('late-vote');
      t.sendLater(LATE_VOTE_US, to, m);
      return [];
    },
  },
  ...QUERY_BEHAVIORS,
} as const satisfies Record<string, ReplicaBehavior>;

export type ReplicaBehaviorName = keyof typeof REPLICA_BEHAVIORS;

const SIGN_BATCH_MAX = 32;
/** What a replica remembers for its Byzantine behaviour (recent transactions, outcomes, query timestamps). */
const RECENT_MAX = 64;
const QUERY_TS_MAX = 256;

/** Per-replica options of a run beyond the identity. */
export interface SimReplicaOptions {
  readonly clockSkewMaxMicros: number;
  readonly gcWindowMicros: number;
  /** The SQL engine range reads run on (one per process; `sim/sim-engine.ts`). */
  readonly engine?: Engine;
  /** Fault injection: committed writes range reads do not see (a correct replica otherwise). */
  readonly applyFault?: ApplyFault;
}

/** What survives a crash: the whole log, or nothing (amnesia, a negative control for the checker). */
export type RestartLog = 'intact' | 'empty';

export class SimReplica {
  /**
   * What this replica persisted, in order (its write-ahead log). Effects of one virtual event are
   * drained together, so every record whose effects were emitted before a crash is here: the
   * production rule (the turn's records are flushed before the turn's sends leave) holds.
   */
  log: LogRecord[] = [];
  core: ReplicaCore;
  readonly node: NodeId;
  verifier: CertificateVerifier;
  readonly rejected: Record<string, number> = {};
  signatures = 0;
  /** Crashes and restarts so far. */
  restarts = 0;
  /**
   * Every ST1 vote this replica sent, across restarts (the simulator's ground truth, not its disk):
   * PROTOCOL §9, one vote per transaction per replica, forever. A different second vote is recorded
   * in `doubleVotes`.
   */
  readonly votesSent = new Map<string, VoteDecision>();
  readonly doubleVotes: string[] = [];
  /** What the Byzantine behaviour did, by event. */
  readonly behaviorEvents: Record<string, number> = {};
  #down = false;
  readonly #recentTxns: Txn[] = [];
  readonly #recentDecided: Writeback[] = [];
  readonly #queryTs = new Map<string, Timestamp>();
  #cache = new VerifiedRootCache(1 << 14);
  #handles = new Map<NodeId, PeerHandle>();
  #peers: NodeId[] = [''];
  readonly #coreOpts: ReplicaCoreOptions;
  #leaves: Uint8Array[] = [];
  #refs: SignRef[] = [];
  readonly #tools: ByzantineTools;

  constructor(
    readonly net: SimNetwork,
    readonly cluster: SimClusterKeys,
    readonly shard: number,
    readonly index: number,
    readonly behavior: ReplicaBehavior,
    prng: Prng,
    opts: SimReplicaOptions,
  ) {
    const { f, shardCount } = cluster;
    const sid = shardId(shard);
    const owns = shardCount === 1 ? (): boolean => true : (key: Key): boolean => shardOwns(key, sid, shardCount);
    this.node = replicaNode(shard, index);
    this.#coreOpts = {
      shard: sid,
      index: replicaIndex(index),
      f,
      owns,
      shardCount,
      clockSkewMaxMicros: opts.clockSkewMaxMicros,
      gcWindowMicros: opts.gcWindowMicros,
      ...(opts.engine === undefined ? {} : { engine: opts.engine }),
      ...(opts.applyFault === undefined ? {} : { applyFault: opts.applyFault }),
    };
    this.core = this.#newCore();
    this.verifier = this.#newVerifier();
    const key = this.#keyPair;
    this.#tools = {
      shard: sid,
      index,
      prng,
      signNow: (leaf) => {
        this.signatures++;
        return signBatchWithRoot([leaf], key.secretKey, index).proofs[0]!;
      },
      queryTs: (client, req) => this.#queryTs.get(`${client}#${req}`),
      recentTxns: () => this.#recentTxns,
      recentDecided: () => this.#recentDecided,
      txnState: (k) => this.core.txnState(k),
      count: (event) => {
        this.behaviorEvents[event] = (this.behaviorEvents[event] ?? 0) + 1;
      },
      sendLater: (afterUs, to, msg) => {
        const bytes = encodeMessage(msg);
        net.schedule(afterUs, () => {
          if (!this.#down) net.send(this.node, to, bytes, msg.kind);
        });
      },
    };
    net.register(this.node, (from, bytes) => this.#onBytes(from, bytes));
    net.onInstantEnd(() => this.#flushSignatures());
  }

  #newCore(): ReplicaCore {
    return new ReplicaCore(this.#coreOpts, { nowMicros: () => this.net.nowMicros });
  }

  #newVerifier(): CertificateVerifier {
    const { f, shardCount } = this.cluster;
    return new CertificateVerifier({ f, shardCount, publicKey: (s, i) => this.cluster.keys[s]?.[i]?.publicKey, cache: this.#cache });
  }

  get down(): boolean {
    return this.#down;
  }

  /**
   * The process stops: from now on it neither receives, sends, nor ticks. Statements waiting for
   * this instant's signature batch are lost with the process (their log records are not: they were
   * emitted, hence written, together with the sends of their event).
   */
  crash(): void {
    this.#down = true;
    this.#leaves = [];
    this.#refs = [];
    this.net.note(`crash ${this.node}`);
  }

  /**
   * The process starts again: a new core restored from the log (or from nothing: amnesia), with
   * fresh volatile state (no cached signatures or verified roots, no peer handles).
   */
  restart(log: RestartLog): void {
    if (log === 'empty') this.log = [];
    this.core = this.#newCore();
    this.core.restore(this.log);
    this.#cache = new VerifiedRootCache(1 << 14);
    this.verifier = this.#newVerifier();
    this.#handles = new Map();
    this.#peers = [''];
    this.#down = false;
    this.restarts++;
    this.net.note(`restart ${this.node} (${log} log, ${this.log.length} records)`);
  }

  get #keyPair(): KeyPair {
    return this.cluster.keys[this.shard]![this.index]!;
  }

  #onBytes(from: NodeId, bytes: Uint8Array): void {
    if (!this.behavior.alive || this.#down) return;
    const decoded = decodeMessage(bytes);
    if (!decoded.ok) return this.#reject(`decode-${decoded.reason}`);
    const msg = decoded.value;
    const check = checkAtReplica(msg, this.verifier, (k) => this.core.knownTxn(k));
    if (check !== null) return this.#reject(check);
    if (this.behavior !== CORRECT) this.#remember(from, msg);
    this.core.handle(this.#handleOf(from), msg, this.#shardPeer(from));
    this.#drain();
  }

  /** What a Byzantine behaviour may lie with: recent transactions, outcomes, and the T of each query. */
  #remember(from: NodeId, msg: Message): void {
    const push = <T>(xs: T[], x: T): void => {
      xs.push(x);
      if (xs.length > RECENT_MAX) xs.shift();
    };
    if (msg.kind === 'prepare' && !this.#recentTxns.some((t) => t.key === msg.txn.key)) push(this.#recentTxns, msg.txn);
    if (msg.kind === 'writeback') {
      const txn = msg.txn ?? this.core.knownTxn(digestKey(msg.digest));
      if (txn !== null && !this.#recentDecided.some((wb) => digestKey(wb.digest) === txn.key)) push(this.#recentDecided, { ...msg, txn });
    }
    if (msg.kind === 'query') {
      this.#queryTs.set(`${from}#${msg.req}`, msg.ts);
      if (this.#queryTs.size > QUERY_TS_MAX) this.#queryTs.delete(this.#queryTs.keys().next().value!);
    }
  }

  /** The index of a replica of this shard behind `node`, else undefined (clients, other shards). */
  #shardPeer(node: NodeId): number | undefined {
    const m = /^r(\d+)\.(\d+)$/.exec(node);
    return m !== null && Number(m[1]) === this.shard ? Number(m[2]) : undefined;
  }


  #handleOf(node: NodeId): PeerHandle {
    let h = this.#handles.get(node);
    if (h === undefined) {
      h = this.#peers.length;
      this.#peers.push(node);
      this.#handles.set(node, h);
    }
    return h;
  }

  #drain(): void {
    for (const e of this.core.takeEffects()) {
      if (e.kind === 'sign') {
        this.#leaves.push(e.leaf);
        this.#refs.push(e.ref);
        continue;
      }
      if (e.kind === 'persist') {
        // The simulated disk: a restarted replica would be restored from it (ReplicaCore.restore).
        this.log.push(e.record);
        continue;
      }
      if (e.kind === 'timer') {
        const core = this.core;
        this.net.schedule(e.afterMs * 1000, () => {
          if (this.core !== core || this.#down || !this.behavior.alive) return;
          core.onTimer(e.id);
          this.#drain();
        });
        continue;
      }
      const to = e.kind === 'sendReplica' ? replicaNode(e.shard, e.index) : this.#peers[e.to];
      if (to === undefined) continue;
      if (e.msg.kind === 'prepareReply' && e.msg.decided === null) this.#noteVote(e.msg.digest, e.msg.decision);
      for (const m of this.behavior.outgoing(e.msg, to, this.#tools)) this.net.send(this.node, to, encodeMessage(m), m.kind);
    }
  }

  /** End of a virtual instant: sign what the core asked for, in batches, and hand back the proofs. */
  #flushSignatures(): void {
    if (this.#leaves.length === 0) return;
    const leaves = this.#leaves;
    const refs = this.#refs;
    this.#leaves = [];
    this.#refs = [];
    const key = this.#keyPair;
    for (let start = 0; start < leaves.length; start += SIGN_BATCH_MAX) {
      const end = Math.min(leaves.length, start + SIGN_BATCH_MAX);
      const batch = signBatchWithRoot(leaves.slice(start, end), key.secretKey, this.index);
      this.#cache.remember(key.publicKey, batch.root, batch.rootSignature);
      this.signatures++;
      for (let i = start; i < end; i++) this.core.onSigned(refs[i]!, batch.proofs[i - start]!);
    }
    this.#drain();
  }

  #noteVote(digest: Uint8Array, decision: VoteDecision): void {
    const key = Buffer.from(digest).toString('hex');
    const prior = this.votesSent.get(key);
    if (prior === undefined) this.votesSent.set(key, decision);
    else if (prior !== decision) this.doubleVotes.push(`${this.node} voted ${prior} then ${decision} on ${key.slice(0, 12)}`);
  }

  onTick(): void {
    if (!this.behavior.alive || this.#down) return;
    this.core.onTick();
    this.#drain();
  }

  #reject(reason: string): void {
    this.rejected[reason] = (this.rejected[reason] ?? 0) + 1;
  }
}
