/**
 * The simulator's only source of randomness (DESIGN §2: everything from the seed). sfc32 (Chris
 * Doty-Humphrey's Small Fast Counting generator, 128-bit state, passes PractRand), seeded through
 * splitmix32 so nearby seeds give unrelated streams. `fork` derives an independent child stream, so
 * adding draws in one component (say, the network) does not shift the draws of another (a client's
 * workload): a seed keeps meaning the same run as the code around it evolves.
 */
function splitmix32(state: { s: number }): number {
  state.s = (state.s + 0x9e3779b9) | 0;
  let z = state.s;
  z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
  z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
  return (z ^ (z >>> 16)) >>> 0;
}

export class Prng {
  #a: number;
  #b: number;
  #c: number;
  #d: number;

  constructor(seed: number) {
    const st = { s: (seed | 0) ^ (Math.floor(seed / 0x1_0000_0000) | 0) };
    this.#a = splitmix32(st);
    this.#b = splitmix32(st);
    this.#c = splitmix32(st);
    this.#d = splitmix32(st) | 1;
    for (let i = 0; i < 12; i++) this.nextU32();
  }

  /** Uniform 32-bit unsigned integer. */
  nextU32(): number {
    const t = (((this.#a + this.#b) | 0) + this.#d) | 0;
    this.#d = (this.#d + 1) | 0;
    this.#a = this.#b ^ (this.#b >>> 9);
    this.#b = (this.#c + (this.#c << 3)) | 0;
    this.#c = (this.#c << 21) | (this.#c >>> 11);
    this.#c = (this.#c + t) | 0;
    return t >>> 0;
  }

  /** Uniform in [0, 1). */
  float(): number {
    return this.nextU32() / 0x1_0000_0000;
  }

  /** Uniform integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.float() * n);
  }

  /** Uniform integer in [lo, hi]. */
  range(lo: number, hi: number): number {
    return lo + this.int(hi - lo + 1);
  }

  chance(p: number): boolean {
    return p > 0 && this.float() < p;
  }

  /** Exponentially distributed with the given mean. */
  exponential(mean: number): number {
    return -Math.log(1 - this.float()) * mean;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new RangeError('pick from an empty list');
    return items[this.int(items.length)]!;
  }

  bytes(n: number): Uint8Array {
    const out = new Uint8Array(n);
    for (let i = 0; i < n; i++) out[i] = this.nextU32() & 0xff;
    return out;
  }

  /** An independent stream derived from this one. */
  fork(): Prng {
    return new Prng(this.nextU32() ^ Math.imul(this.nextU32(), 0x2545f491));
  }
}
