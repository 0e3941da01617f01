import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { CertificateVerifier, provesConflict, type CertReason, type CertResult } from './certificate.ts';
import { encodeTxn } from './codec.ts';
import { keyPairFromSeed, type KeyPair } from './crypto/ed25519.ts';
import { cryptoStats, signBatch, VerifiedRootCache } from './crypto/signed.ts';
import type { ShardId } from './ids.ts';
import type { Certificate, CommittedTxn, Decide, DecideReply, Outcome, SigProof, Txn, TxnBody, VoteCert } from './messages.ts';
import { logShardOf } from './sharding.ts';
import { st2Leaf, voteLeaf } from './statements.ts';
import { ZERO_TS, ts, type Timestamp } from './timestamp.ts';

// f = 1: shards of n = 6; fast commit 6, slow commit 3f+1 = 4, fast abort 4, slow abort 2, ST2 5.
const F = 1;
const N = 6;
const s = (n: number): ShardId => n as ShardId;
const keys: KeyPair[][] = [0, 1, 2].map((shard) => Array.from({ length: N }, (_, i) => keyPairFromSeed(new Uint8Array(32).fill(shard * 16 + i + 1))));
const filler = (i: number): Uint8Array => new Uint8Array(32).fill(0xa0 + i);

/** Signs `leaf` with the key of replica `index` of `keyShard`, inside a Merkle batch of 5 at position 2. */
function signAs(leaf: Uint8Array, keyShard: number, index: number): SigProof {
  const proofs = signBatch([filler(0), filler(1), leaf, filler(3), filler(4)], keys[keyShard]![index]!.secretKey, index);
  return proofs[2]!;
}

const all = (count: number): number[] => Array.from({ length: count }, (_, i) => i);
const voteSigs = (t: Txn, shard: number, decision: 'commit' | 'abstain', signers: number[]): SigProof[] =>
  signers.map((i) => signAs(voteLeaf(t.digest, s(shard), decision), shard, i));
const voteCert = (t: Txn, decision: 'commit' | 'abstain', groups: [number, number[]][]): VoteCert => ({
  decision,
  shards: groups.map(([shard, signers]) => ({ shard: s(shard), sigs: voteSigs(t, shard, decision, signers) })),
});
const st2Sigs = (t: Txn, logShard: number, decision: Outcome, view: number, signers: number[]): SigProof[] =>
  signers.map((i) => signAs(st2Leaf(t.digest, s(logShard), decision, view), logShard, i));

function txnOf(over: Partial<TxnBody>): Txn {
  return encodeTxn({ ts: ts(1_000, 1), shards: [s(0), s(1)], reads: [], writes: [], deps: [], predicates: [], meta: new Uint8Array(0), ...over });
}

const r = (key: string, version: Timestamp): { key: string; version: Timestamp } => ({ key, version });
const w = (key: string): { key: string; value: Uint8Array } => ({ key, value: new Uint8Array([1]) });

/** T reads a@0 and writes b, on shards 0 and 1. */
const T = txnOf({ reads: [r('a', ZERO_TS)], writes: [w('b')] });
const T_LOG = logShardOf(T.digest, T.body.shards);

function verifier(missing?: [number, number]): CertificateVerifier {
  return new CertificateVerifier({
    f: F,
    shardCount: 3,
    publicKey: (shard, index) => (missing !== undefined && missing[0] === shard && missing[1] === index ? undefined : keys[shard]?.[index]?.publicKey),
    cache: new VerifiedRootCache(),
  });
}

function reasonOf(res: CertResult): CertReason | 'ok' {
  return res.ok ? 'ok' : res.reason;
}

const fastCommit = voteCert(T, 'commit', [[0, all(6)], [1, all(6)]]);
const withSig = (c: VoteCert, group: number, at: number, sig: SigProof): VoteCert => ({
  decision: c.decision,
  shards: c.shards.map((g, gi) => (gi === group ? { shard: g.shard, sigs: g.sigs.map((x, i) => (i === at ? sig : x)) } : g)),
});
const votes = (v: VoteCert): Certificate => ({ kind: 'votes', votes: v });

