/**
 * Certificate validation (PROTOCOL §2, §5, §6, §9): the checks that turn signed votes and decisions
 * into proof a correct process may act on. Shells run these at the boundary before a core sees a
 * message; clients run `verifyVote` on every PrepareReply and `verifyDecideReply` on every ST2 reply.
 *
 * Rules (exact counts, PROTOCOL §2: the client trims extra signatures, validators never accept more):
 * - fast commit: every involved shard, and no other, has exactly n COMMIT votes;
 * - fast abort: exactly 3f+1 ABSTAIN votes of one involved shard;
 * - ST2 certificate: exactly 4f+1 signers of the logging shard, which must be
 *   `logShardOf(digest, shards)`; membership is checked (the prototype forgets it);
 * - conflict (an ABORT vote's proof): a valid commit certificate of the conflicting transaction C and
 *   a real MVTSO conflict with this transaction T (`provesConflict`, PROTOCOL §5 steps 3 and 5);
 * - ST2 justification: COMMIT needs exactly 3f+1 COMMIT votes of every involved shard; ABORT exactly
 *   f+1 ABSTAIN votes of one involved shard.
 * Every signature comes from a distinct signer index below n of the named shard with a known public
 * key. Cheap structural checks run before any signature is checked.
 *
 * Cost: each group of votes hashes its statement once (statements.ts); `verifyProof` folds the
 * Merkle path and runs ed25519 only when the verified-root cache misses, so a batch costs one
 * verification per verifier. Real verifications are counted in `cryptoStats.verifications`.
 *
 * Caveat: `publicKey(shard, index)` must return keys already checked at configuration load
 * (`checkPublicKey` rejects small-order keys); the cache trusts them.
 */
import type { PairwiseMacs } from './crypto/mac.ts';
import { verifyProof, type VerifiedRootCache } from './crypto/signed.ts';
import { assertNever, fail, ok, type Result } from './errors.ts';
import type { ShardId, TxnDigest } from './ids.ts';
import type { Certificate, CommittedRead, CommittedTxn, Decide, DecideReply, DecisionFb, ElectReply, Key, ReadEntry, SigProof, TxnBody, VoteCert, WriteEntry } from './messages.ts';
import { quorums, type Quorums } from './quorum.ts';
import { logShardOf } from './sharding.ts';
import { entryOfKey } from './sorted-entries.ts';
import { electLeaf, st2Leaf, voteLeaf } from './statements.ts';
import { compareTs, tsEquals, tsLess, type Timestamp } from './timestamp.ts';

export { cryptoStats, resetCryptoStats } from './crypto/signed.ts';

/** Why a certificate, vote or decision was refused. Closed: metrics count these. */
export type CertReason =
  | 'bad-signature'
  | 'wrong-count'
  | 'duplicate-signer'
  | 'unknown-signer'
  | 'wrong-shard'
  | 'missing-shard'
  | 'duplicate-shard'
  | 'wrong-decision'
  | 'wrong-log-shard'
  | 'not-conflicting'
  | 'unknown-txn'
  | 'digest-mismatch'
  | 'proof-mismatch'
  | 'bad-view';

export type CertResult = Result<void, CertReason>;

export interface CertificateVerifierOptions {
  readonly f: number;
  readonly shardCount: number;
  /** Checked public key of replica `index` of `shard`, or undefined when there is none. */
  readonly publicKey: (shard: ShardId, index: number) => Uint8Array | undefined;
  readonly cache: VerifiedRootCache;
  /**
   * A replica's MAC keys with its own shard: votes of that shard whose MAC slot for this replica
   * matches need no ed25519 verification (decision 0007). Clients have none.
   */
  readonly macs?: PairwiseMacs;
}

const OK: CertResult = Object.freeze(ok(undefined));

