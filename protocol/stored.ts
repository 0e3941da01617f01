/**
 * Certificates a replica keeps for every committed transaction, kept as bytes. A decoded vote
 * certificate is some forty objects (six signatures, each with three byte views, their arrays and
 * groups, and the MAC-less copy a commit proof needs); a replica holds one per transaction of its
 * history window, and they were most of what its garbage collector copied and marked. They are read
 * rarely (proof-carrying point reads, ABORT votes, fetches, checkpoints), so a `StoredWriteback`
 * holds the writeback's envelope bytes and decodes its certificate again when something reads it.
 *
 * Both classes satisfy the plain message interfaces, so the rest of the code reads them like any
 * decoded message. Spread (`{ ...stored }`) does not copy the prototype getter: name `cert` explicitly.
 */
import { decodeMessage, encodeMessage, ENCODING, type EncodedWriteback } from './codec.ts';
import { txnIn, type CodecLimits } from './codec-txn.ts';
import { InvariantError } from './errors.ts';
import type { DigestKey, TxnDigest } from './ids.ts';
import { withoutMacs, type Certificate, type CommittedTxn, type Txn, type TxnBody, type Writeback } from './messages.ts';
import type { Timestamp } from './timestamp.ts';

/** A certified outcome as the replica received it (its transaction is kept elsewhere: `txn` is null). */
export class StoredWriteback implements EncodedWriteback {
  readonly kind = 'writeback';
  readonly txn = null;
  readonly digest: TxnDigest;
  /** The writeback's envelope (it may carry the transaction too: `carriesTxn`). */
  readonly bytes: Uint8Array;
  /** `bytes` embed the transaction (so a log record of this writeback need not add it). */
  readonly carriesTxn: boolean;
  #cert: Certificate | undefined;

  /** `digest`: the transaction's own digest array, equal to `wb.digest` (one array kept instead of two). */
  constructor(wb: Writeback, digest: TxnDigest = wb.digest) {
    this.digest = digest;
    // A received writeback encodes to the bytes it came in (codec.ts); only our own are encoded here.
    this.bytes = encodeMessage(wb);
    this.carriesTxn = wb.txn !== null;
  }

  /**
   * Logging this writeback again (a log compaction's checkpoint) copies these bytes instead of decoding
   * and re-encoding its certificate.
   */
  get [ENCODING](): Uint8Array {
    return this.bytes;
  }

  get cert(): Certificate {
    if (this.#cert !== undefined) return this.#cert;
    const m = decodeMessage(this.bytes, REDECODE_LIMITS);
    if (!m.ok || m.value.kind !== 'writeback') throw new InvariantError('a stored writeback no longer decodes');
    this.#cert = m.value.cert;
    return this.#cert;
  }
}

/** A commit proof (transaction and commit certificate, without MAC vectors) over a stored writeback. */
export class StoredProof implements CommittedTxn {
  #cert: CommittedTxn['cert'] | undefined;
  /**
   * The log checkpoint that last wrote this proof (replica/core/log-replay.ts `checkpointRecords`), so
   * a checkpoint writes each proof once without a set of the digests it wrote. A mark, not state.
   */
  checkpointMark = 0;
  /**
   * How many of the store's committed versions and read records name this proof (replica/core/store.ts
   * counts them): once none does, no checkpoint writes it again, and the log's compaction counts its
   * bytes as garbage (decision 0062). A count, not state: nothing else reads it.
   */
  refs = 0;

  constructor(
    readonly txn: Txn,
    readonly stored: StoredWriteback,
  ) {}

  /** About the bytes a log record of this proof takes (its writeback, and its transaction unless embedded). */
  get logBytes(): number {
    return this.stored.bytes.length + (this.stored.carriesTxn ? 0 : this.txn.bytes.length);
  }

  get cert(): CommittedTxn['cert'] {
    if (this.#cert !== undefined) return this.#cert;
    const c = this.stored.cert;
    // Clients check signatures, never MACs, so the proof leaves them out.
    if (c.kind === 'votes') this.#cert = { kind: 'votes', votes: withoutMacs(c.votes) };
    else if (c.kind === 'st2') this.#cert = { kind: 'st2', st2: c.st2 };
    else throw new InvariantError('a commit proof over an abort certificate');
    return this.#cert;
  }
}

/**
 * Bytes that were validated when they were received (kept in memory or in the replica's own log):
 * decoding them again needs no limits, whatever the configuration is now. (A body decodes to the same
 * entries under any limits it fits.)
 */
export const REDECODE_LIMITS: CodecLimits = Object.freeze({
  messageBytesMax: Number.MAX_SAFE_INTEGER,
  keyBytesMax: Number.MAX_SAFE_INTEGER,
  valueBytesMax: Number.MAX_SAFE_INTEGER,
  entriesMax: Number.MAX_SAFE_INTEGER,
  shardCount: 2 ** 32,
  replicasPerShard: 2 ** 32,
});

/**
 * A decided transaction as a replica keeps it: its bytes, digest, key and timestamp, with the body
 * decoded again on first use. A decoded body is some twenty objects (entries, their timestamps and
 * value views, five arrays); a replica keeps every decided transaction for its history window and
 * every commit proof a stored version names for longer, so keeping bodies decoded made each of them
 * survive two scavenges and stay in the old generation. Decided transactions are rarely read whole
 * (a late ST1, a fetch, a log compaction); the timestamp, digest and bytes cover the rest.
 */
export class StoredTxn implements Txn {
  #body: TxnBody | null = null;

  constructor(
    readonly bytes: Uint8Array,
    readonly digest: TxnDigest,
    readonly key: DigestKey,
    readonly ts: Timestamp,
  ) {}

  get body(): TxnBody {
    return (this.#body ??= txnIn(this.bytes, REDECODE_LIMITS).body);
  }
}

/** `txn` as a decided transaction is kept (the same object when it already is one). */
export function storedTxn(txn: Txn): StoredTxn {
  return txn instanceof StoredTxn ? txn : new StoredTxn(txn.bytes, txn.digest, txn.key, txn.body.ts);
}

/** A transaction's timestamp, without decoding a stored transaction's body. */
export function txnTs(txn: Txn): Timestamp {
  return txn instanceof StoredTxn ? txn.ts : txn.body.ts;
}
