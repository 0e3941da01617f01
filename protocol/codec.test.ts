import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pesto } from './gen/pesto.js';
import { decodeMessage, decodeTxn, encodeMessage, encodeTxn, keyFromBytes, keyToBytes, type DecodeReason } from './codec.ts';
import { blake3 } from './crypto/blake3.ts';
import { InvariantError } from './errors.ts';
import type { ShardId, TxnDigest } from './ids.ts';
import type { CommittedTxn, Message, SigProof, TxnBody, VoteCert, Writeback } from './messages.ts';
import { ZERO_TS, ts } from './timestamp.ts';
import { plain } from './plain.testkit.ts';

const s = (n: number): ShardId => n as ShardId;
const bytes = (n: number, fill: number): Uint8Array => new Uint8Array(n).fill(fill);
const digestOf = (fill: number): TxnDigest => bytes(32, fill) as TxnDigest;

function body(over: Partial<TxnBody> = {}): TxnBody {
  return {
    ts: ts(1_000, 7),
    shards: [s(0), s(1)],
    reads: [
      { key: 'acct:1', version: ZERO_TS },
      { key: 'acct:2', version: ts(500, 3) },
    ],
    writes: [
      { key: 'acct:1', value: bytes(100, 1) },
      { key: 'acct:3', value: null },
    ],
    deps: [{ digest: digestOf(9), shard: s(1), ts: ts(600, 2) }],
    predicates: [{ table: 4, tableVersion: ts(400, 1), expr: bytes(5, 2) }],
    meta: bytes(3, 4),
    ...over,
  };
}

const sig = (signer: number): SigProof => ({ signer, rootSignature: bytes(64, signer + 1), index: signer, path: bytes(64, 7), macs: undefined });
const votes = (decision: 'commit' | 'abstain', shards: number[], count: number): VoteCert => ({
  decision,
  shards: shards.map((shard) => ({ shard: s(shard), sigs: Array.from({ length: count }, (_, i) => sig(i)) })),
});

const txn = encodeTxn(body());
const other = encodeTxn(body({ ts: ts(900, 1), reads: [], writes: [{ key: 'acct:2', value: bytes(1, 1) }] }));
const committed: CommittedTxn = { txn: other, cert: { kind: 'votes', votes: votes('commit', [0, 1], 6) } };
const committedSlow: CommittedTxn = { txn: other, cert: { kind: 'st2', st2: { decision: 'commit', logShard: s(1), view: 2, sigs: [sig(0), sig(3)] } } };
const writeback: Writeback = { kind: 'writeback', digest: txn.digest, cert: { kind: 'votes', votes: votes('commit', [0, 1], 6) }, txn };

