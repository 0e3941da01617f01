import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fnvHash64Mod, ScrambledZipfian, seededRandom, Zipfian } from './zipf.ts';

/** YCSB's Utils.fnvhash64 in BigInt, the reference for the 32-bit-halves version. */
function fnvReference(v: number, n: number): number {
  const mask = (1n << 64n) - 1n;
  let h = 0xcbf29ce484222325n;
  let x = BigInt(v);
  for (let i = 0; i < 8; i++) {
    h ^= x & 0xffn;
    x >>= 8n;
    h = (h * 1099511628211n) & mask;
  }
  const signed = BigInt.asIntN(64, h);
  const abs = signed < 0n ? -signed : signed;
  return Number(abs % BigInt(n));
}

void test('fnvHash64Mod matches YCSB fnvhash64 modulo n', () => {
  const random = seededRandom(1);
  for (const n of [1, 7, 10_000, 19_991, 2 ** 26]) {
    for (const v of [0, 1, 2, 255, 256, 65_535, 2 ** 32 - 1, 2 ** 32, 2 ** 40 + 12_345, 2 ** 53 - 1]) assert.equal(fnvHash64Mod(v, n), fnvReference(v, n), `v=${v} n=${n}`);
    for (let i = 0; i < 200; i++) {
      const v = Math.floor(random() * 2 ** 40);
      assert.equal(fnvHash64Mod(v, n), fnvReference(v, n), `v=${v} n=${n}`);
    }
  }
});

void test('Zipfian draws ranks with P(k) proportional to k^-theta', () => {
  for (const theta of [0.99, 1.1]) {
    const n = 1000;
    const draws = 200_000;
    const z = new Zipfian(n, theta, seededRandom(42));
    const counts = new Float64Array(n + 1);
    for (let i = 0; i < draws; i++) {
      const k = z.next();
      assert.ok(Number.isInteger(k) && k >= 1 && k <= n);
      counts[k]!++;
    }
    let h = 0;
    for (let k = 1; k <= n; k++) h += k ** -theta;
    // The head ranks within 5 standard deviations of their expected counts.
    for (const k of [1, 2, 3, 5, 10, 100]) {
      const p = k ** -theta / h;
      const expected = draws * p;
      const sd = Math.sqrt(draws * p * (1 - p));
      assert.ok(Math.abs(counts[k]! - expected) < 5 * sd, `theta=${theta} k=${k}: ${counts[k]} vs ${expected.toFixed(0)}`);
    }
    // The tail as a whole: ranks 501..1000.
    let tail = 0;
    let pTail = 0;
    for (let k = 501; k <= n; k++) {
      tail += counts[k]!;
      pTail += k ** -theta / h;
    }
    const sd = Math.sqrt(draws * pTail * (1 - pTail));
    assert.ok(Math.abs(tail - draws * pTail) < 5 * sd, `theta=${theta} tail: ${tail} vs ${(draws * pTail).toFixed(0)}`);
  }
});

void test('ScrambledZipfian stays in range, keeps the skew and spreads the hot items', () => {
  const n = 20_000;
  const draws = 100_000;
  const z = new ScrambledZipfian(n, 1.1, seededRandom(7));
  const counts = new Map<number, number>();
  for (let i = 0; i < draws; i++) {
    const v = z.next();
    assert.ok(Number.isInteger(v) && v >= 0 && v < n);
    counts.set(v, (counts.get(v) ?? 0) + 1);
  }
  const hottest = [...counts.entries()].sort((a, b) => b[1] - a[1]).slice(0, 3);
  let h = 0;
  for (let k = 1; k <= n; k++) h += k ** -1.1;
  // The hottest item is rank 1 (about 1/H of the draws), and it is not simply item 0.
  assert.equal(hottest[0]![0], fnvHash64Mod(0, n));
  assert.ok(Math.abs(hottest[0]![1] / draws - 1 / h) < 0.01, `hottest share ${hottest[0]![1] / draws} vs ${1 / h}`);
  assert.notDeepEqual(hottest.map(([v]) => v), [0, 1, 2]);
});

void test('Zipfian rejects bad parameters', () => {
  assert.throws(() => new Zipfian(0, 1.1), RangeError);
  assert.throws(() => new Zipfian(10, 0), RangeError);
  assert.throws(() => new ScrambledZipfian(2 ** 27, 1.1), RangeError);
  assert.equal(new Zipfian(1, 1.1).next(), 1);
});
