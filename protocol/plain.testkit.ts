/**
 * Structural equality for decoded messages in tests: byte arrays as number arrays (Buffer and
 * Uint8Array alike), and the accessors of a class read as if they were fields (codec-fast-cert.ts
 * `WireSigProof` keeps its byte fields as offsets until they are read).
 */
export function plain(v: unknown): unknown {
  if (v instanceof Uint8Array) return Array.from(v);
  if (Array.isArray(v)) return v.map(plain);
  if (v === null || typeof v !== 'object') return v;
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) out[k] = plain(x);
  const proto: unknown = Object.getPrototypeOf(v);
  if (proto !== Object.prototype && proto !== null) {
    for (const [k, d] of Object.entries(Object.getOwnPropertyDescriptors(proto))) {
      if (d.get !== undefined) out[k] = plain((v as Record<string, unknown>)[k]);
    }
  }
  return out;
}
