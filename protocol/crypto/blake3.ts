/**
 * BLAKE3 for Pesto: transaction digests, vote leaves and Merkle inner nodes.
 *
 * Guarantees:
 * - `blake3` / `blake3Into` are plain BLAKE3-256, bit-exact with the official test vectors: inputs of
 *   at most one chunk (1 KiB: transactions of the commit path, statements, MAC inputs) through our own
 *   chain of compressions with no allocation (`blake3Into` writes into the caller's buffer), longer
 *   ones through blake3-jit (decision 0002).
 * - `hashNode` is BLAKE3 *keyed* mode under `MERKLE_NODE_KEY` over the 64 bytes `left ‖ right`.
 *   A 64-byte keyed input is exactly one BLAKE3 compression, so it is computed here by a dedicated
 *   compression with no allocation and no per-call setup (measured 2-3x blake3-jit's `hashInto`, see
 *   bench/micro-crypto.ts). Keyed mode sets the KEYED_HASH flag in the compression, so an inner node
 *   can never equal a plain-mode digest: this is the leaf/node domain separation of merkle.ts, bought
 *   without a prefix byte (a 65-byte input would cost a second compression).
 *
 * Caveat: the compression is checked against blake3-jit (plain and keyed) and blake3-wasm in
 * blake3.test.ts; change it only with that test green.
 */
import { createDeriveKey, hashInto } from 'blake3-jit';

export const BLAKE3_BYTES = 32;

/** Key of every Merkle inner node: derive_key over an empty input with a versioned context. */
export const MERKLE_NODE_KEY: Uint8Array = createDeriveKey('pesto 2026-12 merkle inner node v1').finalize(32);

const scratchOut = new Uint8Array(BLAKE3_BYTES);

/**
 * Runs blake3-jit once over inputs past one chunk, so a process pays its set-up (SIMD detection and the
 * JIT of its hasher: 25-55 ms of CPU on the first large hash, about 1 ms for 300 KB afterwards) at start,
 * not on its first large range-read reply digest (decision 0027). Shells call it once.
 */
export function warmUpBlake3(): void {
  const input = new Uint8Array(256 * 1024);
  for (let i = 0; i < 3; i++) blake3(input);
}

/** Plain BLAKE3-256 of `data` in a fresh 32-byte array. */
export function blake3(data: Uint8Array): Uint8Array {
  const out = new Uint8Array(BLAKE3_BYTES);
  if (data.length <= CHUNK_BYTES) hashChunk(data, out, 0);
  else hashInto(data, out);
  return out;
}

/** Plain BLAKE3-256 of `data` into `out[offset..offset+32)`, through a module scratch when offset > 0. */
export function blake3Into(data: Uint8Array, out: Uint8Array, offset = 0): void {
  if (data.length <= CHUNK_BYTES) return hashChunk(data, out, offset);
  if (offset === 0 && out.length >= BLAKE3_BYTES) {
    hashInto(data, out);
    return;
  }
  hashInto(data, scratchOut);
  out.set(scratchOut, offset);
}

const IV0 = 0x6a09e667, IV1 = 0xbb67ae85 | 0, IV2 = 0x3c6ef372, IV3 = 0xa54ff53a | 0;
const CHUNK_START = 1, CHUNK_END = 2, ROOT = 8, KEYED_HASH = 16;
const NODE_FLAGS = CHUNK_START | CHUNK_END | ROOT | KEYED_HASH;

function readWords(bytes: Uint8Array, out: Uint32Array | Int32Array): void {
  for (let i = 0; i < out.length; i++) {
    const o = i * 4;
    out[i] = bytes[o]! | (bytes[o + 1]! << 8) | (bytes[o + 2]! << 16) | (bytes[o + 3]! << 24);
  }
}

const nodeKeyWords = keyWords(MERKLE_NODE_KEY);
const K0 = nodeKeyWords[0]!, K1 = nodeKeyWords[1]!, K2 = nodeKeyWords[2]!, K3 = nodeKeyWords[3]!;
const K4 = nodeKeyWords[4]!, K5 = nodeKeyWords[5]!, K6 = nodeKeyWords[6]!, K7 = nodeKeyWords[7]!;

/** Reads a little-endian 32-bit word. */
function w(b: Uint8Array, o: number): number {
  return b[o]! | (b[o + 1]! << 8) | (b[o + 2]! << 16) | (b[o + 3]! << 24);
}

function put(out: Uint8Array, o: number, v: number): void {
  out[o] = v;
  out[o + 1] = v >>> 8;
  out[o + 2] = v >>> 16;
  out[o + 3] = v >>> 24;
}

/** Merkle inner node `keyed_blake3(MERKLE_NODE_KEY, left ‖ right)` into `out[outOffset..+32)`; no allocation. */
export function hashNode(left: Uint8Array, right: Uint8Array, out: Uint8Array, outOffset = 0): void {
  hashNodeAt(left, 0, right, 0, out, outOffset);
}

