/**
 * Pairwise MACs between the replicas of a shard, so a replica can check the votes inside a
 * certificate without ed25519 (decision 0007). Every vote carries, besides its batched signature, a
 * vector of n 16-byte MACs over the vote's leaf, one per replica of the shard, each under the key the
 * signer shares with that replica. A replica checking a certificate compares its own slot of each
 * vote; when every slot matches it needs no signature verification at all. When one does not (a
 * Byzantine signer can make its MACs valid for some replicas and not for others), it falls back to the
 * signature, which is what makes the certificate transferable: clients and other parties never use
 * MACs, so nothing is ever accepted that a signature would refuse.
 *
 * A vote's `macs` travels in one of two forms. The signer's full vector (n x 16 bytes, by replica
 * index) is what a replica attaches to its vote for the client. A client writing a certificate back
 * to replica i sends each vote with only i's slot (`MAC_SLOT_BYTES`: the index byte, then the 16-byte
 * MAC; `writeSlot`): the other n - 1 MACs are of no use to i, and they were a fifth of every writeback a
 * replica received, logged and kept (decision 0058). A slot names its replica, so one meant for
 * another replica (a stored certificate supplied to a peer) is simply not used, never a mismatch.
 *
 * Keys: k_ij = BLAKE3(tag ‖ X25519(i, j) ‖ shard ‖ min(i,j) ‖ max(i,j)), from each side's ed25519
 * key pair converted to X25519 (libsodium), so k_ij = k_ji and only i and j know it. A replica's own
 * slot uses k_ii (X25519 with its own public key), so it checks its own votes like anyone else's.
 * MAC_ij(leaf) = first 16 bytes of keyed BLAKE3 under k_ij of the 32-byte leaf: one compression
 * (decision 0055; before it, plain BLAKE3 of tag ‖ k_ij ‖ leaf took two). The key's tag makes the keys
 * vote-MAC keys and nothing else; votes are the only thing MACed.
 */
import sodium from 'sodium-native';
import { blake3Into, keyedHash32, keyWords } from './blake3.ts';
import { pooledBytes } from '../pooled.ts';

export const MAC_BYTES = 16;
/** A single slot of a vector: the replica's index (one byte), then its MAC. */
export const MAC_SLOT_BYTES = 1 + MAC_BYTES;

/** Writes replica `index`'s slot of `vector` (`MAC_SLOT_BYTES`) at `at` of `out`; a vector without that slot gives a slot that matches nothing. */
export function writeSlot(vector: Uint8Array, index: number, out: Uint8Array, at: number): void {
  out[at] = index;
  const from = index * MAC_BYTES;
  // Byte by byte: a subarray per slot would be 36 views per six-replica writeback.
  if (from + MAC_BYTES <= vector.length) for (let b = 0; b < MAC_BYTES; b++) out[at + 1 + b] = vector[from + b]!;
  else out.fill(0, at + 1, at + MAC_SLOT_BYTES);
}

interface SodiumX25519 {
  crypto_sign_ed25519_pk_to_curve25519(x25519Pk: Uint8Array, ed25519Pk: Uint8Array): void;
  crypto_sign_ed25519_sk_to_curve25519(x25519Sk: Uint8Array, ed25519Sk: Uint8Array): void;
  crypto_scalarmult(shared: Uint8Array, secret: Uint8Array, pub: Uint8Array): void;
}
const na = sodium as unknown as SodiumX25519;

const KEY_TAG = new TextEncoder().encode('pesto/replica-vote-mac-key/v2');

/** MAC keys one replica shares with every replica of its shard (itself included). */
export class PairwiseMacs {
  /** k_ij by j, as BLAKE3 key words. */
  readonly #keys: Int32Array[];
  readonly #digest = new Uint8Array(MAC_BYTES);
  /** Slots checked, and slots that did not match (the caller then falls back to the signature). */
  checked = 0;
  mismatched = 0;

  /**
   * @param secretKey this replica's ed25519 secret key (64 bytes)
   * @param publicKeys ed25519 public keys of the shard's replicas, by index
   */
  constructor(
    readonly shard: number,
    readonly index: number,
    secretKey: Uint8Array,
    publicKeys: readonly Uint8Array[],
  ) {
    const mySk = new Uint8Array(32);
    na.crypto_sign_ed25519_sk_to_curve25519(mySk, secretKey);
    this.#keys = publicKeys.map((pk, j) => {
      const theirPk = new Uint8Array(32);
      na.crypto_sign_ed25519_pk_to_curve25519(theirPk, pk);
      const shared = new Uint8Array(32);
      na.crypto_scalarmult(shared, mySk, theirPk);
      const material = new Uint8Array(KEY_TAG.length + 32 + 6);
      material.set(KEY_TAG, 0);
      material.set(shared, KEY_TAG.length);
      const view = new DataView(material.buffer);
      view.setUint16(KEY_TAG.length + 32, shard, true);
      view.setUint16(KEY_TAG.length + 34, Math.min(index, j), true);
      view.setUint16(KEY_TAG.length + 36, Math.max(index, j), true);
      const key = new Uint8Array(32);
      blake3Into(material, key);
      return keyWords(key);
    });
  }

  get n(): number {
    return this.#keys.length;
  }

  /** The vector a signer attaches to a vote: one MAC per replica of the shard, by index. */
  vector(leaf: Uint8Array): Uint8Array {
    // Lives with its vote's signature until the transaction is decided: from Buffer's pool (pooled.ts).
    if (leaf.length !== 32) throw new RangeError(`a vote leaf is 32 bytes, got ${leaf.length}`);
    const out = pooledBytes(this.#keys.length * MAC_BYTES);
    for (let j = 0; j < this.#keys.length; j++) keyedHash32(this.#keys[j]!, leaf, 0, out, j * MAC_BYTES, MAC_BYTES);
    return out;
  }

  /**
   * True iff `macs` holds this replica's slot (the full vector, or the single slot naming this replica)
   * and it is the MAC `signer` would compute over `leaf`. A single slot for another replica is not
   * checked (false, not counted as a mismatch).
   */
  check(leaf: Uint8Array, signer: number, macs: Uint8Array): boolean {
    const key = this.#keys[signer];
    if (key === undefined || leaf.length !== 32) return false;
    let at: number;
    if (macs.length === this.#keys.length * MAC_BYTES) at = this.index * MAC_BYTES;
    else if (macs.length === MAC_SLOT_BYTES && macs[0] === this.index) at = 1;
    else return false;
    this.checked++;
    keyedHash32(key, leaf, 0, this.#digest, 0, MAC_BYTES);
    let diff = 0;
    for (let b = 0; b < MAC_BYTES; b++) diff |= this.#digest[b]! ^ macs[at + b]!;
    if (diff !== 0) this.mismatched++;
    return diff === 0;
  }
}
