// A key's state keeps its newest committed version beside the chain (decision 0050): whatever order
// commits arrive in and whatever history is collected, it is the chain's last entry.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { DigestKey } from '../../protocol/ids.ts';
import { ts } from '../../protocol/timestamp.ts';
import { Prng } from '../../sim/prng.ts';
import { Store, type Version } from './store.ts';

void describe('KeyState.committedHead', () => {
  void test('is the newest committed version after commits in any order, prepares, aborts and collection', () => {
    const prng = new Prng(42);
    const store = new Store();
    const keys = ['a', 'b', 'c', 'd'];
    let n = 0;
    for (let step = 0; step < 2_000; step++) {
      const key = keys[prng.int(keys.length)]!;
      const v: Version = { ts: ts(1 + prng.int(10_000), 1 + prng.int(3)), value: prng.chance(0.1) ? null : Uint8Array.of(n & 0xff), txn: `t${n++}` as DigestKey, proof: null };
      const roll = prng.float();
      if (roll < 0.5) store.commitWrite(key, v);
      else if (roll < 0.7) store.prepareWrite(key, v);
      else if (roll < 0.8) store.abortWrite(key, v.txn, v.ts);
      else {
        const ks = store.get(key);
        if (ks !== undefined) store.collect(ks, ts(prng.int(10_000), 0));
      }
      for (const k of keys) {
        const ks = store.get(k);
        if (ks === undefined) continue;
        assert.equal(ks.committedHead, ks.committed[ks.committed.length - 1], `step ${step}, key ${k}`);
      }
    }
    assert.ok(keys.every((k) => (store.get(k)?.committed.length ?? 0) > 0), 'every key saw commits');
  });
});
