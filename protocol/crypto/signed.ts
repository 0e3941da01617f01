/**
 * Merkle batch signatures and their verification with a cache of verified roots (DESIGN §3).
 *
 * Signing: `signBatch` builds the BLAKE3 tree of a batch of leaves (merkle.ts), signs its root once
 * with ed25519, and gives each leaf a `SignatureProof`: the signer's index, the root signature, the
 * leaf index and the sibling path. The root itself is not sent; the verifier recomputes it.
 *
 * Verifying: `verifyProof` folds the path to a root, then asks the `VerifiedRootCache` whether this
 * exact (public key, root, signature) triple has verified before; only on a miss does it run
 * ed25519. A batch of B votes from one replica therefore costs each verifier one ed25519 verify and
 * B path folds (the model measured this as the largest lever, 4-5x, in reference/node-commit-path-model.md).
 *
 * Guarantees:
 * - A hit requires equal public key, root *and* signature bytes, so a cached root cannot vouch for a
 *   different signature; a forged leaf, path or index folds to another root and must verify afresh.
 * - Nothing here throws on malformed proofs: they return false.
 * - The verify path allocates nothing on a hit (a cache entry is allocated once per verified root).
 *
 * Caveats: the cache trusts that the public key passed for a signer is that signer's checked key
 * (`checkPublicKey`); mapping `proof.signer` to a key is the caller's job. A Byzantine signer can sign
 * many roots and push other roots out of a shared cache: that costs verifications, never safety (a
 * per-signer cache bounds it if it ever shows up). `verifyProof` folds into a module scratch buffer, so
 * it is not reentrant (nothing in it yields).
 */
import { BLAKE3_BYTES } from './blake3.ts';
import { PUBLIC_KEY_BYTES, SIGNATURE_BYTES, sign, verify } from './ed25519.ts';
import { buildTree, foldPath } from './merkle.ts';

export { cryptoStats, resetCryptoStats } from './crypto-stats.ts';

export interface SignatureProof {
  /** The signing replica's index within its shard. */
  readonly signer: number;
  /** ed25519 signature over the 32-byte batch root (shared by every proof of the batch). */
  readonly rootSignature: Uint8Array;
  /** The leaf's position in the batch. */
  readonly index: number;
  /** Sibling path, 32 bytes per level, leaf level first (merkle.ts). */
  readonly path: Uint8Array;
}

export interface SignedBatch {
  readonly root: Uint8Array;
  readonly rootSignature: Uint8Array;
  readonly proofs: readonly SignatureProof[];
}

/** Signs a non-empty batch with one ed25519 signature; returns the root too, for the signer's own cache. */
export function signBatchWithRoot(leaves: readonly Uint8Array[], secretKey: Uint8Array, signer: number): SignedBatch {
  const tree = buildTree(leaves);
  const rootSignature = sign(tree.root, secretKey);
  const proofs: SignatureProof[] = [];
  for (let i = 0; i < leaves.length; i++) proofs.push({ signer, rootSignature, index: i, path: tree.pathFor(i) });
  return { root: tree.root, rootSignature, proofs };
}

/** One proof per leaf, in leaf order, all under one signature of the batch root. */
export function signBatch(leaves: readonly Uint8Array[], secretKey: Uint8Array, signer: number): SignatureProof[] {
  return signBatchWithRoot(leaves, secretKey, signer).proofs as SignatureProof[];
}

interface CacheEntry {
  readonly publicKey: Uint8Array;
  readonly root: Uint8Array;
  readonly signature: Uint8Array;
  /** Next entry whose root shares the 48-bit bucket key (collisions are rare, but possible). */
  next: CacheEntry | undefined;
}

function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** The first 6 bytes of a root as an exact number: a map key that costs no allocation. */
function bucketKey(root: Uint8Array): number {
  return root[0]! + root[1]! * 0x100 + root[2]! * 0x1_0000 + root[3]! * 0x100_0000 + (root[4]! + root[5]! * 0x100) * 0x1_0000_0000;
}