const roundTrips: readonly [string, Message][] = [
  ['read request', { kind: 'read', req: 1, key: 'k\u0000\u00ff', ts: ts(5, 6), proof: false }],
  ['read request asking for the proof', { kind: 'read', req: 1, key: 'k', ts: ts(5, 6), proof: true }],
  ['read reply with both versions', {
    kind: 'readReply', req: 2, key: 'acct:2',
    committed: { version: ts(500, 3), value: bytes(100, 5), digest: other.digest, proof: committed },
    prepared: { version: ts(700, 4), value: null, digest: digestOf(3) },
  }],
  ['read reply with nothing', { kind: 'readReply', req: 3, key: 'x', committed: null, prepared: null }],
  ['read reply with a slow-path proof and an empty value', {
    kind: 'readReply', req: 3, key: 'x', committed: { version: ts(1, 1), value: new Uint8Array(0), digest: other.digest, proof: committedSlow }, prepared: null,
  }],
  ['read reply without the proof', {
    kind: 'readReply', req: 3, key: 'x', committed: { version: ts(1, 1), value: bytes(3, 1), digest: other.digest, proof: null }, prepared: null,
  }],
  ['prepare', { kind: 'prepare', req: 4, txn }],
  ['commit vote', { kind: 'prepareReply', req: 5, digest: txn.digest, shard: s(1), decision: 'commit', sig: sig(2), conflict: null, decided: null, conflictPrepared: null }],
  ['abstain vote', { kind: 'prepareReply', req: 5, digest: txn.digest, shard: s(0), decision: 'abstain', sig: sig(5), conflict: null, decided: null, conflictPrepared: null }],
  ['abort vote', { kind: 'prepareReply', req: 5, digest: txn.digest, shard: s(0), decision: 'abort', sig: null, conflict: committed, decided: null, conflictPrepared: null }],
  ['decided reply', { kind: 'prepareReply', req: 5, digest: txn.digest, shard: s(0), decision: 'commit', sig: null, conflict: null, decided: writeback, conflictPrepared: null }],
  ['decide', { kind: 'decide', req: 6, digest: txn.digest, decision: 'abort', view: 3, logShard: s(1), justification: votes('abstain', [0], 2), txn }],
  ['decide reply', { kind: 'decideReply', req: 7, digest: txn.digest, decision: 'commit', view: 0, logShard: s(0), sig: sig(4) }],
  ['writeback with votes', writeback],
  ['writeback with st2 and no txn', { kind: 'writeback', digest: txn.digest, cert: { kind: 'st2', st2: { decision: 'abort', logShard: s(0), view: 1, sigs: [sig(1)] } }, txn: null }],
  ['writeback with a conflict', { kind: 'writeback', digest: txn.digest, cert: { kind: 'conflict', conflict: committed }, txn }],
  ['relay', { kind: 'relay', req: 8, waitingDigest: digestOf(1), txn: other }],
  ['elect', { kind: 'elect', req: 9, view: 2, decide: { kind: 'decide', req: 9, digest: txn.digest, decision: 'commit', view: 0, logShard: s(1), justification: votes('commit', [0, 1], 4), txn } }],
  ['elect reply', { kind: 'electReply', req: 9, digest: txn.digest, decision: 'abort', view: 2, logShard: s(1), sig: sig(3) }],
  ['fallback decision', { kind: 'decisionFb', req: 10, digest: txn.digest, decision: 'commit', view: 2, logShard: s(1), elects: [sig(0), sig(2), sig(4)], txn }],
];


for (const [name, m] of roundTrips) {
  void test(`round-trips a ${name}`, () => {
    const r = decodeMessage(encodeMessage(m));
    assert.ok(r.ok, r.ok ? '' : r.reason);
    assert.deepEqual(plain(r.value), plain(m));
  });
}

void test('digests a transaction over its exact encoded bytes, and decodeTxn agrees over the received bytes', () => {
  assert.deepEqual(txn.digest, blake3(txn.bytes));
  const r = decodeTxn(txn.bytes);
  assert.ok(r.ok);
  assert.deepEqual(r.value.digest, txn.digest);
  assert.equal(r.value.key, txn.key);
});

void test('keeps transaction bytes as views of the input, not copies', () => {
  const wire = encodeMessage({ kind: 'prepare', req: 1, txn });
  const r = decodeMessage(wire);
  assert.ok(r.ok && r.value.kind === 'prepare');
  assert.equal(r.value.txn.bytes.buffer, wire.buffer);
});

void test('maps keys to latin1 binary strings and back, short and long', () => {
  for (const k of [new Uint8Array([0, 1, 255, 128]), bytes(200, 0xe9)]) assert.deepEqual(Array.from(keyToBytes(keyFromBytes(k))), Array.from(k));
  assert.ok(keyFromBytes(new Uint8Array([1])) < keyFromBytes(new Uint8Array([1, 0])));
  assert.ok(keyFromBytes(new Uint8Array([0x7f])) < keyFromBytes(new Uint8Array([0x80])));
});

void test('refuses to encode a transaction a correct client cannot produce', () => {
  assert.throws(() => encodeTxn(body({ writes: [{ key: 'b', value: null }, { key: 'a', value: null }] })), InvariantError);
  assert.throws(() => encodeTxn(body({ shards: [s(1), s(1)] })), InvariantError);
});

// ---- bad input: each reason from a crafted input ----

type Env = pesto.Envelope.$Properties;
const txnProps = (over: Partial<pesto.TxnBody.$Properties> = {}): Uint8Array =>
  pesto.TxnBody.encode({ ts: { micros: 10, client: 1 }, shards: [0], reads: [], writes: [], ...over }).finish();
