// sortByKey (decision 0055): the same order as Array.prototype.sort, stable, on both sides of its
// insertion-sort threshold.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Prng } from '../sim/prng.ts';
import { entryOfKey, sortByKey } from './sorted-entries.ts';

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
