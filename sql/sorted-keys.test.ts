import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SortedKeys } from './sorted-keys.ts';

void test('keeps keys ordered across chunk splits and walks ranges both ways', () => {
  const s = new SortedKeys();
  const want: string[] = [];
  let x = 7;
  for (let i = 0; i < 3000; i++) {
    x = (x * 1103515245 + 12345) % 2147483648;
    const k = String(x % 100000).padStart(6, '0');
    s.insert(k);
    if (!want.includes(k)) want.push(k);
  }
  want.sort();
  assert.equal(s.size, want.length);
  assert.deepEqual([...s.range('', null, false)], want);
  assert.deepEqual([...s.range('', null, true)], [...want].reverse());
  const lo = '020000';
  const hi = '050000';
  const mid = want.filter((k) => k >= lo && k < hi);
  assert.deepEqual([...s.range(lo, hi, false)], mid);
  assert.deepEqual([...s.range(lo, hi, true)], [...mid].reverse());
  for (const k of want.slice(0, 1500)) s.remove(k);
  assert.deepEqual([...s.range('', null, false)], want.slice(1500));
  assert.equal(s.has(want[1600] as string), true);
  assert.equal(s.has(want[10] as string), false);
});