/**
 * `hashNode` over 32-byte slices of larger buffers (a contiguous sibling path), so callers need no
 * `subarray` views. `out` may alias either input: all input is read before anything is written.
 */
export function hashNodeAt(a: Uint8Array, ao: number, b: Uint8Array, bo: number, out: Uint8Array, oo: number): void {
  const m = M;
  for (let i = 0; i < 8; i++) m[i] = w(a, ao + 4 * i);
  for (let i = 0; i < 8; i++) m[8 + i] = w(b, bo + 4 * i);
  const cv = CV;
  cv[0] = K0; cv[1] = K1; cv[2] = K2; cv[3] = K3; cv[4] = K4; cv[5] = K5; cv[6] = K6; cv[7] = K7;
  compress(64, NODE_FLAGS);
  for (let i = 0; i < 8; i++) put(out, oo + 4 * i, cv[i]!);
}

/** A 32-byte BLAKE3 key as the eight little-endian words `keyedHash32` takes. */
export function keyWords(key: Uint8Array): Int32Array {
  if (key.length !== 32) throw new RangeError(`a BLAKE3 key is 32 bytes, got ${key.length}`);
  const words = new Int32Array(8);
  readWords(key, words);
  return words;
}

/**
 * Keyed BLAKE3 of the 32 bytes `msg[mo..mo+32)` under `key` (from `keyWords`), its first `outBytes`
 * (a multiple of 4, at most 32) into `out[oo..)`. A 32-byte keyed input is one compression (mac.ts:
 * a pairwise MAC over a vote leaf; decision 0055); no allocation.
 */
export function keyedHash32(key: Int32Array, msg: Uint8Array, mo: number, out: Uint8Array, oo: number, outBytes: number): void {
  const m = M;
  for (let i = 0; i < 8; i++) m[i] = w(msg, mo + 4 * i);
  for (let i = 8; i < 16; i++) m[i] = 0;
  const cv = CV;
  for (let i = 0; i < 8; i++) cv[i] = key[i]!;
  compress(32, NODE_FLAGS);
  for (let i = 0; i < outBytes >> 2; i++) put(out, oo + 4 * i, cv[i]!);
}

/** Message words and chaining value of `compress` (module scratch: nothing here yields). */
const M = new Int32Array(16);
const CV = new Int32Array(8);

/**
 * One BLAKE3 compression of the block in `M` (`blockLen` bytes of it, counter 0) under the chaining
 * value in `CV`, with `flags`; the new chaining value replaces `CV`. Unrolled: 7 rounds of the G
 * function with the standard message permutation.
 */
