/**
 * The typed messages every core sees (DESIGN §3). protocol/codec.ts turns `Envelope` bytes into these
 * and back; nothing outside protocol/ touches the generated protobuf classes.
 *
 * Conventions:
 * - Keys are binary strings (one char per byte, latin1), so JS string order is byte order and they
 *   can key a Map directly; values are bytes.
 * - A decoded transaction (`Txn`) always carries its exact encoded bytes and the BLAKE3 digest of
 *   those bytes: the digest covers every field any replica validates (PROTOCOL §3).
 * - Decoded messages are readonly.
 */
import type { DigestKey, ShardId, TxnDigest } from './ids.ts';
import type { Timestamp } from './timestamp.ts';

/** Row or item key: a binary string, one char per byte. */
export type Key = string;

export const VOTE_DECISIONS = ['commit', 'abstain', 'abort'] as const;
/** A replica's ST1 vote. ABORT always carries the certificate of a committed conflicting transaction. */
export type VoteDecision = (typeof VOTE_DECISIONS)[number];
/** A transaction's outcome. */
export type Outcome = 'commit' | 'abort';

export interface ReadEntry {
  readonly key: Key;
  /** Version read; ZERO_TS when the key had no row. */
  readonly version: Timestamp;
}

export interface WriteEntry {
  readonly key: Key;
  /** New value; null deletes the key. */
  readonly value: Uint8Array | null;
}

export interface Dependency {
  readonly digest: TxnDigest;
  readonly shard: ShardId;
  /** Timestamp of the prepared version that was read. */
  readonly ts: Timestamp;
}

/** A scan predicate (PROTOCOL §4.3): table, the table version observed, the structured filter. */
export interface Predicate {
  readonly table: number;
  readonly tableVersion: Timestamp;
  readonly expr: Uint8Array;
}

export interface TxnBody {
  readonly ts: Timestamp;
  /** Involved shards, sorted ascending, distinct. */
  readonly shards: readonly ShardId[];
  /** Sorted by key, distinct keys. */
  readonly reads: readonly ReadEntry[];
  /** Sorted by key, distinct keys. */
  readonly writes: readonly WriteEntry[];
  readonly deps: readonly Dependency[];
  readonly predicates: readonly Predicate[];
  /** Opaque, digest-covered metadata for higher layers (e.g. query ids); empty for key-value use. */
  readonly meta: Uint8Array;
}

/** A transaction as it travels: the body, its exact bytes and the digest of those bytes. */
export interface Txn {
  readonly body: TxnBody;
  readonly bytes: Uint8Array;
  readonly digest: TxnDigest;
  readonly key: DigestKey;
}

/** One signature in a Merkle batch (protocol/crypto/signed.ts): the root is recomputed by folding. */
export interface SigProof {
  /** Signer's replica index within its shard. */
  readonly signer: number;
  readonly rootSignature: Uint8Array;
  readonly index: number;
  readonly path: Uint8Array;
  /**
   * ST1 votes only: one MAC per replica of the signer's shard, by index, so replicas can check
   * certificates without ed25519 (protocol/crypto/mac.ts, decision 0007). Undefined elsewhere; the
   * codec and the signer always set the field (undefined when absent), so every proof has one object
   * shape and the functions that read proofs stay monomorphic (decision 0029).
   */
  readonly macs?: Uint8Array | undefined;
}

export interface ShardSigs {
  readonly shard: ShardId;
  readonly sigs: readonly SigProof[];
}

/** ST1 votes: n COMMIT per involved shard (fast commit) or 3f+1 ABSTAIN of one shard (fast abort). */
export interface VoteCert {
  readonly decision: 'commit' | 'abstain';
  readonly shards: readonly ShardSigs[];
}

/** 4f+1 ST2 decisions of the logging shard at one view (slow path). */
export interface St2Cert {
  readonly decision: Outcome;
  readonly logShard: ShardId;
  readonly view: number;
  readonly sigs: readonly SigProof[];
}

/** A committed transaction with the certificate proving it. */
export interface CommittedTxn {
  readonly txn: Txn;
  readonly cert: { readonly kind: 'votes'; readonly votes: VoteCert } | { readonly kind: 'st2'; readonly st2: St2Cert };
}