const sigProps = (over: Partial<pesto.SigProof.$Properties> = {}): pesto.SigProof.$Properties => ({ signer: 1, rootSig: bytes(64, 1), index: 0, path: bytes(32, 2), ...over });
const d32 = bytes(32, 5);
const goodTxnBytes = txnProps();
const goodDigest = blake3(goodTxnBytes);
const env = (e: Env): Uint8Array => pesto.Envelope.encode(e).finish();
const prepareOf = (b: Uint8Array): Uint8Array => env({ prepare: { req: 1, txn: b } });
const voteReply = (over: Partial<pesto.PrepareReply.$Properties>): Uint8Array =>
  env({ prepareReply: { req: 1, digest: d32, shard: 0, decision: 0, sig: sigProps(), ...over } });
const wireCommitted: pesto.CommittedTxn.$Properties = { txn: goodTxnBytes, fast: { decision: 0, shards: [{ shard: 0, sigs: [sigProps()] }] } };
const wire = encodeMessage({ kind: 'prepare', req: 1, txn });

const badInputs: readonly [string, Uint8Array, DecodeReason][] = [
  ['truncated bytes', wire.subarray(0, wire.length - 3), 'malformed'],
  ['garbage', new Uint8Array([0xff, 0xff, 0xff, 0xff, 0x0f]), 'malformed'],
  ['an envelope with no body', new Uint8Array(0), 'unknown-kind'],
  ['an envelope with only an unknown field', new Uint8Array([0x48, 0x01]), 'unknown-kind'],
  ['a prepare without a transaction', env({ prepare: { req: 1 } }), 'missing-field'],
  ['a transaction without a timestamp', prepareOf(pesto.TxnBody.encode({ shards: [0] }).finish()), 'missing-field'],
  ['a transaction without shards', prepareOf(txnProps({ shards: [] })), 'missing-field'],
  ['a transaction with a fractional timestamp', prepareOf(txnProps({ ts: { micros: 1.5, client: 1 } })), 'bad-timestamp'],
  ['a transaction with a negative timestamp', prepareOf(txnProps({ ts: { micros: -1, client: 1 } })), 'bad-timestamp'],
  ['a read version beyond 2^53', prepareOf(txnProps({ reads: [{ key: bytes(1, 1), version: { micros: 2 ** 60, client: 0 } }] })), 'bad-timestamp'],
  ['a read without a version', prepareOf(txnProps({ reads: [{ key: bytes(1, 1) }] })), 'missing-field'],
  ['unsorted reads', prepareOf(txnProps({ reads: [{ key: bytes(1, 2), version: {} }, { key: bytes(1, 1), version: {} }] })), 'unsorted'],
  ['duplicate write keys', prepareOf(txnProps({ writes: [{ key: bytes(1, 2) }, { key: bytes(1, 2) }] })), 'duplicate-key'],
  ['unsorted shards', prepareOf(txnProps({ shards: [2, 1] })), 'unsorted'],
  ['duplicate shards', prepareOf(txnProps({ shards: [1, 1] })), 'duplicate-key'],
  ['an oversized key', prepareOf(txnProps({ writes: [{ key: bytes(4097, 1) }] })), 'too-large'],
  ['an oversized value', prepareOf(txnProps({ writes: [{ key: bytes(1, 1), value: bytes(1024 * 1024 + 1, 1) }] })), 'too-large'],
  ['a deletion carrying a value', prepareOf(txnProps({ writes: [{ key: bytes(1, 1), value: bytes(1, 1), deleted: true }] })), 'unexpected-field'],
  ['a dependency with a short digest', prepareOf(txnProps({ deps: [{ digest: bytes(31, 1), shard: 0, ts: {} }] })), 'bad-digest'],
  ['an oversized read request key', env({ read: { req: 1, key: bytes(5000, 1), ts: {} } }), 'too-large'],
  ['a read request without a timestamp', env({ read: { req: 1, key: bytes(1, 1) } }), 'missing-field'],
  ['a committed read without its writer digest', env({ readReply: { req: 1, key: bytes(1, 1), committedVersion: { micros: 1 } } }), 'bad-digest'],
  ['a committed read whose proof is of another writer', env({ readReply: { req: 1, key: bytes(1, 1), committedVersion: { micros: 1 }, committedDigest: d32, committedProof: wireCommitted } }), 'digest-mismatch'],
  ['a vote with a short digest', voteReply({ digest: bytes(31, 5) }), 'bad-digest'],
  ['a vote with a 63-byte signature', voteReply({ sig: sigProps({ rootSig: bytes(63, 1) }) }), 'bad-signature-length'],
  ['a vote with a ragged Merkle path', voteReply({ sig: sigProps({ path: bytes(33, 1) }) }), 'bad-path'],
  ['a vote with a 33-level Merkle path', voteReply({ sig: sigProps({ path: bytes(33 * 32, 1) }) }), 'bad-path'],
  ['a vote with an unknown decision', voteReply({ decision: 7 as pesto.Decision }), 'bad-decision'],
  ['a commit vote without a signature', voteReply({ sig: null }), 'missing-field'],
  ['a commit vote carrying a conflict', voteReply({ conflict: wireCommitted }), 'unexpected-field'],
  ['an abort vote with a signature', voteReply({ decision: 2, conflict: wireCommitted }), 'unexpected-field'],
  ['an abort vote without a conflict', voteReply({ decision: 2, sig: null }), 'missing-field'],
  ['a vote with a signer index out of range', voteReply({ sig: sigProps({ signer: 0x1_0000 }) }), 'bad-signer'],
  ['a vote from a shard out of range', voteReply({ shard: 0x1_0000 }), 'bad-shard'],
  ['a decided reply for another digest', voteReply({ sig: null, decided: { digest: bytes(32, 9), cert: { votes: { decision: 0 } } } }), 'digest-mismatch'],
  ['a vote certificate that says abort', env({ writeback: { digest: d32, cert: { votes: { decision: 2 } } } }), 'bad-decision'],
  ['an ST2 certificate that says abstain', env({ writeback: { digest: d32, cert: { st2: { decision: 1, logShard: 0 } } } }), 'bad-decision'],
  ['a decide that says abstain', env({ decide: { digest: goodDigest, decision: 1, justification: { decision: 1 }, txn: goodTxnBytes } }), 'bad-decision'],
  ['a decide without justification', env({ decide: { digest: goodDigest, decision: 0, txn: goodTxnBytes } }), 'missing-field'],
  ['a decide whose transaction has another digest', env({ decide: { digest: d32, decision: 0, justification: { decision: 0 }, txn: goodTxnBytes } }), 'digest-mismatch'],
  ['a writeback whose transaction has another digest', env({ writeback: { digest: d32, cert: { votes: { decision: 0 } }, txn: goodTxnBytes } }), 'digest-mismatch'],
  ['a writeback without a certificate', env({ writeback: { digest: d32 } }), 'missing-field'],
  ['a writeback with an empty certificate', env({ writeback: { digest: d32, cert: {} } }), 'missing-field'],
  ['a committed proof with an abstain certificate', env({ writeback: { digest: d32, cert: { conflict: { txn: goodTxnBytes, fast: { decision: 1 } } } } }), 'bad-decision'],
  ['a committed proof with an abort ST2', env({ writeback: { digest: d32, cert: { conflict: { txn: goodTxnBytes, slow: { decision: 2 } } } } }), 'bad-decision'],
  ['a committed proof with two certificates', env({ writeback: { digest: d32, cert: { conflict: { ...wireCommitted, slow: { decision: 0 } } } } }), 'unexpected-field'],
  ['a committed proof without a certificate', env({ writeback: { digest: d32, cert: { conflict: { txn: goodTxnBytes } } } }), 'missing-field'],
  ['a decide reply without a signature', env({ decideReply: { digest: d32, decision: 0 } }), 'missing-field'],
  ['a relay with a garbage transaction', env({ relay: { waitingDigest: d32, txn: new Uint8Array([0x0a, 0x05, 1]) } }), 'malformed'],
];

