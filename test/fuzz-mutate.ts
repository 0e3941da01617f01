/**
 * Random damage to valid bytes for the seeded fuzz tests (test/gateway/fuzz-tools.ts: PostgreSQL
 * conversations; test/integration/replica-fuzz.test.ts: replica messages): one to four mutations, each
 * a bit flipped, a byte overwritten (at random, or with a value where varints and lengths turn: 0, 1,
 * 0x7f, 0x80, 0xff), an int32 field overwritten (lengths: 0, -1, 4, 2^31 - 1, ...), the bytes cut short,
 * a slice deleted, repeated or preceded by random bytes. The result is never empty (an empty replica
 * message closes its stream, bad-input.test.ts, and says nothing about decoding).
 */

export interface MutateOptions {
  /** Mutations land at or after this offset (a prefix to spare, e.g. a startup packet); default 0. */
  readonly from?: number;
  /** Share of inputs that get exactly one byte changed in place, which most often still decodes; default 0. */
  readonly light?: number;
}

const EDGE_BYTES = [0, 1, 0x7f, 0x80, 0xff];
const EDGE_INT32S = [0, -1, 1, 3, 4, 5, 8, 0x7fffffff, -0x80000000, 1 << 20, 65536];

/** `input` with one to four mutations drawn from `rand` (uniform in [0, 1)); `input` is not changed. */
export function mutate(input: Uint8Array, rand: () => number, options: MutateOptions = {}): Buffer {
  const int = (n: number): number => Math.floor(rand() * n);
  const from = options.from ?? 0;
  let b = Buffer.from(input);
  const light = rand() < (options.light ?? 0);
  const count = light ? 1 : 1 + int(4);
  for (let m = 0; m < count && b.length > from; m++) {
    const at = from + int(b.length - from);
    switch (light ? int(2) : int(7)) {
      case 0:
        b[at] = b[at]! ^ (1 << int(8));
        break;
      case 1:
        b[at] = rand() < 0.5 ? int(256) : EDGE_BYTES[int(EDGE_BYTES.length)]!;
        break;
      case 2:
        if (at + 4 <= b.length) b.writeInt32BE(EDGE_INT32S[int(EDGE_INT32S.length)]!, at);
        break;
      case 3:
        b = b.subarray(0, at);
        break;
      case 4:
        b = Buffer.concat([b.subarray(0, at), b.subarray(Math.min(b.length, at + 1 + int(16)))]);
        break;
      case 5: {
        const end = Math.min(b.length, at + 1 + int(64));
        b = Buffer.concat([b.subarray(0, end), b.subarray(at, end), b.subarray(end)]);
        break;
      }
      default: {
        const noise = Buffer.alloc(1 + int(12));
        for (let i = 0; i < noise.length; i++) noise[i] = int(256);
        b = Buffer.concat([b.subarray(0, at), noise, b.subarray(at)]);
      }
    }
  }
  return b.length === 0 ? Buffer.from([0xff]) : b;
}
