/**
 * Key generators for the benchmarks: a Zipfian rank sampler and YCSB's scrambled Zipfian.
 *
 * `Zipfian(n, theta)` draws ranks 1..n with P(k) proportional to k^-theta, exactly, for any theta > 0
 * (theta = 1.1 in the paper's skewed runs, where YCSB's approximate Gray et al. method is meant for
 * theta < 1): rejection-inversion sampling (Hoermann and Derflinger 1996, as in Apache Commons RNG),
 * O(1) per draw with no table.
 *
 * `ScrambledZipfian(n, theta)` is YCSB's scrambled Zipfian: the item is FNV-1a-64 of the rank (0-based,
 * its 8 bytes little-endian), made non-negative as a signed 64-bit value and taken modulo n, so the hot
 * items are spread over the key space instead of clustering at its start (YCSB
 * `ScrambledZipfianGenerator`, `Utils.fnvhash64`; YCSB draws the rank over 10^10 items, which flattens
 * the skew; we draw it over the n items). Collisions of the hash modulo n merge a few ranks, as in YCSB.
 *
 * Randomness is injected (`() => number` in [0, 1)): `Math.random` in the benchmarks, `seededRandom`
 * in tests.
 */

export type Random = () => number;

/** A small seeded generator (mulberry32) for reproducible draws. */
export function seededRandom(seed: number): Random {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** log1p(x)/x, stable near 0. */
function helper1(x: number): number {
  return Math.abs(x) > 1e-8 ? Math.log1p(x) / x : 1 - x * (0.5 - x * (1 / 3 - 0.25 * x));
}

/** expm1(x)/x, stable near 0. */
function helper2(x: number): number {
  return Math.abs(x) > 1e-8 ? Math.expm1(x) / x : 1 + x * 0.5 * (1 + (x / 3) * (1 + 0.25 * x));
}

/** Ranks 1..n with P(k) proportional to k^-theta. */
export class Zipfian {
  readonly #hIntegralX1: number;
  readonly #hIntegralN: number;
  readonly #s: number;

  constructor(
    readonly n: number,
    readonly theta: number,
    readonly random: Random = Math.random,
  ) {
    if (!Number.isInteger(n) || n < 1) throw new RangeError(`a Zipfian needs at least one item, got ${n}`);
    if (!(theta > 0)) throw new RangeError(`the Zipfian exponent must be positive, got ${theta}`);
    this.#hIntegralX1 = this.#hIntegral(1.5) - 1;
    this.#hIntegralN = this.#hIntegral(n + 0.5);
    this.#s = 2 - this.#hIntegralInverse(this.#hIntegral(2.5) - this.#h(2));
  }

  /** A rank in [1, n]. */
  next(): number {
    for (;;) {
      const u = this.#hIntegralN + this.random() * (this.#hIntegralX1 - this.#hIntegralN);
      const x = this.#hIntegralInverse(u);
      let k = Math.floor(x + 0.5);
      if (k < 1) k = 1;
      else if (k > this.n) k = this.n;
      if (k - x <= this.#s || u >= this.#hIntegral(k + 0.5) - this.#h(k)) return k;
    }
  }

  /** (x^(1-theta) - 1) / (1 - theta), an antiderivative of h. */
  #hIntegral(x: number): number {
    const logX = Math.log(x);
    return helper2((1 - this.theta) * logX) * logX;
  }

  #h(x: number): number {
    return Math.exp(-this.theta * Math.log(x));
  }

  #hIntegralInverse(x: number): number {
    let t = x * (1 - this.theta);
    if (t < -1) t = -1; // numerical safety: x is never below hIntegral(0.5) in exact arithmetic
    return Math.exp(helper1(t) * x);
  }
}

const TWO32 = 4294967296;

/**
 * YCSB's `Utils.fnvhash64(v)` modulo `n`: FNV-1a over the 8 little-endian bytes of v (0 <= v < 2^53),
 * the 64-bit result read as signed and made non-negative (Math.abs), then modulo n. Computed in 32-bit
 * halves (no BigInt); n must be at most 2^26 so the modular products stay exact.
 */
export function fnvHash64Mod(v: number, n: number): number {
  let hi = 0xcbf29ce4;
  let lo = 0x84222325;
  let vLo = v % TWO32;
  let vHi = Math.floor(v / TWO32);
  for (let i = 0; i < 8; i++) {
    const octet = vLo & 0xff;
    vLo = (vLo >>> 8) | ((vHi & 0xff) << 24);
    vLo >>>= 0;
    vHi >>>= 8;
    const l = (lo ^ octet) >>> 0;
    // (hi:lo) * 0x100_000001b3 mod 2^64 = l*0x1b3 + 2^32 * (hi*0x1b3 + l*0x100); every term below 2^42.
    const low = l * 0x1b3;
    const carry = Math.floor(low / TWO32);
    lo = low - carry * TWO32;
    hi = (carry + hi * 0x1b3 + l * 0x100) % TWO32;
  }
  return absMod(hi, lo, n);
}

function absMod(hi: number, lo: number, n: number): number {
  if (hi >= 0x80000000) {
    // two's complement negation of (hi:lo)
    lo = (TWO32 - lo) % TWO32;
    hi = (TWO32 - 1 - hi + (lo === 0 ? 1 : 0)) % TWO32;
  }
  return ((hi % n) * (TWO32 % n) + lo) % n;
}

/** YCSB's scrambled Zipfian: items in [0, n), hot items spread over the range. */
export class ScrambledZipfian {
  readonly #zipf: Zipfian;

  constructor(
    readonly n: number,
    readonly theta: number,
    random: Random = Math.random,
  ) {
    if (n > 2 ** 26) throw new RangeError(`at most 2^26 items, got ${n}`);
    this.#zipf = new Zipfian(n, theta, random);
  }

  next(): number {
    return fnvHash64Mod(this.#zipf.next() - 1, this.n);
  }
}
