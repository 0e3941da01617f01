// A client's writeback as each replica receives it (decision 0058): every vote with only the
// recipient's MAC slot, checked by MAC there, by signature anywhere else, and nothing else changed.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { CertificateVerifier } from './certificate.ts';
import { decodeMessage, DEFAULT_CODEC_LIMITS, EncodeMemo, encodeMessage, encodeTxn } from './codec.ts';
import { keyPairFromSeed } from './crypto/ed25519.ts';
import { MAC_BYTES, MAC_SLOT_BYTES, PairwiseMacs } from './crypto/mac.ts';
import { signBatch, VerifiedRootCache } from './crypto/signed.ts';
import type { ShardId } from './ids.ts';
import type { Message, SigProof, Txn, Writeback } from './messages.ts';
import { voteLeaf } from './statements.ts';
import { ts } from './timestamp.ts';

const N = 6;
const SHARDS = 2;
const s = (n: number): ShardId => n as ShardId;
const keys = Array.from({ length: SHARDS }, (_, shard) => Array.from({ length: N }, (_, i) => keyPairFromSeed(new Uint8Array(32).fill(shard * 16 + i + 1))));
const macsOf = (shard: number, i: number): PairwiseMacs => new PairwiseMacs(shard, i, keys[shard]![i]!.secretKey, keys[shard]!.map((k) => k.publicKey));

const T: Txn = encodeTxn({ ts: ts(5_000, 3), shards: [s(0), s(1)], reads: [], writes: [{ key: 'k', value: new Uint8Array([7]) }], deps: [], predicates: [], meta: new Uint8Array(0) });

/** Vote `i` of `shard` for T as a replica sends it: a batched signature and its full MAC vector. */
function vote(shard: number, i: number): SigProof {
  const leaf = voteLeaf(T.digest, s(shard), 'commit');
  const filler = new Uint8Array(32).fill(0xc0 + i);
  const proof = signBatch([filler, leaf, filler], keys[shard]![i]!.secretKey, i)[1]!;
  return { ...proof, macs: macsOf(shard, i).vector(leaf) };
}

const cert = { kind: 'votes', votes: { decision: 'commit', shards: [0, 1].map((shard) => ({ shard: s(shard), sigs: Array.from({ length: N }, (_, i) => vote(shard, i)) })) } } as const;
const bare: Writeback = { kind: 'writeback', digest: T.digest, cert, txn: null };
const full: Writeback = { kind: 'writeback', digest: T.digest, cert, txn: T };

function decoded(bytes: Uint8Array): Writeback {
  const m = decodeMessage(bytes);
  assert.ok(m.ok, m.ok ? '' : m.reason);
  assert.equal(m.value.kind, 'writeback');
  return m.value as Writeback;
}

function replicaVerifier(shard: number, i: number): { v: CertificateVerifier; macs: PairwiseMacs } {
  const macs = macsOf(shard, i);
  const v = new CertificateVerifier({ f: 1, shardCount: SHARDS, publicKey: (sh, j) => keys[sh]?.[j]?.publicKey, cache: new VerifiedRootCache(), macs });
  return { v, macs };
}

/** Bytes as a plain array, so a Buffer and a Uint8Array of the same bytes compare equal. */
const plain = (b: Uint8Array | undefined): Uint8Array | undefined => (b === undefined ? undefined : Uint8Array.from(b));
const sigsOf = (wb: Writeback): SigProof[] => (wb.cert.kind === 'votes' ? wb.cert.votes.shards.flatMap((g) => [...g.sigs]) : []);