function find(map: Map<number, CacheEntry>, key: number, publicKey: Uint8Array, root: Uint8Array, signature: Uint8Array): CacheEntry | undefined {
  for (let e = map.get(key); e !== undefined; e = e.next) {
    if (equalBytes(e.root, root) && equalBytes(e.signature, signature) && equalBytes(e.publicKey, publicKey)) return e;
  }
  return undefined;
}

/**
 * Bounded set of (public key, root, signature) triples that passed ed25519 verification. Two
 * generations: new entries go to the young map; when it holds `capacity / 2` roots it becomes the
 * old map and the previous old map is dropped; a hit in the old map is copied to the young one. So
 * the cache holds at most `capacity` roots and keeps the recently used ones.
 */
export class VerifiedRootCache {
  #young = new Map<number, CacheEntry>();
  #old = new Map<number, CacheEntry>();
  #youngCount = 0;
  readonly #generationMax: number;
  hits = 0;
  misses = 0;

  constructor(capacity = 8192) {
    this.#generationMax = Math.max(1, capacity >> 1);
  }

  /** True iff this exact triple verified before (counts a hit or a miss). */
  has(publicKey: Uint8Array, root: Uint8Array, signature: Uint8Array): boolean {
    const key = bucketKey(root);
    if (find(this.#young, key, publicKey, root, signature) !== undefined) {
      this.hits++;
      return true;
    }
    const old = find(this.#old, key, publicKey, root, signature);
    if (old !== undefined) {
      this.#insert(key, old.publicKey, old.root, old.signature);
      this.hits++;
      return true;
    }
    this.misses++;
    return false;
  }

  /**
   * Records a triple known valid (after a verify, or a signer's own batch). Copies the root and
   * signature into one array of their own: a received signature is a view into the bytes of the read
   * that brought it (often tens of KB), and `Buffer#slice` is a view too, so keeping it would pin that
   * whole read for as long as the entry lives (thousands of entries: hundreds of MB, decision 0054).
   * The public key is copied with them (one allocation for the three).
   */
  remember(publicKey: Uint8Array, root: Uint8Array, signature: Uint8Array): void {
    const key = bucketKey(root);
    if (find(this.#young, key, publicKey, root, signature) !== undefined) return;
    const rootAt = PUBLIC_KEY_BYTES;
    const sigAt = rootAt + BLAKE3_BYTES;
    const own = new Uint8Array(sigAt + SIGNATURE_BYTES);
    own.set(publicKey.subarray(0, PUBLIC_KEY_BYTES));
    own.set(root.subarray(0, BLAKE3_BYTES), rootAt);
    own.set(signature.subarray(0, SIGNATURE_BYTES), sigAt);
    this.#insert(key, own.subarray(0, rootAt), own.subarray(rootAt, sigAt), own.subarray(sigAt));
  }

  get size(): number {
    return this.#youngCount;
  }

  #insert(key: number, publicKey: Uint8Array, root: Uint8Array, signature: Uint8Array): void {
    if (this.#youngCount >= this.#generationMax) {
      this.#old = this.#young;
      this.#young = new Map();
      this.#youngCount = 0;
    }
    this.#young.set(key, { publicKey, root, signature, next: this.#young.get(key) });
    this.#youngCount++;
  }
}

const foldedRoot = new Uint8Array(BLAKE3_BYTES);

/**
 * True iff `proof` shows `leaf` is in a batch whose root `publicKey` signed. Never throws; runs
 * ed25519 only when the (key, root, signature) triple is not in `cache`, and caches it on success.
 */
export function verifyProof(leaf: Uint8Array, proof: SignatureProof, publicKey: Uint8Array, cache: VerifiedRootCache): boolean {
  const signature = proof.rootSignature;
  if (signature.length !== SIGNATURE_BYTES || publicKey.length !== PUBLIC_KEY_BYTES) return false;
  if (!foldPath(leaf, proof.index, proof.path, foldedRoot)) return false;
  if (cache.has(publicKey, foldedRoot, signature)) return true;
  if (!verify(signature, foldedRoot, publicKey)) return false;
  cache.remember(publicKey, foldedRoot, signature);
  return true;
}