for (const [name, input, reason] of badInputs) {
  void test(`rejects ${name} as '${reason}'`, () => {
    const r = decodeMessage(input);
    assert.equal(r.ok, false);
    assert.equal(r.ok ? undefined : r.reason, reason);
  });
}

void test('applies configured limits: entry counts, shard count and signer range', () => {
  const three = prepareOf(txnProps({ reads: [1, 2, 3].map((k) => ({ key: bytes(1, k), version: {} })) }));
  const limits = { messageBytesMax: 1 << 20, keyBytesMax: 16, valueBytesMax: 64, entriesMax: 2, shardCount: 2, replicasPerShard: 6 };
  assert.equal(decodeMessage(three).ok, true);
  assert.deepEqual(pick(decodeMessage(three, limits)), 'too-large');
  assert.deepEqual(pick(decodeMessage(prepareOf(txnProps({ shards: [2] })), limits)), 'bad-shard');
  assert.deepEqual(pick(decodeMessage(voteReply({ sig: sigProps({ signer: 6 }) }), limits)), 'bad-signer');
  assert.deepEqual(pick(decodeMessage(voteReply({}), { ...limits, messageBytesMax: 10 })), 'too-large');
});

function pick(r: { ok: boolean; reason?: string }): string | undefined {
  return r.ok ? undefined : r.reason;
}

