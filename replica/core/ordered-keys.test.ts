import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { OrderedKeys } from './ordered-keys.ts';

/** A small deterministic generator (tests stay reproducible). */
function lcg(seed: number): () => number {
  let x = seed >>> 0;
  return () => (x = (Math.imul(x, 1664525) + 1013904223) >>> 0);
}

function randomKey(next: () => number): string {
  const len = 1 + (next() % 6);
  let s = '';
  for (let i = 0; i < len; i++) s += String.fromCharCode(next() % 4 === 0 ? 0xff : next() % 256);
  return s;
}

const byteOrder = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

void describe('OrderedKeys', () => {
  const next = lcg(7);
  const keys: string[] = [];
  for (let i = 0; i < 5000; i++) keys.push(randomKey(next));
  const expected = [...new Set(keys)].sort(byteOrder);

  void it('keeps random inserts in byte order without duplicates', () => {
    const ok = new OrderedKeys();
    for (const k of keys) ok.insert(k);
    assert.equal(ok.size, expected.length);
    assert.deepEqual([...ok.keys()], expected);
    assert.ok(ok.has(expected[17]!));
    assert.ok(!ok.has('\x00\x00\x00\x00\x00\x00\x00'));
  });

  void it('builds the same set with one batched insert, merged into existing keys', () => {
    const ok = new OrderedKeys();
    for (const k of keys.slice(0, 1000)) ok.insert(k);
    ok.insertMany(keys.slice(500));
    assert.deepEqual([...ok.keys()], expected);
    ok.insert(expected[3]!);
    assert.equal(ok.size, expected.length);
  });

  void it('walks [lo, hi) ranges forwards and backwards', () => {
    const ok = new OrderedKeys();
    for (const k of keys) ok.insert(k);
    const bounds = ['', '\x00', '\x40', '\x80\x10', '\xff', '\xff\xff\xff', ...expected.filter((_, i) => i % 997 === 0)];
    for (const lo of bounds) {
      for (const hi of [null, ...bounds]) {
        const want = expected.filter((k) => k >= lo && (hi === null || k < hi));
        assert.deepEqual([...ok.range(lo, hi)], want, `forward ${JSON.stringify([lo, hi])}`);
        assert.deepEqual([...ok.range(lo, hi, true)], [...want].reverse(), `reverse ${JSON.stringify([lo, hi])}`);
      }
    }
  });

  void it('fills chunks completely on ascending appends and still walks every key', () => {
    const ok = new OrderedKeys();
    for (let i = 0; i < 3000; i++) ok.insert(String.fromCharCode(i >> 8, i & 255));
    const all = [...ok.keys()];
    assert.equal(all.length, 3000);
    assert.deepEqual(all, [...all].sort(byteOrder));
    assert.deepEqual([...ok.range('\x05', '\x05\x03', true)], ['\x05\x02', '\x05\x01', '\x05\x00']);
  });

  void it('hands out each key\'s value with it through inserts, chunk splits, batched inserts and deletions', () => {
    const ok = new OrderedKeys<{ readonly k: string }>();
    const valueOf = new Map<string, { readonly k: string }>();
    const add = (k: string): void => {
      if (!valueOf.has(k)) valueOf.set(k, { k });
      ok.insert(k, valueOf.get(k)!);
    };
    for (const k of keys.slice(0, 3000)) add(k);
    const batch = keys.slice(2000);
    for (const k of batch) if (!valueOf.has(k)) valueOf.set(k, { k });
    ok.insertMany(batch, batch.map((k) => valueOf.get(k)!));
    ok.deleteRange('\x40', '\x80', 300);
    const left = new Set(ok.keys());
    const check = (it: ReturnType<typeof ok.range>, what: string): number => {
      let n = 0;
      for (let r = it.next(); r.done !== true; r = it.next(), n++) assert.equal(it.current, valueOf.get(r.value), `${what}: value of ${JSON.stringify(r.value)}`);
      assert.equal(it.current, undefined, `${what}: no value after the end`);
      return n;
    };
    assert.equal(check(ok.keys(), 'all'), left.size);
    for (const [lo, hi] of [['\x10', '\xa0'], ['', '\x41'], ['\x7f', null]] as const) {
      const want = [...left].filter((k) => k >= lo && (hi === null || k < hi)).length;
      assert.equal(check(ok.range(lo, hi), `forward ${lo}`), want);
      assert.equal(check(ok.range(lo, hi, true), `reverse ${lo}`), want);
    }
  });

  void it('walks nothing in an empty set', () => {
    const ok = new OrderedKeys();
    assert.deepEqual([...ok.range('', null)], []);
    assert.deepEqual([...ok.range('a', 'b', true)], []);
  });
});

void describe('OrderedKeys.deleteRange', () => {
  const next = lcg(11);
  const keys: string[] = [];
  for (let i = 0; i < 4000; i++) keys.push(randomKey(next));
  const all = [...new Set(keys)].sort(byteOrder);
  const ranges: [string, string | null, number][] = [
    ['', null, Infinity],
    ['\x10', '\x80', Infinity],
    ['\x10', '\x80', 300],
    ['\x80', null, 7],
    ['\x50\x50', '\x50\x51', Infinity],
    ['\xff', null, 1000],
    ['\x00', '\x00', 5],
  ];
  for (const [lo, hi, max] of ranges) {
    void it(`removes at most ${max} keys of [${JSON.stringify(lo)}, ${JSON.stringify(hi)}), the lowest first, and keeps the rest in order`, () => {
      const ok = new OrderedKeys();
      for (const k of keys) ok.insert(k);
      const inRange = all.filter((k) => k >= lo && (hi === null || k < hi));
      const expectGone = inRange.slice(0, Math.min(max, inRange.length));
      const gone = ok.deleteRange(lo, hi, max);
      assert.deepEqual(gone, expectGone);
      const left = all.filter((k) => !expectGone.includes(k));
      assert.equal(ok.size, left.length);
      assert.deepEqual([...ok.keys()], left);
      assert.deepEqual([...ok.range(lo, hi, true)], inRange.slice(expectGone.length).reverse(), 'reverse walks still work');
      for (const k of expectGone.slice(0, 20)) assert.equal(ok.has(k), false);
      ok.insert(expectGone[0] ?? 'x');
      assert.equal(ok.has(expectGone[0] ?? 'x'), true, 'inserts work after a delete');
    });
  }

  void it('deletes in slices until the range is empty', () => {
    const ok = new OrderedKeys();
    for (const k of keys) ok.insert(k);
    const inRange = all.filter((k) => k >= '\x20' && k < '\xf0');
    const gone: string[] = [];
    for (let slice = ok.deleteRange('\x20', '\xf0', 97); slice.length > 0; slice = ok.deleteRange('\x20', '\xf0', 97)) {
      assert.ok(slice.length <= 97);
      gone.push(...slice);
    }
    assert.deepEqual(gone, inRange);
    assert.deepEqual([...ok.keys()], all.filter((k) => k < '\x20' || k >= '\xf0'));
  });
});
