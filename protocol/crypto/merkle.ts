/**
 * Binary BLAKE3 Merkle trees for batch signing (DESIGN §3; reference/node-commit-path-model.md).
 *
 * A replica collects the 32-byte leaves of a batch of votes, builds this tree and signs only the
 * root; each vote then carries its leaf index and sibling path, and a verifier folds the path back to
 * the root (one 64-byte hash per level) before checking a signature or a verified-root cache.
 *
 * Shape:
 * - Level 0 is the leaves in batch order. A level with an odd number of nodes (more than one) is
 *   padded with `MERKLE_PAD`, 32 zero bytes, a value with no known BLAKE3 preimage in any mode;
 *   the padded level is then paired left to right. So every leaf of a batch of n has a path of
 *   exactly `pathLevels(n)` = ceil(log2 n) siblings, and bit l of the index says whether the node
 *   at level l is a right child (1) or a left child (0).
 * - A batch of one has an empty path and its root is the leaf itself.
 * - Inner node = `hashNode(left, right)`: BLAKE3 keyed mode under MERKLE_NODE_KEY (blake3.ts).
 *   Leaves must be *plain-mode* BLAKE3 digests of the content they stand for (a vote's leaf is
 *   `blake3(encoded vote fields)`), so no leaf can equal an inner node: a path cannot be cut short
 *   to pass an inner node off as a leaf (second-preimage safety). Nothing here can check that a leaf
 *   was made that way; it is the caller's contract.
 * - `foldPath` refuses an index with bits above the path length, so each leaf has one valid proof.
 *
 * Caveat: padding makes [a, b, c] and [a, b, c, MERKLE_PAD] share a root; that is harmless only
 * because no content hashes to MERKLE_PAD.
 */
import { InvariantError } from '../errors.ts';
import { BLAKE3_BYTES, hashNodeAt } from './blake3.ts';

const H = BLAKE3_BYTES;
/** Longest path accepted: batches up to 2^16 leaves (real batches hold tens of votes). */
export const MERKLE_LEVELS_MAX = 16;
export const MERKLE_PAD: Uint8Array = new Uint8Array(H);

export interface MerkleTree {
  /** Invariant: 32 bytes; equals the only leaf when the batch has one leaf. */
  readonly root: Uint8Array;
  readonly size: number;
  /** The sibling path of leaf `index`: `pathLevels(size)` siblings of 32 bytes, contiguous, leaf level first. */
  pathFor(index: number): Uint8Array;
}

/** Number of siblings in every path of a batch of `size` leaves. */
export function pathLevels(size: number): number {
  let levels = 0;
  while (1 << levels < size) levels++;
  return levels;
}

/** Builds the tree of a non-empty batch of 32-byte leaves. Throws InvariantError on bad input (our own batch). */
export function buildTree(leaves: readonly Uint8Array[]): MerkleTree {
  const size = leaves.length;
  if (size === 0) throw new InvariantError('Merkle batch must not be empty');
  const levelsMax = pathLevels(size);
  if (levelsMax > MERKLE_LEVELS_MAX) throw new InvariantError(`Merkle batch too large: ${size}`);
  // levels[l] holds level l padded to an even count (except the root level), contiguous.
  const levels: Uint8Array[] = [];
  let count = size;
  let level = new Uint8Array((count + (count & 1)) * H);
  for (let i = 0; i < size; i++) {
    const leaf = leaves[i]!;
    if (leaf.length !== H) throw new InvariantError(`Merkle leaf ${i} is ${leaf.length} bytes, not ${H}`);
    level.set(leaf, i * H);
  }
  while (count > 1) {
    levels.push(level); // an odd count leaves the zero-filled pad slot in place
    const parents = (count + 1) >> 1;
    const next = new Uint8Array((parents + (parents > 1 ? parents & 1 : 0)) * H);
    for (let p = 0; p < parents; p++) hashNodeAt(level, 2 * p * H, level, (2 * p + 1) * H, next, p * H);
    level = next;
    count = parents;
  }
  const root = level.slice(0, H);
  return {
    root,
    size,
    pathFor(index: number): Uint8Array {
      if (!Number.isInteger(index) || index < 0 || index >= size) throw new InvariantError(`Merkle leaf index ${index} out of 0..${size - 1}`);
      const path = new Uint8Array(levels.length * H);
      let at = index;
      for (let l = 0; l < levels.length; l++) {
        const sibling = at ^ 1;
        path.set(levels[l]!.subarray(sibling * H, sibling * H + H), l * H);
        at >>= 1;
      }
      return path;
    },
  };
}

/**
 * Folds `leaf` up `path` (from `buildTree`'s `pathFor`) into `out[0..32)` and returns true; returns
 * false without throwing on a malformed proof (wrong lengths, too long a path, an index outside the
 * path's range). Allocates nothing. `out` may be `leaf` itself.
 */
export function foldPath(leaf: Uint8Array, index: number, path: Uint8Array, out: Uint8Array): boolean {
  const levels = path.length / H;
  if (leaf.length !== H || out.length < H || !Number.isInteger(levels) || levels > MERKLE_LEVELS_MAX) return false;
  if (!Number.isInteger(index) || index < 0 || index >= 1 << levels) return false;
  if (levels === 0) {
    if (out !== leaf) out.set(leaf);
    return true;
  }
  let cur = leaf;
  for (let l = 0; l < levels; l++) {
    if (((index >>> l) & 1) === 0) hashNodeAt(cur, 0, path, l * H, out, 0);
    else hashNodeAt(path, l * H, cur, 0, out, 0);
    cur = out;
  }
  return true;
}