void describe('vote certificates (fast path)', () => {
  const other = txnOf({ reads: [r('z', ZERO_TS)] });
  const forged: SigProof = { ...fastCommit.shards[0]!.sigs[3]!, rootSignature: fastCommit.shards[0]!.sigs[3]!.rootSignature.map((b, i) => (i === 5 ? b ^ 1 : b)) };
  const cases: [string, Certificate, CertReason | 'ok'][] = [
    ['accepts a valid fast commit', votes(fastCommit), 'ok'],
    ['rejects a fast commit with too few signers', votes(voteCert(T, 'commit', [[0, all(5)], [1, all(6)]])), 'wrong-count'],
    ['rejects a fast commit with extra signatures (the client trims)', votes({ ...fastCommit, shards: [{ shard: s(0), sigs: [...fastCommit.shards[0]!.sigs, fastCommit.shards[0]!.sigs[0]!] }, fastCommit.shards[1]!] }), 'wrong-count'],
    ['rejects a repeated signer', votes(withSig(fastCommit, 0, 5, fastCommit.shards[0]!.sigs[1]!)), 'duplicate-signer'],
    ['rejects a signer from the wrong shard', votes(withSig(fastCommit, 0, 4, signAs(voteLeaf(T.digest, s(0), 'commit'), 1, 4))), 'bad-signature'],
    ['rejects a signer index beyond the shard', votes(withSig(fastCommit, 0, 5, { ...fastCommit.shards[0]!.sigs[5]!, signer: 6 })), 'unknown-signer'],
    ['rejects a forged signature', votes(withSig(fastCommit, 0, 3, forged)), 'bad-signature'],
    ['rejects a signature of another digest', votes(withSig(fastCommit, 1, 2, signAs(voteLeaf(other.digest, s(1), 'commit'), 1, 2))), 'bad-signature'],
    ['rejects a leaf index that does not match the path', votes(withSig(fastCommit, 1, 2, { ...fastCommit.shards[1]!.sigs[2]!, index: 1 })), 'bad-signature'],
    ['rejects abstain votes relabelled as commit', votes({ decision: 'commit', shards: voteCert(T, 'abstain', [[0, all(6)], [1, all(6)]]).shards }), 'bad-signature'],
    ['rejects a fast commit missing an involved shard', votes(voteCert(T, 'commit', [[0, all(6)]])), 'missing-shard'],
    ['rejects a fast commit naming an uninvolved shard instead', votes(voteCert(T, 'commit', [[0, all(6)], [2, all(6)]])), 'missing-shard'],
    ['rejects a fast commit with an extra shard', votes(voteCert(T, 'commit', [[0, all(6)], [1, all(6)], [2, all(6)]])), 'wrong-shard'],
    ['rejects a fast commit naming one shard twice', votes({ decision: 'commit', shards: [fastCommit.shards[0]!, fastCommit.shards[0]!] }), 'duplicate-shard'],
    ['accepts a fast abort of 3f+1 abstains of one involved shard', votes(voteCert(T, 'abstain', [[1, [0, 2, 4, 5]]])), 'ok'],
    ['rejects a fast abort with 3f abstains', votes(voteCert(T, 'abstain', [[1, [0, 2, 4]]])), 'wrong-count'],
    ['rejects a fast abort of an uninvolved shard', votes(voteCert(T, 'abstain', [[2, [0, 1, 2, 3]]])), 'wrong-shard'],
    ['rejects a fast abort spread over two shards', votes(voteCert(T, 'abstain', [[0, [0, 1]], [1, [0, 1]]])), 'wrong-count'],
  ];
  for (const [name, cert, expected] of cases) {
    void it(name, () => assert.equal(reasonOf(verifier().verifyCertificate(T.digest, cert, T.body.shards, T.body)), expected));
  }

  void it('rejects a signer whose public key is unknown', () => {
    assert.equal(reasonOf(verifier([1, 3]).verifyCertificate(T.digest, votes(fastCommit), T.body.shards)), 'unknown-signer');
  });
});