function compress(blockLen: number, flags: number): void {
  const m0 = M[0]!, m1 = M[1]!, m2 = M[2]!, m3 = M[3]!, m4 = M[4]!, m5 = M[5]!, m6 = M[6]!, m7 = M[7]!;
  const m8 = M[8]!, m9 = M[9]!, m10 = M[10]!, m11 = M[11]!, m12 = M[12]!, m13 = M[13]!, m14 = M[14]!, m15 = M[15]!;
  let v0 = CV[0]!, v1 = CV[1]!, v2 = CV[2]!, v3 = CV[3]!, v4 = CV[4]!, v5 = CV[5]!, v6 = CV[6]!, v7 = CV[7]!;
  let v8 = IV0, v9 = IV1, v10 = IV2, v11 = IV3, v12 = 0, v13 = 0, v14 = blockLen, v15 = flags;
  // Round 1.
  v0 = (v0 + v4 + m0) | 0; v12 ^= v0; v12 = (v12 >>> 16) | (v12 << 16); v8 = (v8 + v12) | 0; v4 ^= v8; v4 = (v4 >>> 12) | (v4 << 20);
  v0 = (v0 + v4 + m1) | 0; v12 ^= v0; v12 = (v12 >>> 8) | (v12 << 24); v8 = (v8 + v12) | 0; v4 ^= v8; v4 = (v4 >>> 7) | (v4 << 25);
  v1 = (v1 + v5 + m2) | 0; v13 ^= v1; v13 = (v13 >>> 16) | (v13 << 16); v9 = (v9 + v13) | 0; v5 ^= v9; v5 = (v5 >>> 12) | (v5 << 20);
  v1 = (v1 + v5 + m3) | 0; v13 ^= v1; v13 = (v13 >>> 8) | (v13 << 24); v9 = (v9 + v13) | 0; v5 ^= v9; v5 = (v5 >>> 7) | (v5 << 25);
  v2 = (v2 + v6 + m4) | 0; v14 ^= v2; v14 = (v14 >>> 16) | (v14 << 16); v10 = (v10 + v14) | 0; v6 ^= v10; v6 = (v6 >>> 12) | (v6 << 20);
  v2 = (v2 + v6 + m5) | 0; v14 ^= v2; v14 = (v14 >>> 8) | (v14 << 24); v10 = (v10 + v14) | 0; v6 ^= v10; v6 = (v6 >>> 7) | (v6 << 25);
  v3 = (v3 + v7 + m6) | 0; v15 ^= v3; v15 = (v15 >>> 16) | (v15 << 16); v11 = (v11 + v15) | 0; v7 ^= v11; v7 = (v7 >>> 12) | (v7 << 20);
  v3 = (v3 + v7 + m7) | 0; v15 ^= v3; v15 = (v15 >>> 8) | (v15 << 24); v11 = (v11 + v15) | 0; v7 ^= v11; v7 = (v7 >>> 7) | (v7 << 25);
  v0 = (v0 + v5 + m8) | 0; v15 ^= v0; v15 = (v15 >>> 16) | (v15 << 16); v10 = (v10 + v15) | 0; v5 ^= v10; v5 = (v5 >>> 12) | (v5 << 20);
  v0 = (v0 + v5 + m9) | 0; v15 ^= v0; v15 = (v15 >>> 8) | (v15 << 24); v10 = (v10 + v15) | 0; v5 ^= v10; v5 = (v5 >>> 7) | (v5 << 25);
  v1 = (v1 + v6 + m10) | 0; v12 ^= v1; v12 = (v12 >>> 16) | (v12 << 16); v11 = (v11 + v12) | 0; v6 ^= v11; v6 = (v6 >>> 12) | (v6 << 20);
  v1 = (v1 + v6 + m11) | 0; v12 ^= v1; v12 = (v12 >>> 8) | (v12 << 24); v11 = (v11 + v12) | 0; v6 ^= v11; v6 = (v6 >>> 7) | (v6 << 25);
  v2 = (v2 + v7 + m12) | 0; v13 ^= v2; v13 = (v13 >>> 16) | (v13 << 16); v8 = (v8 + v13) | 0; v7 ^= v8; v7 = (v7 >>> 12) | (v7 << 20);
  v2 = (v2 + v7 + m13) | 0; v13 ^= v2; v13 = (v13 >>> 8) | (v13 << 24); v8 = (v8 + v13) | 0; v7 ^= v8; v7 = (v7 >>> 7) | (v7 << 25);
  v3 = (v3 + v4 + m14) | 0; v14 ^= v3; v14 = (v14 >>> 16) | (v14 << 16); v9 = (v9 + v14) | 0; v4 ^= v9; v4 = (v4 >>> 12) | (v4 << 20);
  v3 = (v3 + v4 + m15) | 0; v14 ^= v3; v14 = (v14 >>> 8) | (v14 << 24); v9 = (v9 + v14) | 0; v4 ^= v9; v4 = (v4 >>> 7) | (v4 << 25);
  // Round 2.
  v0 = (v0 + v4 + m2) | 0; v12 ^= v0; v12 = (v12 >>> 16) | (v12 << 16); v8 = (v8 + v12) | 0; v4 ^= v8; v4 = (v4 >>> 12) | (v4 << 20);
  v0 = (v0 + v4 + m6) | 0; v12 ^= v0; v12 = (v12 >>> 8) | (v12 << 24); v8 = (v8 + v12) | 0; v4 ^= v8; v4 = (v4 >>> 7) | (v4 << 25);
  v1 = (v1 + v5 + m3) | 0; v13 ^= v1; v13 = (v13 >>> 16) | (v13 << 16); v9 = (v9 + v13) | 0; v5 ^= v9; v5 = (v5 >>> 12) | (v5 << 20);
  v1 = (v1 + v5 + m10) | 0; v13 ^= v1; v13 = (v13 >>> 8) | (v13 << 24); v9 = (v9 + v13) | 0; v5 ^= v9; v5 = (v5 >>> 7) | (v5 << 25);
  v2 = (v2 + v6 + m7) | 0; v14 ^= v2; v14 = (v14 >>> 16) | (v14 << 16); v10 = (v10 + v14) | 0; v6 ^= v10; v6 = (v6 >>> 12) | (v6 << 20);
  v2 = (v2 + v6 + m0) | 0; v14 ^= v2; v14 = (v14 >>> 8) | (v14 << 24); v10 = (v10 + v14) | 0; v6 ^= v10; v6 = (v6 >>> 7) | (v6 << 25);
  v3 = (v3 + v7 + m4) | 0; v15 ^= v3; v15 = (v15 >>> 16) | (v15 << 16); v11 = (v11 + v15) | 0; v7 ^= v11; v7 = (v7 >>> 12) | (v7 << 20);
  v3 = (v3 + v7 + m13) | 0; v15 ^= v3; v15 = (v15 >>> 8) | (v15 << 24); v11 = (v11 + v15) | 0; v7 ^= v11; v7 = (v7 >>> 7) | (v7 << 25);
  v0 = (v0 + v5 + m1) | 0; v15 ^= v0; v15 = (v15 >>> 16) | (v15 << 16); v10 = (v10 + v15) | 0; v5 ^= v10; v5 = (v5 >>> 12) | (v5 << 20);
  v0 = (v0 + v5 + m11) | 0; v15 ^= v0; v15 = (v15 >>> 8) | (v15 << 24); v10 = (v10 + v15) | 0; v5 ^= v10; v5 = (v5 >>> 7) | (v5 << 25);
  v1 = (v1 + v6 + m12) | 0; v12 ^= v1; v12 = (v12 >>> 16) | (v12 << 16); v11 = (v11 + v12) | 0; v6 ^= v11; v6 = (v6 >>> 12) | (v6 << 20);
  v1 = (v1 + v6 + m5) | 0; v12 ^= v1; v12 = (v12 >>> 8) | (v12 << 24); v11 = (v11 + v12) | 0; v6 ^= v11; v6 = (v6 >>> 7) | (v6 << 25);
  v2 = (v2 + v7 + m9) | 0; v13 ^= v2; v13 = (v13 >>> 16) | (v13 << 16); v8 = (v8 + v13) | 0; v7 ^= v8; v7 = (v7 >>> 12) | (v7 << 20);
  v2 = (v2 + v7 + m14) | 0; v13 ^= v2; v13 = (v13 >>> 8) | (v13 << 24); v8 = (v8 + v13) | 0; v7 ^= v8; v7 = (v7 >>> 7) | (v7 << 25);
  v3 = (v3 + v4 + m15) | 0; v14 ^= v3; v14 = (v14 >>> 16) | (v14 << 16); v9 = (v9 + v14) | 0; v4 ^= v9; v4 = (v4 >>> 12) | (v4 << 20);
  v3 = (v3 + v4 + m8) | 0; v14 ^= v3; v14 = (v14 >>> 8) | (v14 << 24); v9 = (v9 + v14) | 0; v4 ^= v9; v4 = (v4 >>> 7) | (v4 << 25);
  // Round 3.
  v0 = (v0 + v4 + m3) | 0; v12 ^= v0; v12 = (v12 >>> 16) | (v12 << 16); v8 = (v8 + v12) | 0; v4 ^= v8; v4 = (v4 >>> 12) | (v4 << 20);
  v0 = (v0 + v4 + m4) | 0; v12 ^= v0; v12 = (v12 >>> 8) | (v12 << 24); v8 = (v8 + v12) | 0; v4 ^= v8; v4 = (v4 >>> 7) | (v4 << 25);
  v1 = (v1 + v5 + m10) | 0; v13 ^= v1; v13 = (v13 >>> 16) | (v13 << 16); v9 = (v9 + v13) | 0; v5 ^= v9; v5 = (v5 >>> 12) | (v5 << 20);
  v1 = (v1 + v5 + m12) | 0; v13 ^= v1; v13 = (v13 >>> 8) | (v13 << 24); v9 = (v9 + v13) | 0; v5 ^= v9; v5 = (v5 >>> 7) | (v5 << 25);
  v2 = (v2 + v6 + m13) | 0; v14 ^= v2; v14 = (v14 >>> 16) | (v14 << 16); v10 = (v10 + v14) | 0; v6 ^= v10; v6 = (v6 >>> 12) | (v6 << 20);
  v2 = (v2 + v6 + m2) | 0; v14 ^= v2; v14 = (v14 >>> 8) | (v14 << 24); v10 = (v10 + v14) | 0; v6 ^= v10; v6 = (v6 >>> 7) | (v6 << 25);
  v3 = (v3 + v7 + m7) | 0; v15 ^= v3; v15 = (v15 >>> 16) | (v15 << 16); v11 = (v11 + v15) | 0; v7 ^= v11; v7 = (v7 >>> 12) | (v7 << 20);
  v3 = (v3 + v7 + m14) | 0; v15 ^= v3; v15 = (v15 >>> 8) | (v15 << 24); v11 = (v11 + v15) | 0; v7 ^= v11; v7 = (v7 >>> 7) | (v7 << 25);
  v0 = (v0 + v5 + m6) | 0; v15 ^= v0; v15 = (v15 >>> 16) | (v15 << 16); v10 = (v10 + v15) | 0; v5 ^= v10; v5 = (v5 >>> 12) | (v5 << 20);
  v0 = (v0 + v5 + m5) | 0; v15 ^= v0; v15 = (v15 >>> 8) | (v15 << 24); v10 = (v10 + v15) | 0; v5 ^= v10; v5 = (v5 >>> 7) | (v5 << 25);
  v1 = (v1 + v6 + m9) | 0; v12 ^= v1; v12 = (v12 >>> 16) | (v12 << 16); v11 = (v11 + v12) | 0; v6 ^= v11; v6 = (v6 >>> 12) | (v6 << 20);
  v1 = (v1 + v6 + m0) | 0; v12 ^= v1; v12 = (v12 >>> 8) | (v12 << 24); v11 = (v11 + v12) | 0; v6 ^= v11; v6 = (v6 >>> 7) | (v6 << 25);
  v2 = (v2 + v7 + m11) | 0; v13 ^= v2; v13 = (v13 >>> 16) | (v13 << 16); v8 = (v8 + v13) | 0; v7 ^= v8; v7 = (v7 >>> 12) | (v7 << 20);
  v2 = (v2 + v7 + m15) | 0; v13 ^= v2; v13 = (v13 >>> 8) | (v13 << 24); v8 = (v8 + v13) | 0; v7 ^= v8; v7 = (v7 >>> 7) | (v7 << 25);
  v3 = (v3 + v4 + m8) | 0; v14 ^= v3; v14 = (v14 >>> 16) | (v14 << 16); v9 = (v9 + v14) | 0; v4 ^= v9; v4 = (v4 >>> 12) | (v4 << 20);
  v3 = (v3 + v4 + m1) | 0; v14 ^= v3; v14 = (v14 >>> 8) | (v14 << 24); v9 = (v9 + v14) | 0; v4 ^= v9; v4 = (v4 >>> 7) | (v4 << 25);
  // Round 4.
  v0 = (v0 + v4 + m10) | 0; v12 ^= v0; v12 = (v12 >>> 16) | (v12 << 16); v8 = (v8 + v12) | 0; v4 ^= v8; v4 = (v4 >>> 12) | (v4 << 20);
  v0 = (v0 + v4 + m7) | 0; v12 ^= v0; v12 = (v12 >>> 8) | (v12 << 24); v8 = (v8 + v12) | 0; v4 ^= v8; v4 = (v4 >>> 7) | (v4 << 25);
  v1 = (v1 + v5 + m12) | 0; v13 ^= v1; v13 = (v13 >>> 16) | (v13 << 16); v9 = (v9 + v13) | 0; v5 ^= v9; v5 = (v5 >>> 12) | (v5 << 20);
  v1 = (v1 + v5 + m9) | 0; v13 ^= v1; v13 = (v13 >>> 8) | (v13 << 24); v9 = (v9 + v13) | 0; v5 ^= v9; v5 = (v5 >>> 7) | (v5 << 25);
  v2 = (v2 + v6 + m14) | 0; v14 ^= v2; v14 = (v14 >>> 16) | (v14 << 16); v10 = (v10 + v14) | 0; v6 ^= v10; v6 = (v6 >>> 12) | (v6 << 20);
  v2 = (v2 + v6 + m3) | 0; v14 ^= v2; v14 = (v14 >>> 8) | (v14 << 24); v10 = (v10 + v14) | 0; v6 ^= v10; v6 = (v6 >>> 7) | (v6 << 25);
  v3 = (v3 + v7 + m13) | 0; v15 ^= v3; v15 = (v15 >>> 16) | (v15 << 16); v11 = (v11 + v15) | 0; v7 ^= v11; v7 = (v7 >>> 12) | (v7 << 20);
  v3 = (v3 + v7 + m15) | 0; v15 ^= v3; v15 = (v15 >>> 8) | (v15 << 24); v11 = (v11 + v15) | 0; v7 ^= v11; v7 = (v7 >>> 7) | (v7 << 25);
  v0 = (v0 + v5 + m4) | 0; v15 ^= v0; v15 = (v15 >>> 16) | (v15 << 16); v10 = (v10 + v15) | 0; v5 ^= v10; v5 = (v5 >>> 12) | (v5 << 20);
  v0 = (v0 + v5 + m0) | 0; v15 ^= v0; v15 = (v15 >>> 8) | (v15 << 24); v10 = (v10 + v15) | 0; v5 ^= v10; v5 = (v5 >>> 7) | (v5 << 25);
  v1 = (v1 + v6 + m11) | 0; v12 ^= v1; v12 = (v12 >>> 16) | (v12 << 16); v11 = (v11 + v12) | 0; v6 ^= v11; v6 = (v6 >>> 12) | (v6 << 20);
  v1 = (v1 + v6 + m2) | 0; v12 ^= v1; v12 = (v12 >>> 8) | (v12 << 24); v11 = (v11 + v12) | 0; v6 ^= v11; v6 = (v6 >>> 7) | (v6 << 25);
  v2 = (v2 + v7 + m5) | 0; v13 ^= v2; v13 = (v13 >>> 16) | (v13 << 16); v8 = (v8 + v13) | 0; v7 ^= v8; v7 = (v7 >>> 12) | (v7 << 20);
  v2 = (v2 + v7 + m8) | 0; v13 ^= v2; v13 = (v13 >>> 8) | (v13 << 24); v8 = (v8 + v13) | 0; v7 ^= v8; v7 = (v7 >>> 7) | (v7 << 25);
  v3 = (v3 + v4 + m1) | 0; v14 ^= v3; v14 = (v14 >>> 16) | (v14 << 16); v9 = (v9 + v14) | 0; v4 ^= v9; v4 = (v4 >>> 12) | (v4 << 20);
  v3 = (v3 + v4 + m6) | 0; v14 ^= v3; v14 = (v14 >>> 8) | (v14 << 24); v9 = (v9 + v14) | 0; v4 ^= v9; v4 = (v4 >>> 7) | (v4 << 25);
  // Round 5.
  v0 = (v0 + v4 + m12) | 0; v12 ^= v0; v12 = (v12 >>> 16) | (v12 << 16); v8 = (v8 + v12) | 0; v4 ^= v8; v4 = (v4 >>> 12) | (v4 << 20);
  v0 = (v0 + v4 + m13) | 0; v12 ^= v0; v12 = (v12 >>> 8) | (v12 << 24); v8 = (v8 + v12) | 0; v4 ^= v8; v4 = (v4 >>> 7) | (v4 << 25);
  v1 = (v1 + v5 + m9) | 0; v13 ^= v1; v13 = (v13 >>> 16) | (v13 << 16); v9 = (v9 + v13) | 0; v5 ^= v9; v5 = (v5 >>> 12) | (v5 << 20);
  v1 = (v1 + v5 + m11) | 0; v13 ^= v1; v13 = (v13 >>> 8) | (v13 << 24); v9 = (v9 + v13) | 0; v5 ^= v9; v5 = (v5 >>> 7) | (v5 << 25);
  v2 = (v2 + v6 + m15) | 0; v14 ^= v2; v14 = (v14 >>> 16) | (v14 << 16); v10 = (v10 + v14) | 0; v6 ^= v10; v6 = (v6 >>> 12) | (v6 << 20);
  v2 = (v2 + v6 + m10) | 0; v14 ^= v2; v14 = (v14 >>> 8) | (v14 << 24); v10 = (v10 + v14) | 0; v6 ^= v10; v6 = (v6 >>> 7) | (v6 << 25);
  v3 = (v3 + v7 + m14) | 0; v15 ^= v3; v15 = (v15 >>> 16) | (v15 << 16); v11 = (v11 + v15) | 0; v7 ^= v11; v7 = (v7 >>> 12) | (v7 << 20);
  v3 = (v3 + v7 + m8) | 0; v15 ^= v3; v15 = (v15 >>> 8) | (v15 << 24); v11 = (v11 + v15) | 0; v7 ^= v11; v7 = (v7 >>> 7) | (v7 << 25);
  v0 = (v0 + v5 + m7) | 0; v15 ^= v0; v15 = (v15 >>> 16) | (v15 << 16); v10 = (v10 + v15) | 0; v5 ^= v10; v5 = (v5 >>> 12) | (v5 << 20);
  v0 = (v0 + v5 + m2) | 0; v15 ^= v0; v15 = (v15 >>> 8) | (v15 << 24); v10 = (v10 + v15) | 0; v5 ^= v10; v5 = (v5 >>> 7) | (v5 << 25);
  v1 = (v1 + v6 + m5) | 0; v12 ^= v1; v12 = (v12 >>> 16) | (v12 << 16); v11 = (v11 + v12) | 0; v6 ^= v11; v6 = (v6 >>> 12) | (v6 << 20);
  v1 = (v1 + v6 + m3) | 0; v12 ^= v1; v12 = (v12 >>> 8) | (v12 << 24); v11 = (v11 + v12) | 0; v6 ^= v11; v6 = (v6 >>> 7) | (v6 << 25);
  v2 = (v2 + v7 + m0) | 0; v13 ^= v2; v13 = (v13 >>> 16) | (v13 << 16); v8 = (v8 + v13) | 0; v7 ^= v8; v7 = (v7 >>> 12) | (v7 << 20);
  v2 = (v2 + v7 + m1) | 0; v13 ^= v2; v13 = (v13 >>> 8) | (v13 << 24); v8 = (v8 + v13) | 0; v7 ^= v8; v7 = (v7 >>> 7) | (v7 << 25);
  v3 = (v3 + v4 + m6) | 0; v14 ^= v3; v14 = (v14 >>> 16) | (v14 << 16); v9 = (v9 + v14) | 0; v4 ^= v9; v4 = (v4 >>> 12) | (v4 << 20);
  v3 = (v3 + v4 + m4) | 0; v14 ^= v3; v14 = (v14 >>> 8) | (v14 << 24); v9 = (v9 + v14) | 0; v4 ^= v9; v4 = (v4 >>> 7) | (v4 << 25);
  // Round 6.
  v0 = (v0 + v4 + m9) | 0; v12 ^= v0; v12 = (v12 >>> 16) | (v12 << 16); v8 = (v8 + v12) | 0; v4 ^= v8; v4 = (v4 >>> 12) | (v4 << 20);
  v0 = (v0 + v4 + m14) | 0; v12 ^= v0; v12 = (v12 >>> 8) | (v12 << 24); v8 = (v8 + v12) | 0; v4 ^= v8; v4 = (v4 >>> 7) | (v4 << 25);
  v1 = (v1 + v5 + m11) | 0; v13 ^= v1; v13 = (v13 >>> 16) | (v13 << 16); v9 = (v9 + v13) | 0; v5 ^= v9; v5 = (v5 >>> 12) | (v5 << 20);
  v1 = (v1 + v5 + m5) | 0; v13 ^= v1; v13 = (v13 >>> 8) | (v13 << 24); v9 = (v9 + v13) | 0; v5 ^= v9; v5 = (v5 >>> 7) | (v5 << 25);
  v2 = (v2 + v6 + m8) | 0; v14 ^= v2; v14 = (v14 >>> 16) | (v14 << 16); v10 = (v10 + v14) | 0; v6 ^= v10; v6 = (v6 >>> 12) | (v6 << 20);
  v2 = (v2 + v6 + m12) | 0; v14 ^= v2; v14 = (v14 >>> 8) | (v14 << 24); v10 = (v10 + v14) | 0; v6 ^= v10; v6 = (v6 >>> 7) | (v6 << 25);
  v3 = (v3 + v7 + m15) | 0; v15 ^= v3; v15 = (v15 >>> 16) | (v15 << 16); v11 = (v11 + v15) | 0; v7 ^= v11; v7 = (v7 >>> 12) | (v7 << 20);
  v3 = (v3 + v7 + m1) | 0; v15 ^= v3; v15 = (v15 >>> 8) | (v15 << 24); v11 = (v11 + v15) | 0; v7 ^= v11; v7 = (v7 >>> 7) | (v7 << 25);
  v0 = (v0 + v5 + m13) | 0; v15 ^= v0; v15 = (v15 >>> 16) | (v15 << 16); v10 = (v10 + v15) | 0; v5 ^= v10; v5 = (v5 >>> 12) | (v5 << 20);
  v0 = (v0 + v5 + m3) | 0; v15 ^= v0; v15 = (v15 >>> 8) | (v15 << 24); v10 = (v10 + v15) | 0; v5 ^= v10; v5 = (v5 >>> 7) | (v5 << 25);
  v1 = (v1 + v6 + m0) | 0; v12 ^= v1; v12 = (v12 >>> 16) | (v12 << 16); v11 = (v11 + v12) | 0; v6 ^= v11; v6 = (v6 >>> 12) | (v6 << 20);
  v1 = (v1 + v6 + m10) | 0; v12 ^= v1; v12 = (v12 >>> 8) | (v12 << 24); v11 = (v11 + v12) | 0; v6 ^= v11; v6 = (v6 >>> 7) | (v6 << 25);
  v2 = (v2 + v7 + m2) | 0; v13 ^= v2; v13 = (v13 >>> 16) | (v13 << 16); v8 = (v8 + v13) | 0; v7 ^= v8; v7 = (v7 >>> 12) | (v7 << 20);
  v2 = (v2 + v7 + m6) | 0; v13 ^= v2; v13 = (v13 >>> 8) | (v13 << 24); v8 = (v8 + v13) | 0; v7 ^= v8; v7 = (v7 >>> 7) | (v7 << 25);
  v3 = (v3 + v4 + m4) | 0; v14 ^= v3; v14 = (v14 >>> 16) | (v14 << 16); v9 = (v9 + v14) | 0; v4 ^= v9; v4 = (v4 >>> 12) | (v4 << 20);
  v3 = (v3 + v4 + m7) | 0; v14 ^= v3; v14 = (v14 >>> 8) | (v14 << 24); v9 = (v9 + v14) | 0; v4 ^= v9; v4 = (v4 >>> 7) | (v4 << 25);
  // Round 7.
  v0 = (v0 + v4 + m11) | 0; v12 ^= v0; v12 = (v12 >>> 16) | (v12 << 16); v8 = (v8 + v12) | 0; v4 ^= v8; v4 = (v4 >>> 12) | (v4 << 20);
  v0 = (v0 + v4 + m15) | 0; v12 ^= v0; v12 = (v12 >>> 8) | (v12 << 24); v8 = (v8 + v12) | 0; v4 ^= v8; v4 = (v4 >>> 7) | (v4 << 25);
  v1 = (v1 + v5 + m5) | 0; v13 ^= v1; v13 = (v13 >>> 16) | (v13 << 16); v9 = (v9 + v13) | 0; v5 ^= v9; v5 = (v5 >>> 12) | (v5 << 20);
  v1 = (v1 + v5 + m0) | 0; v13 ^= v1; v13 = (v13 >>> 8) | (v13 << 24); v9 = (v9 + v13) | 0; v5 ^= v9; v5 = (v5 >>> 7) | (v5 << 25);
  v2 = (v2 + v6 + m1) | 0; v14 ^= v2; v14 = (v14 >>> 16) | (v14 << 16); v10 = (v10 + v14) | 0; v6 ^= v10; v6 = (v6 >>> 12) | (v6 << 20);
  v2 = (v2 + v6 + m9) | 0; v14 ^= v2; v14 = (v14 >>> 8) | (v14 << 24); v10 = (v10 + v14) | 0; v6 ^= v10; v6 = (v6 >>> 7) | (v6 << 25);
  v3 = (v3 + v7 + m8) | 0; v15 ^= v3; v15 = (v15 >>> 16) | (v15 << 16); v11 = (v11 + v15) | 0; v7 ^= v11; v7 = (v7 >>> 12) | (v7 << 20);
  v3 = (v3 + v7 + m6) | 0; v15 ^= v3; v15 = (v15 >>> 8) | (v15 << 24); v11 = (v11 + v15) | 0; v7 ^= v11; v7 = (v7 >>> 7) | (v7 << 25);
  v0 = (v0 + v5 + m14) | 0; v15 ^= v0; v15 = (v15 >>> 16) | (v15 << 16); v10 = (v10 + v15) | 0; v5 ^= v10; v5 = (v5 >>> 12) | (v5 << 20);
  v0 = (v0 + v5 + m10) | 0; v15 ^= v0; v15 = (v15 >>> 8) | (v15 << 24); v10 = (v10 + v15) | 0; v5 ^= v10; v5 = (v5 >>> 7) | (v5 << 25);
  v1 = (v1 + v6 + m2) | 0; v12 ^= v1; v12 = (v12 >>> 16) | (v12 << 16); v11 = (v11 + v12) | 0; v6 ^= v11; v6 = (v6 >>> 12) | (v6 << 20);
  v1 = (v1 + v6 + m12) | 0; v12 ^= v1; v12 = (v12 >>> 8) | (v12 << 24); v11 = (v11 + v12) | 0; v6 ^= v11; v6 = (v6 >>> 7) | (v6 << 25);
  v2 = (v2 + v7 + m3) | 0; v13 ^= v2; v13 = (v13 >>> 16) | (v13 << 16); v8 = (v8 + v13) | 0; v7 ^= v8; v7 = (v7 >>> 12) | (v7 << 20);
  v2 = (v2 + v7 + m4) | 0; v13 ^= v2; v13 = (v13 >>> 8) | (v13 << 24); v8 = (v8 + v13) | 0; v7 ^= v8; v7 = (v7 >>> 7) | (v7 << 25);
  v3 = (v3 + v4 + m7) | 0; v14 ^= v3; v14 = (v14 >>> 16) | (v14 << 16); v9 = (v9 + v14) | 0; v4 ^= v9; v4 = (v4 >>> 12) | (v4 << 20);
  v3 = (v3 + v4 + m13) | 0; v14 ^= v3; v14 = (v14 >>> 8) | (v14 << 24); v9 = (v9 + v14) | 0; v4 ^= v9; v4 = (v4 >>> 7) | (v4 << 25);

  CV[0] = v0 ^ v8; CV[1] = v1 ^ v9; CV[2] = v2 ^ v10; CV[3] = v3 ^ v11;
  CV[4] = v4 ^ v12; CV[5] = v5 ^ v13; CV[6] = v6 ^ v14; CV[7] = v7 ^ v15;
}

