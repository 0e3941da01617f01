/**
 * Deterministic damage to a message's encoding for codec fuzz tests (codec-query.test.ts,
 * codec-fast-query.test.ts): mutation `i` cuts the bytes short, changes one byte, flips one bit, or
 * appends a field (an unknown one, or a second copy of a known one), in turn.
 */
export function mutationOf(bytes: Uint8Array, i: number): Uint8Array {
  const at = (i * 7919) % bytes.length;
  switch (i % 4) {
    case 0:
      return bytes.subarray(0, at);
    case 1: {
      const m = bytes.slice();
      m[at] = (m[at]! + 1 + (i % 255)) & 0xff;
      return m;
    }
    case 2: {
      const m = bytes.slice();
      m[at] = m[at]! ^ (1 << (i % 8));
      return m;
    }
    default:
      return new Uint8Array([...bytes, 0x08 + 8 * (i % 12), i % 128]);
  }
}
