// A key's state keeps its newest committed version beside the chain (decision 0050): whatever order
// commits arrive in and whatever history is collected, it is the chain's last entry.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { DigestKey } from '../../protocol/ids.ts';
import { ts } from '../../protocol/timestamp.ts';
import { Store, type Version } from './store.ts';

/** A seeded generator (xorshift32), so a failing sequence can be replayed. */
function rng(seed: number): () => number {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 0x1_0000_0000;
  };
}

void describe('KeyState.committedHead', () => {
  void test('is the newest committed version after commits in any order, prepares, aborts and collection', () => {
    const next = rng(42);
    const store = new Store();
    const keys = ['a', 'b', 'c', 'd'];
    let n = 0;
    for (let step = 0; step < 2_000; step++) {
      const key = keys[Math.floor(next() * keys.length)]!;
      const v: Version = { ts: ts(1 + Math.floor(next() * 10_000), 1 + Math.floor(next() * 3)), value: next() < 0.1 ? null : Uint8Array.of(n & 0xff), txn: `t${n++}` as DigestKey, proof: null };
      const roll = next();
      if (roll < 0.5) store.commitWrite(key, v);
      else if (roll < 0.7) store.prepareWrite(key, v);
      else if (roll < 0.8) store.abortWrite(key, v.txn, v.ts);
      else {
        const ks = store.get(key);
        if (ks !== undefined) store.collect(ks, ts(Math.floor(next() * 10_000), 0));
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
