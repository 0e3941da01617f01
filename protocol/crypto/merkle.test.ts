import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { blake3, hashNode } from './blake3.ts';
import { buildTree, foldPath, MERKLE_PAD, pathLevels } from './merkle.ts';

const leavesOf = (n: number, salt = 0): Uint8Array[] => Array.from({ length: n }, (_, i) => blake3(Uint8Array.of(i, n, salt)));
const node = (l: Uint8Array, r: Uint8Array): Uint8Array => {
  const out = new Uint8Array(32);
  hashNode(l, r, out);
  return out;
};

void describe('merkle', () => {
  void it('folds every leaf of every batch size 1..33 back to the root', () => {
    for (let n = 1; n <= 33; n++) {
      const leaves = leavesOf(n);
      const tree = buildTree(leaves);
      for (let i = 0; i < n; i++) {
        const path = tree.pathFor(i);
        assert.equal(path.length, 32 * pathLevels(n));
        const out = new Uint8Array(32);
        assert.ok(foldPath(leaves[i]!, i, path, out), `n=${n} i=${i}`);
        assert.deepEqual(out, tree.root, `n=${n} i=${i}`);
      }
    }
  });

  void it('makes a batch of one its own root with an empty path', () => {
    const [leaf] = leavesOf(1);
    const tree = buildTree([leaf!]);
    assert.deepEqual(tree.root, leaf);
    assert.equal(tree.pathFor(0).length, 0);
  });

  void it('pads an odd level with 32 zero bytes, level by level', () => {
    const [a, b, c] = leavesOf(3) as [Uint8Array, Uint8Array, Uint8Array];
    assert.deepEqual(buildTree([a, b, c]).root, node(node(a, b), node(c, MERKLE_PAD)));
    const l5 = leavesOf(5) as [Uint8Array, Uint8Array, Uint8Array, Uint8Array, Uint8Array];
    const [p, q, r, s, t] = l5;
    const expected = node(node(node(p, q), node(r, s)), node(node(t, MERKLE_PAD), MERKLE_PAD));
    assert.deepEqual(buildTree(l5).root, expected);
  });

  void it('folds a different root for a tampered leaf, sibling or index', () => {
    const leaves = leavesOf(13);
    const tree = buildTree(leaves);
    const out = new Uint8Array(32);
    for (let i = 0; i < 13; i++) {
      const path = tree.pathFor(i);
      const badLeaf = leaves[i]!.slice();
      badLeaf[0]! ^= 1;
      assert.ok(foldPath(badLeaf, i, path, out));
      assert.notDeepEqual(out, tree.root);
      for (let l = 0; l < path.length / 32; l++) {
        const badPath = path.slice();
        badPath[l * 32 + 7]! ^= 0x80;
        assert.ok(foldPath(leaves[i]!, i, badPath, out));
        assert.notDeepEqual(out, tree.root);
      }
      const otherIndex = i ^ 1;
      foldPath(leaves[i]!, otherIndex, path, out);
      assert.notDeepEqual(out, tree.root);
    }
  });

  void it('refuses malformed proofs without throwing', () => {
    const leaves = leavesOf(8);
    const tree = buildTree(leaves);
    const path = tree.pathFor(3);
    const out = new Uint8Array(32);
    assert.equal(foldPath(leaves[3]!, 3 + 8, path, out), false, 'index bits above the path');
    assert.equal(foldPath(leaves[3]!, -1, path, out), false);
    assert.equal(foldPath(leaves[3]!, 1.5, path, out), false);
    assert.equal(foldPath(leaves[3]!, 3, path.subarray(0, 95), out), false, 'ragged path');
    assert.equal(foldPath(leaves[3]!.subarray(0, 31), 3, path, out), false, 'short leaf');
    assert.equal(foldPath(leaves[3]!, 3, path, new Uint8Array(16)), false, 'short output');
    assert.equal(foldPath(leaves[3]!, 0, new Uint8Array(32 * 17), out), false, 'path too long');
    assert.equal(foldPath(leaves[3]!, 1, new Uint8Array(0), out), false, 'batch of one has index 0');
  });

  void it('cannot pass an inner node off as a leaf with a shortened path', () => {
    const leaves = leavesOf(4);
    const tree = buildTree(leaves);
    const inner = node(leaves[0]!, leaves[1]!);
    const path = tree.pathFor(0).subarray(32); // the level-1 sibling only
    const out = new Uint8Array(32);
    assert.ok(foldPath(inner, 0, path, out));
    // Folding succeeds, so safety rests on leaves being plain-mode digests: no content hashes to `inner`.
    assert.deepEqual(out, tree.root);
    assert.notDeepEqual(blake3(new Uint8Array([...leaves[0]!, ...leaves[1]!])), inner);
  });

  void it('folds in place when the output is the leaf buffer', () => {
    const leaves = leavesOf(6);
    const tree = buildTree(leaves);
    const leaf = leaves[5]!.slice();
    assert.ok(foldPath(leaf, 5, tree.pathFor(5), leaf));
    assert.deepEqual(leaf, tree.root);
  });

  void it('throws InvariantError for an empty batch, a bad leaf or a bad index of our own', () => {
    assert.throws(() => buildTree([]), { name: 'InvariantError' });
    assert.throws(() => buildTree([new Uint8Array(31)]), { name: 'InvariantError' });
    assert.throws(() => buildTree(leavesOf(3)).pathFor(3), { name: 'InvariantError' });
  });
});