/** Proof of a transaction's outcome, carried by writebacks. */
export type Certificate =
  | { readonly kind: 'votes'; readonly votes: VoteCert }
  | { readonly kind: 'st2'; readonly st2: St2Cert }
  /** Abort: a committed transaction that conflicts with this one. */
  | { readonly kind: 'conflict'; readonly conflict: CommittedTxn };

export interface CommittedRead {
  readonly version: Timestamp;
  readonly value: Uint8Array | null;
  /** Digest of the transaction that wrote this version. */
  readonly digest: TxnDigest;
  /**
   * The writer's commit proof, only when the request asked for it (decision 0010). Without it the
   * client accepts the version only when f+1 replies report it identically (a correct replica vouches).
   */
  readonly proof: CommittedTxn | null;
}

export interface PreparedRead {
  readonly version: Timestamp;
  readonly value: Uint8Array | null;
  readonly digest: TxnDigest;
}

export interface ReadRequest {
  readonly kind: 'read';
  readonly req: number;
  readonly key: Key;
  readonly ts: Timestamp;
  /** Send the committed version's commit proof with the reply (decision 0010). */
  readonly proof: boolean;
}

export interface ReadReply {
  readonly kind: 'readReply';
  readonly req: number;
  readonly key: Key;
  /** Newest committed version below the read timestamp; null when none (version 0). */
  readonly committed: CommittedRead | null;
  /** Newest readable prepared version above the committed one and below the read timestamp. */
  readonly prepared: PreparedRead | null;
}

/** ST1. */
export interface Prepare {
  readonly kind: 'prepare';
  readonly req: number;
  readonly txn: Txn;
}

/** ST1 reply: a signed vote, or the certificate when the transaction is already decided here. */
export interface PrepareReply {
  readonly kind: 'prepareReply';
  readonly req: number;
  readonly digest: TxnDigest;
  readonly shard: ShardId;
  readonly decision: VoteDecision;
  /** Signature over (digest, shard, decision); null for ABORT (which carries `conflict`) and when `decided`. */
  readonly sig: SigProof | null;
  readonly conflict: CommittedTxn | null;
  readonly decided: Writeback | null;
  /**
   * With ABSTAIN: the prepared, undecided transaction that conflicted (PROTOCOL §7). Its client may
   * have crashed or its writeback may have been lost here; the client that abstained finishes it.
   */
  readonly conflictPrepared: Txn | null;
}

/** ST2: log a decision on the logging shard, justified by ST1 votes. */
export interface Decide {
  readonly kind: 'decide';
  readonly req: number;
  readonly digest: TxnDigest;
  readonly decision: Outcome;
  readonly view: number;
  readonly logShard: ShardId;
  /** Exactly 3f+1 COMMIT votes of every involved shard, or f+1 ABSTAIN votes of one shard. */
  readonly justification: VoteCert;
  readonly txn: Txn;
}

export interface DecideReply {
  readonly kind: 'decideReply';
  readonly req: number;
  readonly digest: TxnDigest;
  readonly decision: Outcome;
  readonly view: number;
  readonly logShard: ShardId;
  readonly sig: SigProof;
}

export interface Writeback {
  readonly kind: 'writeback';
  readonly digest: TxnDigest;
  readonly cert: Certificate;
  /** Included for replicas that may not have seen ST1. */
  readonly txn: Txn | null;
}

/** A replica tells a client that its transaction (`waitingDigest`) waits for `txn` (PROTOCOL §7). */
export interface Relay {
  readonly kind: 'relay';
  readonly req: number;
  readonly waitingDigest: TxnDigest;
  readonly txn: Txn;
}

/** Fallback (PROTOCOL §7): move the transaction to `view` on the logging shard. */
export interface Elect {
  readonly kind: 'elect';
  readonly req: number;
  readonly view: number;
  /** The client's own ST2, so a replica without a decision can adopt one first. */
  readonly decide: Decide;
}

/** A replica's signed current decision for a view (at most one per replica and view). */
export interface ElectReply {
  readonly kind: 'electReply';
  readonly req: number;
  readonly digest: TxnDigest;
  readonly decision: Outcome;
  readonly view: number;
  readonly logShard: ShardId;
  readonly sig: SigProof;
}

