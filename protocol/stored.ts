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
import { decodeMessage, encodeMessage, rememberEncoding } from './codec.ts';
import { InvariantError } from './errors.ts';
import type { TxnDigest } from './ids.ts';
import { withoutMacs, type Certificate, type CommittedTxn, type Txn, type Writeback } from './messages.ts';

/** A certified outcome as the replica received it (its transaction is kept elsewhere: `txn` is null). */
export class StoredWriteback implements Writeback {
  readonly kind = 'writeback';
  readonly txn = null;
  readonly digest: TxnDigest;
  /** The writeback's envelope (it may carry the transaction too: `carriesTxn`). */
  readonly bytes: Uint8Array;
  /** `bytes` embed the transaction (so a log record of this writeback need not add it). */
  readonly carriesTxn: boolean;
  #cert: Certificate | undefined;

  constructor(wb: Writeback) {
    this.digest = wb.digest;
    // A received writeback encodes to the bytes it came in (codec.ts); only our own are encoded here.
    this.bytes = encodeMessage(wb);
    this.carriesTxn = wb.txn !== null;
    // Logging this writeback again (a log compaction's checkpoint) copies these bytes instead of
    // decoding and re-encoding its certificate.
    rememberEncoding(this, this.bytes);
  }

  get cert(): Certificate {
    if (this.#cert !== undefined) return this.#cert;
    const m = decodeMessage(this.bytes);
    if (!m.ok || m.value.kind !== 'writeback') throw new InvariantError('a stored writeback no longer decodes');
    this.#cert = m.value.cert;
    return this.#cert;
  }
}

/** A commit proof (transaction and commit certificate, without MAC vectors) over a stored writeback. */
export class StoredProof implements CommittedTxn {
  #cert: CommittedTxn['cert'] | undefined;

  constructor(
    readonly txn: Txn,
    readonly stored: StoredWriteback,
  ) {}

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