void test('never throws on random mutations of valid messages', () => {
  let seed = 12345;
  const rand = (): number => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0);
  const valid = roundTrips.map(([, m]) => encodeMessage(m));
  for (let i = 0; i < 3000; i++) {
    const base = valid[rand() % valid.length]!;
    const b = Uint8Array.from(base);
    const flips = 1 + (rand() % 4);
    for (let k = 0; k < flips; k++) b[rand() % b.length] = rand() & 0xff;
    const cut = rand() % 4 === 0 ? b.subarray(0, rand() % b.length) : b;
    const r = decodeMessage(cut);
    assert.equal(typeof r.ok, 'boolean');
  }
});

void test('the digest covers predicates and table versions: a client cannot show different predicates to different replicas (PROTOCOL §3)', async () => {
  const { keyPairFromSeed } = await import('./crypto/ed25519.ts');
  const { signBatch } = await import('./crypto/signed.ts');
  const { CertificateVerifier } = await import('./certificate.ts');
  const { VerifiedRootCache } = await import('./crypto/signed.ts');
  const { voteLeaf } = await import('./statements.ts');
  const base: TxnBody = {
    ts: ts(1_000, 1),
    shards: [0 as ShardId],
    reads: [],
    writes: [{ key: 'k', value: new Uint8Array([1]) }],
    deps: [],
    predicates: [{ table: 3, tableVersion: ts(900, 2), expr: new TextEncoder().encode('{"f":1}') }],
    meta: new Uint8Array(0),
  };
  const shown = encodeTxn(base);
  const otherExpr = encodeTxn({ ...base, predicates: [{ ...base.predicates[0]!, expr: new TextEncoder().encode('{"f":2}') }] });
  const otherVersion = encodeTxn({ ...base, predicates: [{ ...base.predicates[0]!, tableVersion: ts(999, 2) }] });
  const none = encodeTxn({ ...base, predicates: [] });
  const digests = new Set([shown, otherExpr, otherVersion, none].map((t) => t.key));
  assert.equal(digests.size, 4);
  // A vote for the transaction one replica saw does not count for the variant another replica saw.
  const keys = Array.from({ length: 6 }, (_, i) => keyPairFromSeed(new Uint8Array(32).fill(i + 1)));
  const verifier = new CertificateVerifier({ f: 1, shardCount: 1, publicKey: (_s, i) => keys[i]!.publicKey, cache: new VerifiedRootCache(16) });
  const sig = signBatch([voteLeaf(shown.digest, 0 as ShardId, 'commit')], keys[0]!.secretKey, 0)[0]!;
  assert.equal(verifier.verifyVote(shown.digest, 0 as ShardId, 'commit', sig).ok, true);
  assert.equal(verifier.verifyVote(otherExpr.digest, 0 as ShardId, 'commit', sig).ok, false);
});
