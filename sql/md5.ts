// MD5 (RFC 1321) as a lowercase hex digest: SQL's md5(text) and md5(bytea), and sqllogictest's
// `N values hashing to <md5>` (sql/slt). This core folder may not import node:crypto, and the inputs
// are small, so a plain implementation is enough. Not for anything security-related.

const shifts = [
  7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22, 5, 9, 14, 20, 5, 9, 14, 20, 5, 9, 14, 20, 5, 9, 14, 20, 4,
  11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23, 6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21,
];

const constants = Array.from({ length: 64 }, (_, i) => Math.floor(Math.abs(Math.sin(i + 1)) * 2 ** 32) >>> 0);

/** The digest of a string's UTF-8 bytes. */
export function md5(text: string): string {
  return md5Bytes(new TextEncoder().encode(text));
}

/**
 * The Merkle-Damgard padding MD5 and SHA-1 share: the input, a 1 bit, zeros, then the bit length in 64
 * bits (little-endian for MD5, big-endian for SHA-1), to a multiple of 64 bytes.
 */
export function padded(input: Uint8Array, littleEndian: boolean): { view: DataView; length: number } {
  const length = (((input.length + 8) >>> 6) + 1) << 6;
  const bytes = new Uint8Array(length);
  bytes.set(input);
  bytes[input.length] = 0x80;
  const view = new DataView(bytes.buffer);
  const bits = input.length * 8;
  const [high, low] = [Math.floor(bits / 2 ** 32), bits >>> 0];
  view.setUint32(length - 8, littleEndian ? low : high, littleEndian);
  view.setUint32(length - 4, littleEndian ? high : low, littleEndian);
  return { view, length };
}

export function md5Bytes(input: Uint8Array): string {
  const { view, length: paddedLength } = padded(input, true);

  let a0 = 0x67452301;
  let b0 = 0xefcdab89;
  let c0 = 0x98badcfe;
  let d0 = 0x10325476;
  const words = new Uint32Array(16);
  for (let offset = 0; offset < paddedLength; offset += 64) {
    for (let j = 0; j < 16; j += 1) words[j] = view.getUint32(offset + j * 4, true);
    let a = a0;
    let b = b0;
    let c = c0;
    let d = d0;
    for (let i = 0; i < 64; i += 1) {
      let f: number;
      let g: number;
      if (i < 16) {
        f = (b & c) | (~b & d);
        g = i;
      } else if (i < 32) {
        f = (d & b) | (~d & c);
        g = (5 * i + 1) % 16;
      } else if (i < 48) {
        f = b ^ c ^ d;
        g = (3 * i + 5) % 16;
      } else {
        f = c ^ (b | ~d);
        g = (7 * i) % 16;
      }
      const sum = (a + f + (constants[i] ?? 0) + (words[g] ?? 0)) >>> 0;
      const shift = shifts[i] ?? 0;
      a = d;
      d = c;
      c = b;
      b = (b + ((sum << shift) | (sum >>> (32 - shift)))) >>> 0;
    }
    a0 = (a0 + a) >>> 0;
    b0 = (b0 + b) >>> 0;
    c0 = (c0 + c) >>> 0;
    d0 = (d0 + d) >>> 0;
  }
  const out = new DataView(new ArrayBuffer(16));
  [a0, b0, c0, d0].forEach((word, i) => out.setUint32(i * 4, word, true));
  return Array.from(new Uint8Array(out.buffer), (byte) => byte.toString(16).padStart(2, '0')).join('');
}
