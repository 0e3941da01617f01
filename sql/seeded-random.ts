// The single-node engine's randomness when none is injected (sql/engine.ts): the same bytes every run.

/** A deterministic byte generator (xorshift32): the engine's randomness when none is injected. */
export function seededRandom(seed: number): (bytes: number) => Uint8Array {
  let x = seed >>> 0 || 1;
  return (n) => {
    const out = new Uint8Array(n);
    for (let i = 0; i < n; i++) {
      x ^= x << 13;
      x ^= x >>> 17;
      x ^= x << 5;
      x >>>= 0;
      out[i] = x & 0xff;
    }
    return out;
  };
}
