// Pairwise vote MACs (decision 0007; one keyed compression since decision 0055): what one replica
// attaches, each other replica of the shard checks in its own slot, and nothing else passes.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { keyPairFromSeed } from './ed25519.ts';
import { MAC_BYTES, MAC_SLOT_BYTES, PairwiseMacs, writeSlot } from './mac.ts';

const N = 6;
const pairs = Array.from({ length: N }, (_, i) => keyPairFromSeed(new Uint8Array(32).fill(i + 1)));
const publicKeys = pairs.map((p) => p.publicKey);
const macsOf = (i: number, shard = 0): PairwiseMacs => new PairwiseMacs(shard, i, pairs[i]!.secretKey, publicKeys);
const leafOf = (n: number): Uint8Array => Uint8Array.from({ length: 32 }, (_, b) => (n * 31 + b) & 0xff);

void describe('PairwiseMacs', () => {
  void it('lets every replica check its own slot of every signer vector, itself included', () => {
    const all = Array.from({ length: N }, (_, i) => macsOf(i));
    for (let signer = 0; signer < N; signer++) {
      const leaf = leafOf(signer);
      const vector = all[signer]!.vector(leaf);
      assert.equal(vector.length, N * MAC_BYTES);
      for (let checker = 0; checker < N; checker++) assert.equal(all[checker]!.check(leaf, signer, vector), true, `${signer} -> ${checker}`);
    }
    assert.deepEqual(all.map((m) => [m.checked, m.mismatched]), Array.from({ length: N }, () => [N, 0]));
  });

  void it('refuses another leaf, another signer, a flipped bit in the own slot, another shard and bad lengths', () => {
    const signer = macsOf(2);
    const checker = macsOf(4);
    const leaf = leafOf(7);
    const vector = signer.vector(leaf);
    assert.equal(checker.check(leafOf(8), 2, vector), false);
    assert.equal(checker.check(leaf, 3, vector), false);
    assert.equal(checker.check(leaf, N, vector), false, 'no such signer');
    const flipped = Uint8Array.from(vector);
    flipped[4 * MAC_BYTES + 15]! ^= 1;
    assert.equal(checker.check(leaf, 2, flipped), false);
    const otherSlot = Uint8Array.from(vector);
    otherSlot[0]! ^= 0xff;
    assert.equal(checker.check(leaf, 2, otherSlot), true, 'slots of other replicas are not this one to check');
    assert.equal(macsOf(4, 1).check(leaf, 2, macsOf(2, 1).vector(leaf)), true);
    assert.equal(checker.check(leaf, 2, macsOf(2, 1).vector(leaf)), false, 'keys are per shard');
    assert.equal(checker.check(leaf, 2, vector.subarray(0, vector.length - 1)), false);
    assert.equal(checker.check(leaf.subarray(1), 2, vector), false);
    assert.throws(() => signer.vector(leaf.subarray(1)), /32 bytes/);
    assert.equal(checker.mismatched, 4, "malformed inputs are refused before any MAC is computed");
  });

  void it('checks a single slot that names this replica, and leaves one naming another unchecked', () => {
    const signer = macsOf(1);
    const leaf = leafOf(9);
    const vector = signer.vector(leaf);
    const slotFor = (i: number): Uint8Array => {
      const out = new Uint8Array(MAC_SLOT_BYTES);
      writeSlot(vector, i, out, 0);
      return out;
    };
    for (let i = 0; i < N; i++) {
      const checker = macsOf(i);
      assert.equal(checker.check(leaf, 1, slotFor(i)), true, `own slot at ${i}`);
      assert.deepEqual(slotFor(i).subarray(1), vector.subarray(i * MAC_BYTES, (i + 1) * MAC_BYTES));
      assert.equal(checker.check(leaf, 1, slotFor((i + 1) % N)), false, `another replica's slot at ${i}`);
      assert.deepEqual([checker.checked, checker.mismatched], [1, 0], 'a slot for another replica is not checked at all');
      const flipped = slotFor(i);
      flipped[MAC_SLOT_BYTES - 1]! ^= 1;
      assert.equal(checker.check(leaf, 1, flipped), false);
      assert.equal(checker.mismatched, 1);
    }
    // A vector without the asked slot gives one that matches nothing.
    const short = new Uint8Array(MAC_SLOT_BYTES);
    writeSlot(vector.subarray(0, 2 * MAC_BYTES), 4, short, 0);
    assert.equal(macsOf(4).check(leaf, 1, short), false);
  });
});
