/**
 * Small byte arrays carved from Buffer's shared 8 KiB pool instead of an ArrayBuffer each. A fresh
 * `new Uint8Array(n)` is a malloc, an ArrayBuffer with an extension the scavenger sweeps, and a free:
 * about 1.2 µs against 0.35 µs here (decision 0018), and the commit path made a dozen per transaction
 * per process (digests, vote leaves, MAC vectors). The result is a plain Uint8Array (like every other
 * digest), uninitialised: the caller writes all of it.
 *
 * Only for bytes that die young or live as long as other pooled bytes of the same moment (a received
 * transaction's digest lives with its received bytes): a view pins its whole slab, so a long-lived
 * array on its own (a cache entry) must not come from here.
 */
export function pooledBytes(n: number): Uint8Array {
  const b = Buffer.allocUnsafe(n);
  return new Uint8Array(b.buffer, b.byteOffset, n);
}

/** Slab size of `slabCopy`; a message above a quarter of it gets an ArrayBuffer of its own. */
const SLAB_BYTES = 64 << 10;
let slab: Buffer | null = null;
let slabUsed = 0;

/**
 * A private copy of `bytes` carved from a 64 KiB slab shared with the copies made just before and
 * after it (decision 0045). Every ArrayBuffer costs about 5 µs in Node 20 (allocation, the backing
 * store's bookkeeping and its sweep), whatever its size: Buffer's 8 KiB pool holds three of a
 * replica's 2 KiB writebacks, so the pool paid 1.6 µs per writeback copy against 0.26 µs from 64 KiB
 * slabs (micro-benchmark). The price is coarser pinning: a slab lives while any copy carved from it
 * does, so only for messages whose parts live about as long as their neighbours' (received messages).
 */
export function slabCopy(bytes: Uint8Array): Buffer {
  const n = bytes.length;
  if (n > SLAB_BYTES >>> 2) return Buffer.from(bytes);
  if (slab === null || slabUsed + n > SLAB_BYTES) {
    slab = Buffer.allocUnsafeSlow(SLAB_BYTES);
    slabUsed = 0;
  }
  const out = slab.subarray(slabUsed, slabUsed + n);
  out.set(bytes);
  // 8-byte aligned, as Buffer's pool keeps its slices (typed-array views of the copy stay legal).
  slabUsed = (slabUsed + n + 7) & ~7;
  return out;
}
