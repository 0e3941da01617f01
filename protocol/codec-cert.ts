/**
 * The generic (protobufjs-shaped) codec of what certifies: decisions and outcomes, signature proofs,
 * vote and ST2 certificates, commit proofs and writebacks, with the structural checks codec.ts lists
 * (root signatures 64 bytes, Merkle paths a multiple of 32 bytes and at most 32 levels, signers and
 * shards in range, MAC vectors of one MAC per replica, decisions fitting their place, embedded
 * transactions hashing to the digest named). codec.ts builds envelopes from these; the commit path's
 * hand-written codec is codec-fast-cert.ts.
 */
import type { pesto } from './gen/pesto.js';
import { MAC_BYTES, MAC_SLOT_BYTES } from './crypto/mac.ts';
import { assertNever } from './errors.ts';
import type { TxnDigest } from './ids.ts';
import { DEFAULT_CODEC_LIMITS, type CodecLimits, digestIn, reject, shardIn, txnIn } from './codec-txn.ts';
import type { Certificate, CommittedTxn, Outcome, ShardSigs, SigProof, St2Cert, Txn, VoteCert, VoteDecision, Writeback } from './messages.ts';

export const SIGNATURE_BYTES = 64;
export const MERKLE_PATH_LEVELS_MAX = 32;
export const NODE_BYTES = 32;

// Proto enum values (pesto.Decision), kept inside protocol/.
export const COMMIT = 0;
export const ABSTAIN = 1;
export const ABORT = 2;

export function voteDecisionOut(d: VoteDecision): number {
  return d === 'commit' ? COMMIT : d === 'abstain' ? ABSTAIN : ABORT;
}

export function voteDecisionIn(d: number | null | undefined): VoteDecision {
  switch (d ?? COMMIT) {
    case COMMIT:
      return 'commit';
    case ABSTAIN:
      return 'abstain';
    case ABORT:
      return 'abort';
    default:
      return reject('bad-decision', `decision ${d}`);
  }
}

export function outcomeIn(d: number | null | undefined): Outcome {
  const v = voteDecisionIn(d);
  if (v === 'abstain') reject('bad-decision', 'abstain where an outcome is required');
  return v === 'commit' ? 'commit' : 'abort';
}

export function outcomeOut(d: Outcome): number {
  return d === 'commit' ? COMMIT : ABORT;
}

// ---- signatures and certificates ----

export function sigIn(p: pesto.SigProof.$Properties | null | undefined, limits: CodecLimits): SigProof {
  if (p === null || p === undefined) return reject('missing-field', 'sig');
  const signer = p.signer ?? 0;
  if (signer >= limits.replicasPerShard) reject('bad-signer', `signer ${signer}`);
  const rootSignature = p.rootSig;
  if (rootSignature === null || rootSignature === undefined || rootSignature.length !== SIGNATURE_BYTES) {
    return reject('bad-signature-length', `root signature of ${rootSignature?.length ?? 0} bytes`);
  }
  const path = p.path ?? EMPTY;
  if (path.length % NODE_BYTES !== 0 || path.length > MERKLE_PATH_LEVELS_MAX * NODE_BYTES) reject('bad-path', `path of ${path.length} bytes`);
  const macs = p.macs;
  if (macs === null || macs === undefined || macs.length === 0) return { signer, rootSignature, index: p.index ?? 0, path, macs: undefined };
  // One slot (crypto/mac.ts): the index of a replica of the shard, then its MAC.
  if (macs.length === MAC_SLOT_BYTES) {
    if (macs[0]! >= limits.replicasPerShard) reject('bad-signature-length', `MAC slot for replica ${macs[0]}`);
    return { signer, rootSignature, index: p.index ?? 0, path, macs };
  }
  if (macs.length !== limits.replicasPerShard * MAC_BYTES && limits.replicasPerShard !== DEFAULT_CODEC_LIMITS.replicasPerShard) reject('bad-signature-length', `MAC vector of ${macs.length} bytes`);
  if (macs.length % MAC_BYTES !== 0 || macs.length > 256 * MAC_BYTES) reject('bad-signature-length', `MAC vector of ${macs.length} bytes`);
  return { signer, rootSignature, index: p.index ?? 0, path, macs };
}

export const EMPTY = new Uint8Array(0);

export function sigOut(s: SigProof): pesto.SigProof.$Properties {
  const out: pesto.SigProof.$Properties = { signer: s.signer, rootSig: s.rootSignature, index: s.index, path: s.path };
  if (s.macs !== undefined) out.macs = s.macs;
  return out;
}

export function sigsIn(a: pesto.SigProof.$Properties[] | null | undefined, limits: CodecLimits): SigProof[] {
  if (a === null || a === undefined) return [];
  if (a.length > limits.replicasPerShard) reject('too-large', `${a.length} signatures`);
  const out = new Array<SigProof>(a.length);
  for (let i = 0; i < a.length; i++) out[i] = sigIn(a[i], limits);
  return out;
}

export function sigsOut(a: readonly SigProof[]): pesto.SigProof.$Properties[] {
  const out = new Array<pesto.SigProof.$Properties>(a.length);
  for (let i = 0; i < a.length; i++) out[i] = sigOut(a[i]!);
  return out;
}