void describe('ST2 certificates (slow path)', () => {
  const st2 = (logShard: number, decision: Outcome, view: number, signers: number[], keyShard = logShard): Certificate => ({
    kind: 'st2',
    st2: { decision, logShard: s(logShard), view, sigs: signers.map((i) => signAs(st2Leaf(T.digest, s(logShard), decision, view), keyShard, i)) },
  });
  const otherShard = T_LOG === 0 ? 1 : 0;
  const good = st2(T_LOG, 'commit', 2, [0, 1, 2, 4, 5]);
  const cases: [string, Certificate, CertReason | 'ok'][] = [
    ['accepts 4f+1 distinct signers of the logging shard', good, 'ok'],
    ['accepts an abort decision at view 0', st2(T_LOG, 'abort', 0, [1, 2, 3, 4, 5]), 'ok'],
    ['rejects 4f signers', st2(T_LOG, 'commit', 2, [0, 1, 2, 3]), 'wrong-count'],
    ['rejects a repeated signer', st2(T_LOG, 'commit', 2, [0, 1, 2, 2, 5]), 'duplicate-signer'],
    ['rejects a signer outside the logging shard', st2(T_LOG, 'commit', 2, [0, 1, 2, 3, 4], otherShard), 'bad-signature'],
    ['rejects a certificate logged on the wrong shard', st2(otherShard, 'commit', 2, [0, 1, 2, 3, 4]), 'wrong-log-shard'],
    ['rejects a certificate whose view was changed', { kind: 'st2', st2: { ...(good.kind === 'st2' ? good.st2 : assert.fail()), view: 3 } }, 'bad-signature'],
    ['rejects a certificate whose decision was changed', { kind: 'st2', st2: { ...(good.kind === 'st2' ? good.st2 : assert.fail()), decision: 'abort' } }, 'bad-signature'],
  ];
  for (const [name, cert, expected] of cases) {
    void it(name, () => assert.equal(reasonOf(verifier().verifyCertificate(T.digest, cert, T.body.shards)), expected));
  }

  void it('verifies one ST2 reply and refuses it from a replica of another shard', () => {
    const sig = signAs(st2Leaf(T.digest, s(T_LOG), 'commit', 1), T_LOG, 3);
    const reply: DecideReply = { kind: 'decideReply', req: 1, digest: T.digest, decision: 'commit', view: 1, logShard: s(T_LOG), sig };
    assert.equal(reasonOf(verifier().verifyDecideReply(reply)), 'ok');
    assert.equal(reasonOf(verifier().verifyDecideReply({ ...reply, logShard: s(otherShard) })), 'bad-signature');
    assert.equal(reasonOf(verifier().verifyDecideReply({ ...reply, decision: 'abort' })), 'bad-signature');
  });
});

void describe('ST2 justification', () => {
  const decide = (decision: Outcome, justification: VoteCert, logShard = T_LOG): Decide => ({
    kind: 'decide', req: 1, digest: T.digest, decision, view: 0, logShard: s(logShard), justification, txn: T,
  });
  const cases: [string, Decide, CertReason | 'ok'][] = [
    ['accepts a commit with 3f+1 commit votes of every shard', decide('commit', voteCert(T, 'commit', [[0, [0, 1, 2, 3]], [1, [2, 3, 4, 5]]])), 'ok'],
    ['rejects a commit with n votes of a shard (exact counts)', decide('commit', voteCert(T, 'commit', [[0, all(6)], [1, [2, 3, 4, 5]]])), 'wrong-count'],
    ['rejects a commit missing a shard', decide('commit', voteCert(T, 'commit', [[0, [0, 1, 2, 3]]])), 'missing-shard'],
    ['rejects a commit justified by abstains', decide('commit', voteCert(T, 'abstain', [[0, [0, 1]]])), 'wrong-decision'],
    ['accepts an abort with f+1 abstains of one shard', decide('abort', voteCert(T, 'abstain', [[0, [3, 5]]])), 'ok'],
    ['rejects an abort with f abstains', decide('abort', voteCert(T, 'abstain', [[0, [3]]])), 'wrong-count'],
    ['rejects an abort justified by commit votes', decide('abort', voteCert(T, 'commit', [[0, [0, 1, 2, 3]], [1, [0, 1, 2, 3]]])), 'wrong-decision'],
    ['rejects a decision sent to the wrong logging shard', decide('abort', voteCert(T, 'abstain', [[0, [3, 5]]]), s(T_LOG === 0 ? 1 : 0)), 'wrong-log-shard'],
  ];
  for (const [name, d, expected] of cases) {
    void it(name, () => assert.equal(reasonOf(verifier().verifyJustification(d)), expected));
  }

  void it('rejects a decide whose transaction has another digest', () => {
    const d = decide('abort', voteCert(T, 'abstain', [[0, [3, 5]]]));
    assert.equal(reasonOf(verifier().verifyJustification({ ...d, txn: txnOf({ reads: [r('q', ZERO_TS)] }) })), 'digest-mismatch');
  });
});

