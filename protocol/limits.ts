/**
 * What one transaction and one message of a cluster may hold (the configuration's `limits` section,
 * decisions 0009 and 0072), and the limits derived from them for transaction bodies and links.
 */

export interface LimitsConfig {
  /** Largest encoded message accepted from the network; larger ones are rejected before decoding. */
  readonly messageBytesMax: number;
  /** Snapshot re-execution rounds of a range read before the transaction aborts (PROTOCOL §4.2 step 6). */
  readonly queryRetriesMax: number;
  /** Most keys in one transaction's read set, and in its write set. */
  readonly txnKeysMax: number;
  /**
   * How much history a replica keeps: versions, read records and decided transactions older than
   * its clock minus this are collected, and transactions or reads older than that are refused.
   */
  readonly historyWindowMs: number;
}

/** Decision 0072: a statement over a few hundred thousand rows fits one transaction (was 4 MiB and 10,000). */
export const DEFAULT_LIMITS: LimitsConfig = Object.freeze({ messageBytesMax: 16 << 20, queryRetriesMax: 3, txnKeysMax: 250_000, historyWindowMs: 15_000 });

/** Smallest `limits.messageBytesMax` a configuration may set: room for a transaction body beside its envelope. */
export const MESSAGE_BYTES_MIN = 256 << 10;

/**
 * Room a message keeps beside one transaction body, at most: request ids, its digest, a commit
 * certificate of 5f+1 signatures with their batch paths, a MAC slot.
 */
export const TXN_ENVELOPE_BYTES = 64 << 10;

/** Largest transaction body (ST1's `Txn.bytes`) that travels in one message of the cluster. */
export function txnBodyBytesMax(limits: LimitsConfig): number {
  return limits.messageBytesMax - TXN_ENVELOPE_BYTES;
}

/**
 * The transport limits of a cluster's links: its largest message, frames that hold one (the transport's
 * 16 MiB default or more) and room to queue several while a peer is slow.
 */
export function linkLimitsOf(limits: LimitsConfig): { maxMessageBytes: number; maxFrameBytes: number; maxQueuedBytes: number } {
  const m = limits.messageBytesMax;
  return { maxMessageBytes: m, maxFrameBytes: Math.max(16 << 20, m + 4), maxQueuedBytes: Math.max(64 << 20, 4 * m) };
}