export function voteCertIn(p: pesto.VoteCert.$Properties | null | undefined, limits: CodecLimits): VoteCert {
  if (p === null || p === undefined) return reject('missing-field', 'vote certificate');
  const d = voteDecisionIn(p.decision);
  if (d === 'abort') reject('bad-decision', 'a vote certificate cannot say abort');
  const groups = p.shards ?? [];
  if (groups.length > limits.shardCount) reject('too-large', `${groups.length} shard groups`);
  const shards = new Array<ShardSigs>(groups.length);
  for (let i = 0; i < groups.length; i++) {
    const g = groups[i]!;
    shards[i] = { shard: shardIn(g.shard, limits), sigs: sigsIn(g.sigs, limits) };
  }
  return { decision: d, shards };
}

export function voteCertOut(v: VoteCert): pesto.VoteCert.$Properties {
  const shards = new Array<pesto.ShardSigs.$Properties>(v.shards.length);
  for (let i = 0; i < v.shards.length; i++) {
    const g = v.shards[i]!;
    shards[i] = { shard: g.shard, sigs: sigsOut(g.sigs) };
  }
  return { decision: voteDecisionOut(v.decision), shards };
}

export function st2In(p: pesto.St2Cert.$Properties | null | undefined, limits: CodecLimits): St2Cert {
  if (p === null || p === undefined) return reject('missing-field', 'st2 certificate');
  return { decision: outcomeIn(p.decision), logShard: shardIn(p.logShard, limits), view: p.view ?? 0, sigs: sigsIn(p.sigs, limits) };
}

export function st2Out(c: St2Cert): pesto.St2Cert.$Properties {
  return { decision: outcomeOut(c.decision), logShard: c.logShard, view: c.view, sigs: sigsOut(c.sigs) };
}

export function committedIn(p: pesto.CommittedTxn.$Properties | null | undefined, limits: CodecLimits): CommittedTxn {
  if (p === null || p === undefined) return reject('missing-field', 'committed transaction');
  const txn = txnIn(p.txn, limits);
  const hasFast = p.fast !== null && p.fast !== undefined;
  const hasSlow = p.slow !== null && p.slow !== undefined;
  if (hasFast && hasSlow) reject('unexpected-field', 'committed transaction with two certificates');
  if (hasFast) {
    const votes = voteCertIn(p.fast, limits);
    if (votes.decision !== 'commit') reject('bad-decision', 'committed transaction with an abstain certificate');
    return { txn, cert: { kind: 'votes', votes } };
  }
  if (hasSlow) {
    const st2 = st2In(p.slow, limits);
    if (st2.decision !== 'commit') reject('bad-decision', 'committed transaction with an abort certificate');
    return { txn, cert: { kind: 'st2', st2 } };
  }
  return reject('missing-field', 'committed transaction certificate');
}

export function committedOut(c: CommittedTxn): pesto.CommittedTxn.$Properties {
  switch (c.cert.kind) {
    case 'votes':
      return { txn: c.txn.bytes, fast: voteCertOut(c.cert.votes) };
    case 'st2':
      return { txn: c.txn.bytes, slow: st2Out(c.cert.st2) };
    default:
      return assertNever(c.cert, 'committed certificate');
  }
}

export function certIn(p: pesto.Certificate.$Properties | null | undefined, limits: CodecLimits): Certificate {
  if (p === null || p === undefined) return reject('missing-field', 'certificate');
  const c = p as pesto.Certificate;
  switch (c.kind) {
    case 'votes':
      return { kind: 'votes', votes: voteCertIn(c.votes, limits) };
    case 'st2':
      return { kind: 'st2', st2: st2In(c.st2, limits) };
    case 'conflict':
      return { kind: 'conflict', conflict: committedIn(c.conflict, limits) };
    case undefined:
      return reject('missing-field', 'certificate kind');
    default:
      return assertNever(c.kind, 'certificate kind');
  }
}

export function certOut(c: Certificate): pesto.Certificate.$Properties {
  switch (c.kind) {
    case 'votes':
      return { votes: voteCertOut(c.votes) };
    case 'st2':
      return { st2: st2Out(c.st2) };
    case 'conflict':
      return { conflict: committedOut(c.conflict) };
    default:
      return assertNever(c, 'certificate');
  }
}

export function checkTxnDigest(txn: Txn, digest: TxnDigest, what: string): void {
  const a = txn.digest;
  for (let i = 0; i < a.length; i++) if (a[i] !== digest[i]) reject('digest-mismatch', what);
}

export function writebackIn(p: pesto.Writeback.$Properties | null | undefined, limits: CodecLimits): Writeback {
  if (p === null || p === undefined) return reject('missing-field', 'writeback');
  const digest = digestIn(p.digest, 'writeback digest');
  const cert = certIn(p.cert, limits);
  let txn: Txn | null = null;
  if (p.txn !== null && p.txn !== undefined && p.txn.length > 0) {
    txn = txnIn(p.txn, limits);
    checkTxnDigest(txn, digest, 'writeback txn');
  }
  return { kind: 'writeback', digest, cert, txn };
}

export function writebackOut(w: Writeback): pesto.Writeback.$Properties {
  return w.txn === null ? { digest: w.digest, cert: certOut(w.cert) } : { digest: w.digest, cert: certOut(w.cert), txn: w.txn.bytes };
}