void describe('writebacks sent per replica', () => {
  void it('carry only the recipient slot of every vote, which that replica checks by MAC alone', () => {
    for (const wb of [bare, full]) {
      const memo = new EncodeMemo();
      const whole = encodeMessage(wb);
      const first = Uint8Array.from(memo.encode(wb, 0));
      for (let shard = 0; shard < SHARDS; shard++) {
        for (let i = 0; i < N; i++) {
          const bytes = memo.encode(wb, i);
          assert.equal(whole.length - bytes.length, SHARDS * N * (N * MAC_BYTES - MAC_SLOT_BYTES), 'each vote trimmed');
          const got = decoded(bytes);
          assert.deepEqual(plain(got.digest), plain(wb.digest));
          assert.deepEqual(plain(got.txn?.bytes), plain(wb.txn?.bytes));
          const sent = sigsOf(wb);
          sigsOf(got).forEach((g, k) => {
            const o = sent[k]!;
            assert.deepEqual([g.signer, g.index, plain(g.rootSignature), plain(g.path)], [o.signer, o.index, plain(o.rootSignature), plain(o.path)]);
            assert.deepEqual(plain(g.macs), Uint8Array.from([i, ...o.macs!.subarray(i * MAC_BYTES, (i + 1) * MAC_BYTES)]));
          });
          const { v, macs } = replicaVerifier(shard, i);
          assert.ok(v.verifyCertificate(got.digest, got.cert, T.body.shards).ok);
          assert.deepEqual([v.macAccepted, macs.checked, macs.mismatched], [N, N, 0], `replica ${i} of shard ${shard}: its own shard's votes by MAC`);
        }
      }
      assert.deepEqual(plain(memo.encode(wb, 0)), first, 'later recipients leave earlier bytes and the template alone');
      assert.deepEqual(plain(encodeMessage(wb)), plain(whole), 'encodings outside the fan-out keep the full vectors');
    }
  });

  void it('are verified by signature where the slots name another replica, and refused when forged', () => {
    const memo = new EncodeMemo();
    const toTwo = decoded(memo.encode(bare, 2));
    const { v, macs } = replicaVerifier(0, 4);
    assert.ok(v.verifyCertificate(toTwo.digest, toTwo.cert, T.body.shards).ok);
    assert.deepEqual([v.macAccepted, macs.checked, macs.mismatched], [0, 0, 0], 'a slot for replica 2 is not replica 4 to check');
    // A forged slot falls back to the signature; a forged slot and signature is refused.
    const bytes = Uint8Array.from(memo.encode(bare, 4));
    const at = bytes.length - MAC_SLOT_BYTES + 1;
    bytes[at]! ^= 1;
    const forged = decoded(bytes);
    const other = replicaVerifier(1, 4);
    assert.ok(other.v.verifyCertificate(forged.digest, forged.cert, T.body.shards).ok);
    assert.deepEqual([other.v.macAccepted, other.macs.mismatched], [N - 1, 1]);
    const sigs = sigsOf(forged);
    const last = sigs[sigs.length - 1]!;
    const badSig = { ...forged, cert: { kind: 'votes', votes: { decision: 'commit', shards: [{ shard: s(0), sigs: sigsOf(forged).slice(0, N) }, { shard: s(1), sigs: [...sigs.slice(N, -1), { signer: last.signer, index: last.index, path: last.path, macs: last.macs, rootSignature: Uint8Array.from(last.rootSignature).fill(1, 0, 8) }] }] } } } satisfies Writeback;
    assert.equal(replicaVerifier(1, 4).v.verifyCertificate(badSig.digest, badSig.cert, T.body.shards).ok, false);
  });

  void it('leave received writebacks and certificates without full vectors as they are', () => {
    const memo = new EncodeMemo();
    const wire = memo.encode(bare, 1);
    const received: Message = decoded(wire);
    assert.equal(memo.encode(received, 3), wire, 'a forwarded writeback keeps its bytes');
    const noMacs: Writeback = { ...bare, cert: { kind: 'votes', votes: { decision: 'commit', shards: cert.votes.shards.map((g) => ({ shard: g.shard, sigs: g.sigs.map((x) => ({ signer: x.signer, index: x.index, rootSignature: x.rootSignature, path: x.path, macs: undefined })) })) } } };
    assert.deepEqual(memo.encode(noMacs, 5), encodeMessage(noMacs));
  });

  void it('are refused with a slot for a replica the shard does not have, or a macs field of another length', () => {
    const bytes = Uint8Array.from(new EncodeMemo().encode(bare, 3));
    const slotAt = bytes.length - MAC_SLOT_BYTES;
    assert.equal(bytes[slotAt], 3);
    bytes[slotAt] = N;
    assert.ok(decodeMessage(bytes).ok, 'without the shard size, the decoder takes any one-byte index (a verifier never matches it)');
    const m = decodeMessage(bytes, { ...DEFAULT_CODEC_LIMITS, replicasPerShard: N });
    assert.equal(m.ok, false);
    assert.equal(m.ok ? '' : m.reason, 'bad-signature-length');
  });
});
