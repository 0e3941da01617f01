/** Small statistics helpers shared by the benchmarks. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return 0;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i]!;
}

export function median(values: readonly number[]): number {
  const s = [...values].sort((a, b) => a - b);
  return percentile(s, 50);
}

export function round(v: number, digits = 2): number {
  const m = 10 ** digits;
  return Math.round(v * m) / m;
}

/** Parses `--name value` and `--flag` arguments. */
export function parseFlags(args: readonly string[]): Map<string, string> {
  const out = new Map<string, string>();
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (!a.startsWith('--')) continue;
    const next = args[i + 1];
    if (next !== undefined && !next.startsWith('--')) {
      out.set(a.slice(2), next);
      i++;
    } else out.set(a.slice(2), 'true');
  }
  return out;
}

/** A flag's on/off value: `--x` or `--x on` is true, `--x off` false; anything else is an error. */
export function onOff(value: string | undefined, name: string): boolean {
  if (value === undefined || value === 'true' || value === 'on') return true;
  if (value === 'off') return false;
  throw new Error(`--${name}: expected on or off, got ${value}`);
}

/** ops/s of one timed run of at least `ms` milliseconds by `clock`, calling `fn` in growing chunks. */
export function timeRun(fn: () => void, ms: number, clock: () => number): number {
  let ops = 0;
  let chunk = 1;
  const start = clock();
  let elapsed = 0;
  while (elapsed < ms) {
    for (let i = 0; i < chunk; i++) fn();
    ops += chunk;
    elapsed = clock() - start;
    if (elapsed < ms / 8) chunk *= 2;
  }
  return (ops * 1000) / elapsed;
}

/**
 * Host speed probe (reference/node-commit-path-model.md "Noise"): single-thread ed25519 verifications
 * per second for about `ms` milliseconds. This machine's speed swings about 2x; reporting the probe
 * beside a result lets runs be compared.
 */
export function hostProbe(verify: () => void, ms = 500): number {
  return Math.round(timeRun(verify, ms, () => performance.now()));
}

/** Deterministic filler bytes for micro-benchmarks. */
export function fill(n: number, seed: number): Uint8Array {
  const b = new Uint8Array(n);
  for (let i = 0; i < n; i++) b[i] = (i * 31 + seed * 7) & 0xff;
  return b;
}

/**
 * Times `fns` round-robin on the same machine phase: a warm-up each, then 3 rounds of one timed run per
 * function (yielding to the event loop between runs); returns each function's 3 ops/s figures.
 */
export async function roundRobin(fns: readonly (() => void)[], ms: number, clock: () => number): Promise<number[][]> {
  for (const fn of fns) timeRun(fn, Math.max(50, ms / 4), clock);
  const runs: number[][] = fns.map(() => []);
  for (let round = 0; round < 3; round++) {
    for (let i = 0; i < fns.length; i++) {
      runs[i]!.push(timeRun(fns[i]!, ms, clock));
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
  }
  return runs;
}