function equalDigests(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

export class CertificateVerifier {
  readonly q: Quorums;
  readonly #shardCount: number;
  readonly #publicKey: (shard: ShardId, index: number) => Uint8Array | undefined;
  readonly #cache: VerifiedRootCache;
  readonly #macs: PairwiseMacs | undefined;
  /** Signature proofs accepted on their MAC alone, for metrics. */
  macAccepted = 0;
  /** Signer-distinctness stamps: `#seen[i] === #epoch` means index i already signed in this group. */
  readonly #seen: Uint32Array;
  #epoch = 0;
  /** Signature proofs checked (Merkle fold plus cache lookup or ed25519), for metrics. */
  proofsChecked = 0;

  constructor(opts: CertificateVerifierOptions) {
    this.q = quorums(opts.f);
    this.#shardCount = opts.shardCount;
    this.#publicKey = opts.publicKey;
    this.#cache = opts.cache;
    this.#macs = opts.macs;
    this.#seen = new Uint32Array(this.q.n);
  }

  /** One ST1 vote of a replica of `shard` (a client checks each PrepareReply with this). */
  verifyVote(digest: TxnDigest, shard: ShardId, decision: 'commit' | 'abstain', sig: SigProof): CertResult {
    if (shard >= this.#shardCount) return fail('wrong-shard', `shard ${shard}`);
    return this.#verifyOne(voteLeaf(digest, shard, decision), shard, sig);
  }

  /** One ST2 reply of a replica of the logging shard. */
  verifyDecideReply(reply: DecideReply): CertResult {
    if (reply.logShard >= this.#shardCount) return fail('wrong-shard', `log shard ${reply.logShard}`);
    return this.#verifyOne(st2Leaf(reply.digest, reply.logShard, reply.decision, reply.view), reply.logShard, reply.sig);
  }

  /** One replica's elect statement of the fallback (PROTOCOL §7). */
  verifyElectReply(reply: ElectReply): CertResult {
    if (reply.logShard >= this.#shardCount) return fail('wrong-shard', `log shard ${reply.logShard}`);
    if (reply.view < 1) return fail('bad-view', `elect for view ${reply.view}`);
    return this.#verifyOne(electLeaf(reply.digest, reply.logShard, reply.decision, reply.view), reply.logShard, reply.sig);
  }

  /** A fallback decision: exactly 2f+1 distinct replicas of the logging shard elected it in its view. */
  verifyDecisionFb(m: DecisionFb): CertResult {
    if (!equalDigests(m.digest, m.txn.digest)) return fail('digest-mismatch', 'decision txn');
    if (m.logShard !== logShardOf(m.digest, m.txn.body.shards)) return fail('wrong-log-shard', `log shard ${m.logShard}`);
    if (m.view < 1) return fail('bad-view', `decision for view ${m.view}`);
    if (m.elects.length !== this.q.elect) return fail('wrong-count', `${m.elects.length} elects, need ${this.q.elect}`);
    return this.#group(electLeaf(m.digest, m.logShard, m.decision, m.view), m.logShard, m.elects);
  }

  /** The ST1 votes that justify logging `decide.decision` (PROTOCOL §6 slow path). */
  verifyJustification(decide: Decide): CertResult {
    const { digest, txn, justification } = decide;
    if (!equalDigests(digest, txn.digest)) return fail('digest-mismatch', 'decide txn');
    const shards = txn.body.shards;
    if (decide.logShard !== logShardOf(digest, shards)) return fail('wrong-log-shard', `log shard ${decide.logShard}`);
    if (decide.decision === 'commit') {
      if (justification.decision !== 'commit') return fail('wrong-decision', 'commit justified by abstain votes');
      return this.#everyShard(digest, justification, shards, this.q.commitSlow);
    }
    if (justification.decision !== 'abstain') return fail('wrong-decision', 'abort justified by commit votes');
    return this.#oneShard(digest, justification, shards, this.q.abortSlow);
  }

  /**
   * A certificate of `digest`'s outcome, for a transaction involving `txnShards`. A conflict
   * certificate also needs the transaction's body (to prove the conflict is real); without it the
   * answer is 'unknown-txn'.
   */
  verifyCertificate(digest: TxnDigest, cert: Certificate, txnShards: readonly ShardId[], body?: TxnBody): CertResult {
    switch (cert.kind) {
      case 'votes':
        return cert.votes.decision === 'commit'
          ? this.#everyShard(digest, cert.votes, txnShards, this.q.commitFast)
          : this.#oneShard(digest, cert.votes, txnShards, this.q.abortFast);
      case 'st2': {
        const st2 = cert.st2;
        if (st2.logShard !== logShardOf(digest, txnShards)) return fail('wrong-log-shard', `log shard ${st2.logShard}`);
        if (st2.sigs.length !== this.q.st2) return fail('wrong-count', `${st2.sigs.length} ST2 signatures, need ${this.q.st2}`);
        return this.#group(st2Leaf(digest, st2.logShard, st2.decision, st2.view), st2.logShard, st2.sigs);
      }
      case 'conflict': {
        if (body === undefined) return fail('unknown-txn', 'conflict certificate needs the transaction body');
        const c = cert.conflict;
        if (!provesConflict(body, c.txn.body)) return fail('not-conflicting', 'the committed transaction does not conflict');
        return this.verifyCommitted(c);
      }
      default:
        return assertNever(cert, 'certificate');
    }
  }

  /** A committed transaction with its commit certificate (fast votes or ST2), for `ct.txn` exactly. */
  verifyCommitted(ct: CommittedTxn): CertResult {
    const txn = ct.txn;
    switch (ct.cert.kind) {
      case 'votes':
        if (ct.cert.votes.decision !== 'commit') return fail('wrong-decision', 'commit proof with abstain votes');
        return this.#everyShard(txn.digest, ct.cert.votes, txn.body.shards, this.q.commitFast);
      case 'st2':
        if (ct.cert.st2.decision !== 'commit') return fail('wrong-decision', 'commit proof with an abort decision');
        return this.verifyCertificate(txn.digest, ct.cert, txn.body.shards);
      default:
        return assertNever(ct.cert, 'commit proof');
    }
  }

  /**
   * A point read's committed version (PROTOCOL §4.1): the proof is a valid commit certificate AND
   * its transaction is the one that wrote `key` with exactly this value at exactly this version.
   * Without the second half a Byzantine replica could attach any committed transaction's
   * certificate to a made-up value ('proof-mismatch').
   */
  verifyCommittedRead(key: Key, read: CommittedRead): CertResult {
    const mismatch = committedReadMismatch(key, read);
    if (mismatch !== null) return fail('proof-mismatch', mismatch);
    return this.verifyCommitted(read.proof!);
  }

  /** Exactly `count` votes of every shard in `shards` and of no other shard. */
  #everyShard(digest: TxnDigest, votes: VoteCert, shards: readonly ShardId[], count: number): CertResult {
    const groups = votes.shards;
    if (groups.length > shards.length) return fail('wrong-shard', `${groups.length} shard groups for ${shards.length} shards`);
    // Structural pass first: every involved shard present once, exact counts; no crypto yet.
    for (const shard of shards) {
      let found = 0;
      for (const g of groups) {
        if (g.shard !== shard) continue;
        found++;
        if (g.sigs.length !== count) return fail('wrong-count', `${g.sigs.length} votes of shard ${shard}, need ${count}`);
      }
      if (found === 0) return fail('missing-shard', `no votes of shard ${shard}`);
      if (found > 1) return fail('duplicate-shard', `shard ${shard} twice`);
    }
    // groups.length <= shards.length and every shard found exactly once: no foreign group remains.
    for (const g of groups) {
      const r = this.#group(voteLeaf(digest, g.shard, votes.decision), g.shard, g.sigs);
      if (!r.ok) return r;
    }
    return OK;
  }

  /** Exactly one group, of a shard in `shards`, with exactly `count` votes. */
  #oneShard(digest: TxnDigest, votes: VoteCert, shards: readonly ShardId[], count: number): CertResult {
    if (votes.shards.length !== 1) return fail('wrong-count', `${votes.shards.length} shard groups, need 1`);
    const g = votes.shards[0]!;
    if (!shards.includes(g.shard)) return fail('wrong-shard', `shard ${g.shard} is not involved`);
    if (g.sigs.length !== count) return fail('wrong-count', `${g.sigs.length} votes of shard ${g.shard}, need ${count}`);
    return this.#group(voteLeaf(digest, g.shard, votes.decision), g.shard, g.sigs);
  }

  /** Distinct known signers of `shard`, each proving `leaf`. Counts are the caller's. */
  #group(leaf: Uint8Array, shard: ShardId, sigs: readonly SigProof[]): CertResult {
    if (shard >= this.#shardCount) return fail('wrong-shard', `shard ${shard}`);
    const seen = this.#seen;
    const epoch = this.#nextEpoch();
    const n = this.q.n;
    for (const s of sigs) {
      if (s.signer >= n) return fail('unknown-signer', `signer ${s.signer} of shard ${shard}`);
      if (seen[s.signer] === epoch) return fail('duplicate-signer', `signer ${s.signer} of shard ${shard}`);
      seen[s.signer] = epoch;
    }
    for (const s of sigs) {
      const r = this.#verifyOne(leaf, shard, s);
      if (!r.ok) return r;
    }
    return OK;
  }

  #verifyOne(leaf: Uint8Array, shard: ShardId, sig: SigProof): CertResult {
    if (sig.signer >= this.q.n) return fail('unknown-signer', `signer ${sig.signer} of shard ${shard}`);
    const pk = this.#publicKey(shard, sig.signer);
    if (pk === undefined) return fail('unknown-signer', `no key for signer ${sig.signer} of shard ${shard}`);
    this.proofsChecked++;
    const macs = this.#macs;
    if (macs !== undefined && sig.macs !== undefined && shard === macs.shard && macs.check(leaf, sig.signer, sig.macs)) {
      this.macAccepted++;
      return OK;
    }
    if (!verifyProof(leaf, sig, pk, this.#cache)) return fail('bad-signature', `signer ${sig.signer} of shard ${shard}`);
    return OK;
  }

  #nextEpoch(): number {
    this.#epoch = (this.#epoch + 1) >>> 0;
    if (this.#epoch === 0) {
      this.#seen.fill(0);
      this.#epoch = 1;
    }
    return this.#epoch;
  }
}

/**
 * Why a committed read's proof does not back it (its transaction must be the named writer and have
 * written exactly `key` with exactly this value at exactly this version), or null when it does. A
 * read without a proof is not backed by one. Pure and cheap: callers that cache verified
 * certificates still run this on every read that carries a proof.
 */
export function committedReadMismatch(key: Key, read: CommittedRead): string | null {
  const proof = read.proof;
  if (proof === null) return 'no proof';
  if (!equalDigests(proof.txn.digest, read.digest)) return 'proof of another transaction';
  const body = proof.txn.body;
  if (!tsEquals(body.ts, read.version)) return 'proof transaction has another timestamp';
  const write = entryOfKey(body.writes, key);
  if (write === undefined) return 'proof transaction did not write the key';
  const same = write.value === null || read.value === null ? write.value === read.value : equalDigests(write.value, read.value);
  return same ? null : "value differs from the proof transaction's write";
}

/**
 * True when committed transaction `c` invalidates `t` under MVTSO (PROTOCOL §5):
 * - step 3, reads vs committed writes: `c` wrote a key `t` read at a version older than c.ts, and
 *   c.ts < t.ts (t should have read c's write);
 * - step 5, writes vs committed reads: `c` read a key `t` writes at a version older than t.ts, and
 *   c.ts > t.ts (c should have read t's write).
 * Reads and writes are sorted by key (the codec guarantees it), so each check is a merge.
 */
export function provesConflict(t: TxnBody, c: TxnBody): boolean {
  const order = compareTs(c.ts, t.ts);
  if (order < 0) return readBelow(t.reads, c.writes, c.ts);
  if (order > 0) return readBelow(c.reads, t.writes, t.ts);
  return false;
}

/** True when some key of `writes` is in `reads` at a version older than `at` (both sorted by key). */
function readBelow(reads: readonly ReadEntry[], writes: readonly WriteEntry[], at: Timestamp): boolean {
  let i = 0;
  let j = 0;
  while (i < reads.length && j < writes.length) {
    const rk = reads[i]!.key;
    const wk = writes[j]!.key;
    if (rk < wk) i++;
    else if (rk > wk) j++;
    else {
      if (tsLess(reads[i]!.version, at)) return true;
      i++;
      j++;
    }
  }
  return false;
}
