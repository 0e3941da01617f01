/**
 * The records the client core exchanges with its shell: the options it runs with, the description of
 * a range read a caller hands it (PROTOCOL §4.2), and the counters it reports (ClientCore.stats).
 */
import type { ClientId, ShardId } from '../../protocol/ids.ts';
import type { WriteEntry } from '../../protocol/messages.ts';

export interface ClientCoreOptions {
  readonly clientId: ClientId;
  readonly f: number;
  readonly shardCount: number;
  readonly fastPathWaitMs: number;
  readonly fastPathWaitMaxMs: number;
  readonly resendMs: number;
  readonly readRetryMs: number;
  readonly relayWaitMs: number;
  /** Sync rounds a range read may take before it gives up (PROTOCOL §4.2 step 6). */
  readonly queryRetriesMax?: number;
  /** How long a range-read round waits before asking more replicas or moving on. */
  readonly queryRoundMs?: number;
  /** Fault knob (the paper's stress runs): treat every eager round as failed. */
  readonly forceSyncQueries?: boolean;
  /**
   * Range reads ask all but f+1 replicas per round for digest-only replies (range-read.ts, decision
   * 0027). Default false: it did not pay in the cluster benchmark (the decision's measurements).
   */
  readonly queryDigestReplies?: boolean;
  /**
   * Eager range-read rounds ask 3f+1 replicas, the matching quorum, instead of 4f+1, and widen to 4f+1
   * once those can no longer agree (or, on the round timer, once one lags behind its peers): one
   * execution fewer per read where replicas share CPUs, one more round trip when an asked replica is
   * faulty or slow (decision 0028). Default true (decision 0047: on this 2-core host it cut ycsb's CPU
   * per transaction, most of all under forced eager failure and simulated inconsistency, where the
   * learned targets can then leave both disagreeing replicas out); false asks 4f+1 (PROTOCOL §4.2).
   */
  readonly queryEagerQuorum?: boolean;
  /**
   * Leave the replicas whose range-read replies lately disagreed with the matching group (or stayed
   * silent) out of eager rounds (query-targets.ts; default true). A performance heuristic only: any
   * 3f+1 matching replies still decide. False: the 4f+1 start at a random offset.
   */
  readonly learnQueryTargets?: boolean;
  /**
   * How long the client keeps asking the same replicas first (point reads' f+1, the rotation among
   * equally scored range-read targets) before it draws others (replica-preference.ts, decision 0043).
   * Default DEFAULT_REPLICA_PREFERENCE_MS; 0: drawn afresh for every transaction and round.
   */
  readonly replicaPreferenceMs?: number;
  /**
   * A transaction whose timestamp is older than this (µs behind the client's clock) can no longer
   * read: replicas refuse reads below their low watermark (the history window) without answering, so
   * such a read would be retried forever. The shell sets it to the history window less the allowed
   * clock skew; reads and commits of an older transaction fail with 'too-old' (the caller retries the
   * transaction at a fresh timestamp). Unset: no limit.
   */
  readonly staleAfterMicros?: number;
  /**
   * What one transaction's ST1 may carry: limits.txnKeysMax entries per list, a body of at most
   * `bodyBytesMax` bytes, keys of at most `keyBytesMax` and values of at most `valueBytesMax` bytes
   * (protocol/codec-txn.ts CodecLimits). Replicas refuse anything larger undecoded, so such a commit
   * would be resent for ever; past them it fails with 'too-large' at once, sending nothing. A point read
   * of a key longer than `keyBytesMax` (which no transaction can write) finds nothing without asking
   * replicas, who would refuse the request. Unset: no limit.
   */
  readonly txnLimits?: TxnLimits;
}

/** ClientCoreOptions.txnLimits. */
export interface TxnLimits {
  readonly keysMax: number;
  readonly bodyBytesMax: number;
  readonly keyBytesMax: number;
  readonly valueBytesMax: number;
}

export const DEFAULT_REPLICA_PREFERENCE_MS = 1000;

/** A range read as the caller describes it (PROTOCOL §4.2 step 1). */
export interface QuerySpec {
  readonly shard: ShardId;
  readonly sql: string;
  readonly params: Uint8Array;
  /** The transaction's buffered writes the statement may see, sorted by key. */
  readonly ownWrites: readonly WriteEntry[];
  readonly recon: boolean;
  /**
   * Set (a window in µs, at least the cluster's grace1 + grace2): the rows the statement reads join
   * the transaction's read set only through its predicates (a copy of a whole table in chunks,
   * decision 0012), so SemanticCC and write monotonicity protect them as they protect the rows a scan
   * read but did not match, without a read-set entry per row. Rows read at versions within the window
   * below the predicates' table version keep their entries: the predicate check walks the table's
   * writes down to that far below the version, and would take their own writes for phantoms.
   */
  readonly readsAsPredicates?: number;
  /**
   * Hand the first full reply's result to the caller early (an `early` effect) when it is at least
   * `EARLY_RESULT_BYTES` and more replies are still awaited, so the caller can decode it while the other
   * replicas finish; the agreed result still comes with `done`, and only it counts (decision 0052).
   */
  readonly early?: boolean;
  /** The session's TimeZone setting the statement runs in (sql/session-zone.ts); absent: UTC. */
  readonly timeZone?: string;
}

/** Smallest result a range read hands out early (QuerySpec.early): below it decoding takes microseconds. */
export const EARLY_RESULT_BYTES = 64 << 10;

export interface ClientStats {
  begun: number;
  committed: number;
  /** Transactions that committed with an abort outcome (validation). */
  aborted: number;
  /** Transactions the caller abandoned before commit (`abort`: a ROLLBACK, a failed statement). */
  abandoned: number;
  fastCommits: number;
  slowCommits: number;
  /** Commits that went slow because a replica abstained, or because the last votes came too late. */
  slowByAbstain: number;
  slowByLate: number;
  /**
   * Of `slowByLate`: the wait was the short one (a missing replica's votes are often late, decision
   * 0037), or the floor (a missing replica had not voted for a second); the rest waited the long one.
   */
  slowAfterShortWait: number;
  slowAfterFloorWait: number;
  /** Per replica index (shard-major: shard * n + index): times it had not voted when a commit went slow. */
  lateVoters: number[];
  reads: number;
  readRetries: number;
  /** Replicas asked for a committed version's proof (its report had no f+1 matching ones). */
  readProofRequests: number;
  /** ST1 and ST2 messages of finished transactions sent again to replicas that had not answered. */
  resends: number;
  badReplies: Record<string, number>;
  recoveries: number;
  queries: number;
  queriesEager: number;
  querySyncRounds: number;
  queriesFailed: number;
  /** Reads and range reads refused at the client because the transaction fell behind the history window. */
  tooOld: number;
}

/** Every counter at zero: a fresh core's stats. */
export function newClientStats(): ClientStats {
  return {
    begun: 0,
    committed: 0,
    aborted: 0,
    abandoned: 0,
    fastCommits: 0,
    slowCommits: 0,
    slowByAbstain: 0,
    slowByLate: 0,
    slowAfterShortWait: 0,
    slowAfterFloorWait: 0,
    lateVoters: [],
    reads: 0,
    readRetries: 0,
    readProofRequests: 0,
    resends: 0,
    badReplies: {},
    recoveries: 0,
    queries: 0,
    queriesEager: 0,
    querySyncRounds: 0,
    queriesFailed: 0,
    tooOld: 0,
  };
}
