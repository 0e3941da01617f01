import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { blake3 } from './blake3.ts';
import { keyPairFromSeed } from './ed25519.ts';
import { cryptoStats, resetCryptoStats, signBatch, signBatchWithRoot, type SignatureProof, VerifiedRootCache, verifyProof } from './signed.ts';

const alice = keyPairFromSeed(new Uint8Array(32).fill(11));
const bob = keyPairFromSeed(new Uint8Array(32).fill(12));
const leavesOf = (n: number, salt = 0): Uint8Array[] => Array.from({ length: n }, (_, i) => blake3(Uint8Array.of(i, n, salt)));

void describe('signed batches', () => {
  void it('verifies every proof of batches of 1..33 with one signature and one verification each', () => {
    for (let n = 1; n <= 33; n++) {
      resetCryptoStats();
      const leaves = leavesOf(n);
      const proofs = signBatch(leaves, alice.secretKey, 4);
      const cache = new VerifiedRootCache();
      for (let i = 0; i < n; i++) {
        assert.equal(proofs[i]!.signer, 4);
        assert.equal(proofs[i]!.index, i);
        assert.ok(verifyProof(leaves[i]!, proofs[i]!, alice.publicKey, cache), `n=${n} i=${i}`);
      }
      assert.deepEqual({ ...cryptoStats }, { signatures: 1, verifications: 1 });
      assert.equal(cache.misses, 1);
      assert.equal(cache.hits, n - 1);
    }
  });

  void it('answers from the cache without an ed25519 verify once a root has verified', () => {
    const leaves = leavesOf(8);
    const proofs = signBatch(leaves, alice.secretKey, 0);
    const cache = new VerifiedRootCache();
    assert.ok(verifyProof(leaves[0]!, proofs[0]!, alice.publicKey, cache));
    resetCryptoStats();
    for (let round = 0; round < 3; round++) for (let i = 0; i < 8; i++) assert.ok(verifyProof(leaves[i]!, proofs[i]!, alice.publicKey, cache));
    assert.equal(cryptoStats.verifications, 0);
    assert.equal(cache.hits, 24);
  });

  void it('lets a signer pre-cache its own root', () => {
    const leaves = leavesOf(4);
    const batch = signBatchWithRoot(leaves, alice.secretKey, 1);
    const cache = new VerifiedRootCache();
    cache.remember(alice.publicKey, batch.root, batch.rootSignature);
    resetCryptoStats();
    assert.ok(verifyProof(leaves[2]!, batch.proofs[2]!, alice.publicKey, cache));
    assert.equal(cryptoStats.verifications, 0);
  });

  void it('keeps its own copy of a verified triple, not a view into the bytes it was received in', () => {
    const leaves = leavesOf(4);
    const proofs = signBatch(leaves, alice.secretKey, 0);
    // As received: the signature and the key are Buffer views into one larger read (Buffer#slice is a view too).
    const read = Buffer.alloc(4096);
    read.set(proofs[0]!.rootSignature, 1000);
    read.set(alice.publicKey, 2000);
    const signature = read.subarray(1000, 1064);
    const key = read.subarray(2000, 2032);
    const cache = new VerifiedRootCache();
    assert.ok(verifyProof(leaves[0]!, { ...proofs[0]!, rootSignature: signature }, key, cache));
    read.fill(0); // the read's memory is reused for the next one
    resetCryptoStats();
    assert.ok(verifyProof(leaves[1]!, proofs[1]!, alice.publicKey, cache));
    assert.equal(cryptoStats.verifications, 0, 'the cached triple survived the reuse of the read');
  });

  void it('rejects a tampered leaf, path, index or signature even when the root is cached', () => {
    const leaves = leavesOf(9);
    const proofs = signBatch(leaves, alice.secretKey, 0);
    const cache = new VerifiedRootCache();
    for (let i = 0; i < 9; i++) assert.ok(verifyProof(leaves[i]!, proofs[i]!, alice.publicKey, cache));
    const p = proofs[4]!;
    const badLeaf = leaves[4]!.slice();
    badLeaf[31]! ^= 1;
    assert.equal(verifyProof(badLeaf, p, alice.publicKey, cache), false, 'leaf');
    const badPath = p.path.slice();
    badPath[40]! ^= 1;
    assert.equal(verifyProof(leaves[4]!, { ...p, path: badPath }, alice.publicKey, cache), false, 'path');
    assert.equal(verifyProof(leaves[4]!, { ...p, index: 5 }, alice.publicKey, cache), false, 'index');
    assert.equal(verifyProof(leaves[4]!, { ...p, index: 4 + 16 }, alice.publicKey, cache), false, 'index high bits');
    // The root is cached; a different signature over it must still be checked, and fails.
    const badSig = p.rootSignature.slice();
    badSig[0]! ^= 1;
    resetCryptoStats();
    assert.equal(verifyProof(leaves[4]!, { ...p, rootSignature: badSig }, alice.publicKey, cache), false, 'signature');
    assert.equal(cryptoStats.verifications, 1, 'the altered signature was verified, not looked up');
    assert.equal(verifyProof(leaves[4]!, p, bob.publicKey, cache), false, 'another signer');
  });

  void it('rejects a leaf from another batch under a valid proof', () => {
    const proofs = signBatch(leavesOf(4, 1), alice.secretKey, 0);
    const cache = new VerifiedRootCache();
    assert.equal(verifyProof(leavesOf(4, 2)[0]!, proofs[0]!, alice.publicKey, cache), false);
  });

  void it('returns false for wrong-length inputs without throwing', () => {
    const leaves = leavesOf(2);
    const [p] = signBatch(leaves, alice.secretKey, 0) as [SignatureProof];
    const cache = new VerifiedRootCache();
    const cases: [Uint8Array, SignatureProof, Uint8Array][] = [
      [leaves[0]!.subarray(0, 31), p, alice.publicKey],
      [new Uint8Array(33), p, alice.publicKey],
      [leaves[0]!, { ...p, rootSignature: p.rootSignature.subarray(0, 63) }, alice.publicKey],
      [leaves[0]!, { ...p, rootSignature: new Uint8Array(0) }, alice.publicKey],
      [leaves[0]!, { ...p, path: p.path.subarray(0, 31) }, alice.publicKey],
      [leaves[0]!, p, alice.publicKey.subarray(0, 31)],
      [leaves[0]!, { ...p, index: Number.NaN }, alice.publicKey],
    ];
    for (const [leaf, proof, pk] of cases) assert.equal(verifyProof(leaf, proof, pk, cache), false);
  });

  void it('stays bounded and keeps recently used roots', () => {
    const cache = new VerifiedRootCache(8);
    const batches = Array.from({ length: 20 }, (_, b) => {
      const leaves = leavesOf(2, b);
      return { leaves, proofs: signBatch(leaves, alice.secretKey, 0) };
    });
    const hot = batches[0]!;
    for (const b of batches) {
      assert.ok(verifyProof(b.leaves[0]!, b.proofs[0]!, alice.publicKey, cache));
      assert.ok(verifyProof(hot.leaves[1]!, hot.proofs[1]!, alice.publicKey, cache));
    }
    assert.ok(cache.size <= 4);
    resetCryptoStats();
    assert.ok(verifyProof(hot.leaves[0]!, hot.proofs[0]!, alice.publicKey, cache));
    assert.equal(cryptoStats.verifications, 0, 'the hot root survived');
    assert.ok(verifyProof(batches[1]!.leaves[0]!, batches[1]!.proofs[0]!, alice.publicKey, cache));
    assert.equal(cryptoStats.verifications, 1, 'a cold root was evicted and verified again');
  });
});