void describe('conflict certificates', () => {
  /** C committed before T and wrote what T read at version 0. */
  const C = txnOf({ ts: ts(900, 2), shards: [s(0)], writes: [w('a')] });
  const committedC: CommittedTxn = { txn: C, cert: votes(voteCert(C, 'commit', [[0, all(6)]])) as CommittedTxn['cert'] };
  /** D committed before T but touched nothing T read. */
  const D = txnOf({ ts: ts(900, 2), shards: [s(0)], writes: [w('c')] });
  const committedD: CommittedTxn = { txn: D, cert: votes(voteCert(D, 'commit', [[0, all(6)]])) as CommittedTxn['cert'] };

  void it('accepts a committed write between the read version and T', () => {
    assert.equal(reasonOf(verifier().verifyCertificate(T.digest, { kind: 'conflict', conflict: committedC }, T.body.shards, T.body)), 'ok');
  });
  void it('rejects a committed transaction that does not conflict', () => {
    assert.equal(reasonOf(verifier().verifyCertificate(T.digest, { kind: 'conflict', conflict: committedD }, T.body.shards, T.body)), 'not-conflicting');
  });
  void it('rejects a conflicting transaction whose commit certificate is short', () => {
    const short: CommittedTxn = { txn: C, cert: votes(voteCert(C, 'commit', [[0, all(5)]])) as CommittedTxn['cert'] };
    assert.equal(reasonOf(verifier().verifyCertificate(T.digest, { kind: 'conflict', conflict: short }, T.body.shards, T.body)), 'wrong-count');
  });
  void it('rejects a conflicting transaction certified by votes for another transaction', () => {
    const stolen: CommittedTxn = { txn: C, cert: committedD.cert };
    assert.equal(reasonOf(verifier().verifyCertificate(T.digest, { kind: 'conflict', conflict: stolen }, T.body.shards, T.body)), 'bad-signature');
  });
  void it('cannot judge a conflict without the transaction body', () => {
    assert.equal(reasonOf(verifier().verifyCertificate(T.digest, { kind: 'conflict', conflict: committedC }, T.body.shards)), 'unknown-txn');
  });
  void it('accepts a committed transaction proven by an ST2 certificate', () => {
    const log = logShardOf(C.digest, C.body.shards);
    const ct: CommittedTxn = { txn: C, cert: { kind: 'st2', st2: { decision: 'commit', logShard: log, view: 0, sigs: st2Sigs(C, log, 'commit', 0, [0, 1, 2, 3, 4]) } } };
    assert.equal(reasonOf(verifier().verifyCommitted(ct)), 'ok');
    assert.equal(reasonOf(verifier().verifyCommitted({ txn: C, cert: { kind: 'st2', st2: { ...(ct.cert.kind === 'st2' ? ct.cert.st2 : assert.fail()), decision: 'abort' } } })), 'wrong-decision');
  });

  const body = (time: number, reads: [string, Timestamp][], writes: string[] = []): TxnBody => ({
    ts: ts(time, 1), shards: [s(0)], reads: reads.map(([k, v]) => r(k, v)), writes: writes.map(w), deps: [], predicates: [], meta: new Uint8Array(0),
  });
  const conflicts: [string, TxnBody, TxnBody, boolean][] = [
    ['C wrote what T read, between the read version and T', body(10, [['k', ts(5, 1)]]), body(7, [], ['k']), true],
    ['C wrote what T read, but before the version T read', body(10, [['k', ts(8, 1)]]), body(7, [], ['k']), false],
    ['C wrote exactly the version T read', body(10, [['k', ts(7, 1)]]), body(7, [], ['k']), false],
    ['C wrote what T read, but after T', body(10, [['k', ts(5, 1)]]), body(12, [], ['k']), false],
    ['C read what T writes, at a version before T, and C is after T', body(10, [], ['k']), body(12, [['k', ts(5, 1)]], []), true],
    ['C read what T writes, at a version after T', body(10, [], ['k']), body(12, [['k', ts(11, 1)]], []), false],
    ['C read what T writes, but C is before T', body(10, [], ['k']), body(9, [['k', ts(5, 1)]], []), false],
    ['C and T touch disjoint keys', body(10, [['a', ZERO_TS], ['c', ZERO_TS]], ['e']), body(7, [['f', ZERO_TS]], ['b', 'd']), false],
    ['C is T itself', body(10, [['k', ZERO_TS]], ['k']), body(10, [['k', ZERO_TS]], ['k']), false],
  ];
  for (const [name, t, c, expected] of conflicts) {
    void it(`provesConflict is ${expected} when ${name}`, () => assert.equal(provesConflict(t, c), expected));
  }
});

