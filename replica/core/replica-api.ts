/**
 * The replica core's interface with its shell (DESIGN §2): the effects it returns, what it signs, the
 * environment and options it is built with, and the counters it keeps. replica-core.ts re-exports them.
 */
import type { DigestKey, ReplicaIndex, ShardId } from '../../protocol/ids.ts';
import type { Key, Message, Outcome, VoteDecision } from '../../protocol/messages.ts';
import type { LogRecord } from '../../protocol/log-record.ts';
import type { GraceConfig, LimitsConfig } from '../../protocol/config.ts';
import type { Engine } from '../../sql/engine.ts';
import type { ApplyFault, QueryStats } from './range-reads.ts';
import type { AbortReason, AbstainReason } from './validation.ts';

/** Opaque handle of the link a message came from; replies go back to it. */
export type PeerHandle = number;

export type SignRef =
  | { readonly kind: 'vote'; readonly txn: DigestKey }
  /** An ST2 decision at `view` (a later view may replace it before the signature is back). */
  | { readonly kind: 'st2'; readonly txn: DigestKey; readonly view: number }
  /** An elect statement for `view`, owed to `peer` (PROTOCOL §7). */
  | { readonly kind: 'elect'; readonly txn: DigestKey; readonly view: number; readonly decision: Outcome; readonly peer: PeerHandle; readonly req: number };

export type ReplicaEffect =
  | { readonly kind: 'send'; readonly to: PeerHandle; readonly msg: Message }
  /** Send to another replica of this shard (the shell dials it; PROTOCOL §4.2 step 5 fetches). */
  | { readonly kind: 'sendReplica'; readonly shard: ShardId; readonly index: number; readonly msg: Message }
  /** Call `onTimer(id)` after `afterMs` (the core ignores timers it no longer needs; never cancelled). */
  | { readonly kind: 'timer'; readonly id: number; readonly afterMs: number }
  /** Sign `leaf` (batched by the shell), then call `onSigned(ref, proof)`. */
  | { readonly kind: 'sign'; readonly leaf: Uint8Array; readonly ref: SignRef }
  /**
   * Append to the log. Votes and ST2 decisions are durable before any later effect of the same batch
   * leaves the replica (PROTOCOL §9); the shell flushes the log first.
   */
  | { readonly kind: 'persist'; readonly record: LogRecord };


export interface ReplicaEnv {
  nowMicros(): number;
}

export interface ReplicaCoreOptions {
  readonly shard: ShardId;
  readonly index: ReplicaIndex;
  readonly f: number;
  /** Whether this shard owns a key (validation and applying writes only look at owned keys). */
  readonly owns: (key: Key) => boolean;
  /**
   * Shards of the cluster (default 1): with more, a transaction that writes a key of table 0, which
   * every shard stores (protocol/sharding.ts onEveryShard), must involve them all.
   */
  readonly shardCount?: number;
  /** Replicas refuse timestamps further ahead of their clock than this. */
  readonly clockSkewMaxMicros: number;
  /** History older than now minus this is collected; older transactions and reads are refused. */
  readonly gcWindowMicros: number;
  /** Write-monotonicity grace periods (PROTOCOL §5 step 2; config `grace`); default DEFAULT_GRACE. */
  readonly grace?: GraceConfig;
  /** Parses SQL for range reads (`await Engine.create()`); without it queries get a 0A000 error outcome. */
  readonly engine?: Engine;
  /** How long a sync-round query waits for fetched transactions before executing anyway (default 200). */
  readonly fetchTimeoutMs?: number;
  /** Fault injection: withhold committed writes from range reads (range-reads.ts); default none. */
  readonly applyFault?: ApplyFault;
  /** Bytes the eager executions kept for sync rounds may retain (sync-reuse.ts; default MEMO_BYTES_MAX). */
  readonly syncReuseBytesMax?: number;
  /**
   * The cluster's limits (config `limits`): a range read whose read set or result would not fit a
   * transaction or a message is answered with a 54000 error outcome (default DEFAULT_LIMITS).
   */
  readonly limits?: Pick<LimitsConfig, 'txnKeysMax' | 'messageBytesMax'>;
}

export interface ReplicaStats extends QueryStats {
  reads: number;
  readsRefused: number;
  prepares: number;
  votes: Record<VoteDecision, number>;
  abstainReasons: Partial<Record<AbstainReason, number>>;
  abortReasons: Partial<Record<AbortReason, number>>;
  commits: number;
  aborts: number;
  st2Adopted: number;
  rejected: Record<string, number>;
}