const IV4 = 0x510e527f, IV5 = 0x9b05688c | 0, IV6 = 0x1f83d9ab, IV7 = 0x5be0cd19;
const CHUNK_BYTES = 1024;

/**
 * Plain BLAKE3-256 of `data` (at most one chunk, 1 KiB) into `out[offset..offset+32)`, with no
 * allocation: the one-chunk case of the BLAKE3 tree is a chain of compressions. Transactions of the
 * commit path (~300 B), statements and MAC inputs are all this short.
 */
function hashChunk(data: Uint8Array, out: Uint8Array, offset: number): void {
  const len = data.length;
  const cv = CV;
  cv[0] = IV0; cv[1] = IV1; cv[2] = IV2; cv[3] = IV3; cv[4] = IV4; cv[5] = IV5; cv[6] = IV6; cv[7] = IV7;
  const m = M;
  let pos = 0;
  let flags = CHUNK_START;
  for (;;) {
    const blockLen = len - pos > 64 ? 64 : len - pos;
    if (blockLen === 64) {
      for (let i = 0; i < 16; i++) m[i] = w(data, pos + 4 * i);
    } else {
      m.fill(0);
      for (let i = 0; i < blockLen; i++) m[i >> 2] = m[i >> 2]! | (data[pos + i]! << ((i & 3) * 8));
    }
    pos += blockLen;
    const last = pos >= len;
    compress(blockLen, last ? flags | CHUNK_END | ROOT : flags);
    if (last) break;
    flags = 0;
  }
  for (let i = 0; i < 8; i++) put(out, offset + 4 * i, cv[i]!);
}