void describe('committed reads', () => {
  const C = txnOf({ ts: ts(900, 2), shards: [s(0)], writes: [w('a'), { key: 'm', value: null }, w('z')] });
  const proof: CommittedTxn = { txn: C, cert: votes(voteCert(C, 'commit', [[0, all(6)]])) as CommittedTxn['cert'] };
  const cases: [string, string, Timestamp, Uint8Array | null, CertReason | 'ok'][] = [
    ['accepts the value the proof transaction wrote', 'z', ts(900, 2), new Uint8Array([1]), 'ok'],
    ['accepts a deletion the proof transaction wrote', 'm', ts(900, 2), null, 'ok'],
    ['rejects a value the proof transaction did not write', 'a', ts(900, 2), new Uint8Array([2]), 'proof-mismatch'],
    ['rejects a key the proof transaction did not write', 'b', ts(900, 2), new Uint8Array([1]), 'proof-mismatch'],
    ['rejects a version other than the proof transaction\'s timestamp', 'a', ts(901, 2), new Uint8Array([1]), 'proof-mismatch'],
    ['rejects a deletion where the proof transaction wrote a value', 'a', ts(900, 2), null, 'proof-mismatch'],
  ];
  for (const [name, key, version, value, expected] of cases) {
    void it(name, () => assert.equal(reasonOf(verifier().verifyCommittedRead(key, { version, value, digest: C.digest, proof })), expected));
  }
});

void describe('verification cost', () => {
  void it('verifies a batch of 32 votes from one replica with one ed25519 verification', () => {
    const txns = Array.from({ length: 32 }, (_, i) => txnOf({ reads: [r(`k${i}`, ZERO_TS)] }));
    const proofs = signBatch(txns.map((t) => voteLeaf(t.digest, s(1), 'commit')), keys[1]![4]!.secretKey, 4);
    const v = verifier();
    const before = cryptoStats.verifications;
    txns.forEach((t, i) => assert.equal(reasonOf(v.verifyVote(t.digest, s(1), 'commit', proofs[i]!)), 'ok'));
    assert.equal(cryptoStats.verifications - before, 1);
    assert.equal(v.proofsChecked, 32);
    assert.equal(reasonOf(v.verifyVote(txns[0]!.digest, s(1), 'abstain', proofs[0]!)), 'bad-signature');
    assert.equal(reasonOf(v.verifyVote(txns[0]!.digest, s(3), 'commit', proofs[0]!)), 'wrong-shard');
  });
});
