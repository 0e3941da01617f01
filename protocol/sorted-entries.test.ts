// sortByKey (decision 0055): the same order as Array.prototype.sort, stable, on both sides of its
// insertion-sort threshold.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Prng } from '../sim/prng.ts';
import { entryOfKey, lowerBoundKey, lowerBoundKeyFrom, sortByKey } from './sorted-entries.ts';

void describe('sortByKey', () => {
  void it('orders by key like Array.prototype.sort, keeps equal keys in their order, and sorts in place', () => {
    const prng = new Prng(7);
    for (let len = 0; len <= 40; len++) {
      for (let round = 0; round < 20; round++) {
        const list = Array.from({ length: len }, (_, i) => ({ key: String.fromCharCode(97 + prng.int(6), prng.int(3) === 0 ? 0 : 98 + prng.int(3)), at: i }));
        const expected = [...list].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : a.at - b.at));
        const sorted = sortByKey(list);
        assert.equal(sorted, list, 'in place');
        assert.deepEqual(sorted, expected, `length ${len}`);
      }
    }
  });

  void it('gives lists entryOfKey can search', () => {
    const list = sortByKey(['q', 'b', 'x', 'a'].map((key) => ({ key })));
    assert.deepEqual(list.map((e) => e.key), ['a', 'b', 'q', 'x']);
    assert.equal(entryOfKey(list, 'q')?.key, 'q');
    assert.equal(entryOfKey(list, 'c'), undefined);
  });
});

void describe('lowerBoundKeyFrom', () => {
  void it("finds each of ascending keys where lowerBoundKey does, galloping from the previous key's place", () => {
    const prng = new Prng(11);
    for (let len = 0; len <= 70; len++) {
      for (let round = 0; round < 10; round++) {
        const list = [...new Set(Array.from({ length: len }, () => String(prng.int(400)).padStart(3, '0')))].sort().map((key) => ({ key }));
        const probes = [...new Set(Array.from({ length: prng.int(30) }, () => String(prng.int(420)).padStart(3, '0')))].sort();
        let from = 0;
        for (const p of probes) {
          const at = lowerBoundKeyFrom(list, p, from);
          assert.equal(at, lowerBoundKey(list, p), `${p} in ${list.length} from ${from}`);
          from = at;
        }
      }
    }
  });
});
