// A key's state keeps its newest committed version beside the chain (decision 0050): whatever order
// commits arrive in and whatever history is collected, it is the chain's last entry.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { encodeTxn } from '../../protocol/codec-txn.ts';
import type { DigestKey, ShardId } from '../../protocol/ids.ts';
import type { Writeback } from '../../protocol/messages.ts';
import { StoredProof, StoredWriteback } from '../../protocol/stored.ts';
import { ts, tsLess } from '../../protocol/timestamp.ts';
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
        // Chains stay in timestamp order whether they grow by a new exact-length array or in place.
        for (const chain of [ks.committed, ks.prepared]) {
          for (let i = 1; i < chain.length; i++) assert.ok(!tsLess(chain[i]!.ts, chain[i - 1]!.ts), `step ${step}, key ${k}: chain out of order`);
        }
      }
    }
    assert.ok(keys.every((k) => (store.get(k)?.committed.length ?? 0) > 0), 'every key saw commits');
  });
});

void describe('KeyState read lists', () => {
  void test('keep every record in arrival order, as they grow from the shared empty list past four entries', () => {
    const store = new Store();
    const records = Array.from({ length: 9 }, (_, i) => ({ readerTs: ts(100 - i, 1), version: ts(1, 1), txn: `r${i}` as DigestKey, proof: null }));
    const ks = store.getOrCreate('k');
    const other = store.getOrCreate('other');
    for (let i = 0; i < records.length; i++) {
      ks.addCommittedRead(records[i]!);
      ks.addPreparedRead(records[records.length - 1 - i]!);
      assert.deepEqual(ks.committedReads, records.slice(0, i + 1));
      assert.deepEqual(ks.preparedReads, records.slice(records.length - 1 - i).reverse());
    }
    assert.equal(other.committedReads.length, 0, 'the shared empty list stays empty');
    assert.equal(other.preparedReads.length, 0);
  });

  void test('share the timestamp object of the newest committed version they read', () => {
    const store = new Store();
    const written = ts(50, 2);
    store.commitWrite('k', { ts: written, value: Uint8Array.of(1), txn: 'w' as DigestKey, proof: null });
    const ks = store.get('k')!;
    assert.equal(ks.versionTs(ts(50, 2)), written, 'an equal timestamp: the kept one');
    const older = ts(40, 2);
    assert.equal(ks.versionTs(older), older, 'any other: itself');
    assert.equal(store.getOrCreate('fresh').versionTs(older), older, 'a key without versions: itself');
  });
});

// Decision 0055: only the SQL key space (first byte 0) is kept in key order; kv keys are looked up alone.
void describe('Store key order', () => {
  void test('walks SQL keys in byte order and never a kv key, whose state is still found by itself', () => {
    const store = new Store();
    const v = (n: number): Version => ({ ts: ts(n, 1), value: Uint8Array.of(n), txn: `t${n}` as DigestKey, proof: null });
    const sql = ['\0\0\0\x02b', '\0\0\0\x01z', '\0\0\0\x02a', '\0\0\0\0cat'];
    const kv = ['k1', 'a', '\x01x', 'zz'];
    [...sql, ...kv].forEach((k, i) => store.commitWrite(k, v(i + 1)));
    const walked = (lo: string, hi: string | null, reverse = false): string[] => [...store.keysInRange(lo, hi, reverse)];
    assert.deepEqual(walked('', null), [...sql].sort());
    assert.deepEqual(walked('\0\0\0\x02', null), ['\0\0\0\x02a', '\0\0\0\x02b']);
    assert.deepEqual(walked('\0\0\0\x01', '\0\0\0\x03', true), ['\0\0\0\x02b', '\0\0\0\x02a', '\0\0\0\x01z']);
    assert.equal(store.size, sql.length + kv.length);
    for (const k of kv) assert.equal(store.get(k)?.committedHead?.value?.[0], kv.indexOf(k) + sql.length + 1);
    assert.equal(store.deleteRange('\0\0\0\x02', '\0\0\0\x03', 10), 2);
    assert.deepEqual(walked('', null), ['\0\0\0\0cat', '\0\0\0\x01z']);
    assert.equal(store.size, 2 + kv.length);
  });
});

void describe('Store.liveProofBytes', () => {
  /** A real commit proof of a transaction writing `keys` (its certificate's votes left out: only its bytes are counted). */
  function proofOf(n: number, keys: readonly string[], withTxn: boolean): StoredProof {
    const txn = encodeTxn({ ts: ts(n, 1), shards: [0 as ShardId], reads: [], writes: keys.map((key) => ({ key, value: new Uint8Array(n % 50) })), deps: [], predicates: [], meta: new Uint8Array(0) });
    const wb: Writeback = { kind: 'writeback', digest: txn.digest, cert: { kind: 'votes', votes: { decision: 'commit', shards: [] } }, txn: withTxn ? txn : null };
    return new StoredProof(txn, new StoredWriteback(wb));
  }

  /** The bytes of every distinct proof a committed version or committed read names, found by walking the store. */
  function named(store: Store): number {
    const seen = new Set<StoredProof>();
    for (const ks of store.values()) {
      for (const v of ks.committed) if (v.proof instanceof StoredProof) seen.add(v.proof);
      for (const r of ks.committedReads) if (r.proof instanceof StoredProof) seen.add(r.proof);
    }
    let bytes = 0;
    for (const p of seen) bytes += p.logBytes;
    return bytes;
  }

  void test('counts each proof the store names once, through commits, reads, collection and dropped ranges', () => {
    const prng = new Prng(7);
    const store = new Store();
    // Kv keys and SQL-space keys (first byte 0: deleteRange walks those).
    const keys = ['\0t1', '\0t2', '\0t3', 'a', 'b', 'c'];
    for (let n = 1; n <= 3_000; n++) {
      const roll = prng.float();
      if (roll < 0.55) {
        const writes = keys.filter(() => prng.chance(0.4));
        const p = proofOf(n, writes.length === 0 ? [keys[prng.int(keys.length)]!] : writes, prng.chance(0.5));
        for (const w of p.txn.body.writes) store.commitWrite(w.key, { ts: ts(n, 1), value: w.value, txn: p.txn.key, proof: p });
        if (prng.chance(0.5)) {
          const ks = store.getOrCreate(keys[prng.int(keys.length)]!);
          store.addCommittedRead(ks, { readerTs: ts(n, 1), version: ts(n - 1, 1), txn: p.txn.key, proof: p });
        }
      } else if (roll < 0.95) {
        const ks = store.get(keys[prng.int(keys.length)]!);
        if (ks !== undefined) store.collect(ks, ts(Math.max(0, n - prng.int(200)), 0));
      } else store.deleteRange('\0t2', '\0t3', 10);
      assert.equal(store.liveProofBytes, named(store), `step ${n}`);
    }
    assert.ok(store.liveProofBytes > 0);
  });
});