/** Exactly 2f+1 matching elects of one view: replicas adopt the decision at that view. */
export interface DecisionFb {
  readonly kind: 'decisionFb';
  readonly req: number;
  readonly digest: TxnDigest;
  readonly decision: Outcome;
  readonly view: number;
  readonly logShard: ShardId;
  readonly elects: readonly SigProof[];
  readonly txn: Txn;
}

/** A transaction of a snapshot proposal and the replicas (indexes in the shard) that named it. */
export interface SnapshotEntry {
  readonly digest: TxnDigest;
  readonly holders: readonly number[];
}

/**
 * A range read (PROTOCOL §4.2): one SQL statement to run at `ts`. `retry` 0 is the eager round; k > 0
 * re-executes on `snapshot`. `recon`: a DML statement whose source rows (its reconnaissance read) are
 * wanted. `ownWrites` are the transaction's buffered writes (sorted by key, distinct), which the
 * execution sees and never records.
 */
export interface Query {
  readonly kind: 'query';
  readonly req: number;
  readonly ts: Timestamp;
  readonly sql: string;
  readonly params: Uint8Array;
  readonly ownWrites: readonly WriteEntry[];
  readonly recon: boolean;
  readonly retry: number;
  readonly snapshot: readonly SnapshotEntry[];
  /** Answer with the digest of the result and read set in place of them (a `QueryReply` with `bodyDigest`). */
  readonly digestOnly?: boolean;
  /** The session's TimeZone setting, as SHOW gives it (sql/session-zone.ts); absent: UTC. */
  readonly timeZone?: string;
}

/**
 * What one execution saw (PROTOCOL §4.3). Reads sorted by key and distinct.
 *
 * Digest-only replies (docs/decisions/0027): a sender sets `digestOnly` on a full reply and the encoder
 * writes `queryBodyDigest(result, reads)` (protocol/query-digest.ts) in place of the result and read set.
 * Decoded, such a reply has `bodyDigest` set (32 bytes), an empty `result` and no `reads`; predicates,
 * dependencies and the snapshot vote are always there.
 */
export interface QueryReply {
  readonly kind: 'queryReply';
  readonly req: number;
  readonly retry: number;
  /** sql/result-codec.ts: columns and rows, or the SQL error the statement raised. */
  readonly result: Uint8Array;
  readonly reads: readonly ReadEntry[];
  readonly predicates: readonly Predicate[];
  readonly deps: readonly Dependency[];
  readonly snapshotCommitted: readonly TxnDigest[];
  readonly snapshotPrepared: readonly TxnDigest[];
  /** Sending side: encode as a digest-only reply. */
  readonly digestOnly?: boolean;
  /** Set exactly on a decoded digest-only reply: BLAKE3 of its result and read set (absent here). */
  readonly bodyDigest?: Uint8Array;
}

/** Replica to replica: send me these transactions (PROTOCOL §4.2 step 5). */
export interface Fetch {
  readonly kind: 'fetch';
  readonly req: number;
  readonly digests: readonly TxnDigest[];
}

/** Decided transactions with their certificates (`txn` always set), undecided ones as their ST1. */
export interface FetchReply {
  readonly kind: 'fetchReply';
  readonly req: number;
  readonly decided: readonly Writeback[];
  readonly prepared: readonly Txn[];
}

export type Message = ReadRequest | ReadReply | Prepare | PrepareReply | Decide | DecideReply | Writeback | Relay | Elect | ElectReply | DecisionFb | Query | QueryReply | Fetch | FetchReply;
export type MessageKind = Message['kind'];

/** The certificate's outcome. */
export function certificateOutcome(cert: Certificate): Outcome {
  switch (cert.kind) {
    case 'votes':
      return cert.votes.decision === 'commit' ? 'commit' : 'abort';
    case 'st2':
      return cert.st2.decision;
    case 'conflict':
      return 'abort';
  }
}

/** The votes without their MAC vectors: what a commit proof needs once replicas have checked it. */
export function withoutMacs(votes: VoteCert): VoteCert {
  return {
    decision: votes.decision,
    shards: votes.shards.map((g) => ({ shard: g.shard, sigs: g.sigs.map((p) => ({ signer: p.signer, rootSignature: p.rootSignature, index: p.index, path: p.path, macs: undefined })) })),
  };
}
