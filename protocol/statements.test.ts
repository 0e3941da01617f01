import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { ShardId, TxnDigest } from './ids.ts';
import { addShardsOfWrite, logShardOf, onEveryShard, SERIAL_COUNTER_PREFIX, shardOfKey, shardOwns } from './sharding.ts';
import { st2Leaf, voteLeaf } from './statements.ts';

const s = (n: number): ShardId => n as ShardId;
const d = (fill: number): TxnDigest => new Uint8Array(32).fill(fill) as TxnDigest;
const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');

void describe('signed statements', () => {
  void it('gives a different leaf to every field change, and never lets a vote pass as an ST2 decision', () => {
    const leaves = [
      voteLeaf(d(1), s(0), 'commit'),
      voteLeaf(d(1), s(0), 'abstain'),
      voteLeaf(d(1), s(1), 'commit'),
      voteLeaf(d(2), s(0), 'commit'),
      voteLeaf(d(1), s(256), 'commit'),
      st2Leaf(d(1), s(0), 'commit', 0),
      st2Leaf(d(1), s(0), 'abort', 0),
      st2Leaf(d(1), s(0), 'commit', 1),
      st2Leaf(d(1), s(0), 'commit', 256),
      st2Leaf(d(1), s(1), 'commit', 0),
    ].map(hex);
    assert.equal(new Set(leaves).size, leaves.length);
  });

  void it('is deterministic and returns a fresh 32-byte leaf each call', () => {
    const a = voteLeaf(d(7), s(3), 'commit');
    const b = voteLeaf(d(7), s(3), 'commit');
    assert.equal(a.length, 32);
    assert.notEqual(a, b);
    assert.deepEqual(a, b);
    assert.deepEqual(st2Leaf(d(7), s(3), 'abort', 9), st2Leaf(d(7), s(3), 'abort', 9));
  });
});

void describe('sharding', () => {
  void it('logs a transaction on shards[digest[0] % shards.length]', () => {
    const shards = [s(2), s(5), s(9)];
    assert.equal(logShardOf(d(0), shards), 2);
    assert.equal(logShardOf(d(4), shards), 5);
    assert.equal(logShardOf(d(255), shards), 2);
    assert.equal(logShardOf(d(200), [s(4)]), 4);
  });

  void it('maps keys to shards stably, in range, and roughly evenly', () => {
    assert.equal(shardOfKey('anything', 1), 0);
    assert.equal(shardOfKey('k000042', 4), shardOfKey('k000042', 4));
    const counts = [0, 0, 0, 0];
    for (let i = 0; i < 4000; i++) counts[shardOfKey(`k${String(i).padStart(6, '0')}`, 4)]!++;
    for (const c of counts) assert.ok(c > 800 && c < 1200, `uneven: ${counts.join(',')}`);
    // Pinned values: changing the function moves data, so it must be deliberate.
    assert.deepEqual(['', 'a', 'k000001', '\u00ff\u0000'].map((k) => shardOfKey(k, 7)), PINNED);
  });

  void it('keeps table 0 (the catalog) on every shard: a write of it involves them all, a read goes to shard 0', () => {
    const catalog = '\x00\x00\x00\x00catalog';
    const row = '\x00\x00\x00\x05row'; // table 5
    assert.ok(onEveryShard(catalog));
    assert.ok(!onEveryShard(row) && !onEveryShard('\x00\x00\x00') && !onEveryShard('k1'));
    assert.equal(shardOfKey(catalog, 3), 0);
    assert.deepEqual([0, 1, 2].map((sh) => shardOwns(catalog, s(sh), 3)), [true, true, true]);
    assert.deepEqual([0, 1, 2].map((sh) => shardOwns(row, s(sh), 3)), [false, false, true], 'a table lives on shard id % shards');
    const into = new Set<ReturnType<typeof s>>();
    addShardsOfWrite(into, row, 3);
    assert.deepEqual([...into], [2]);
    addShardsOfWrite(into, catalog, 3);
    assert.deepEqual([...into].sort(), [0, 1, 2]);
    const one = new Set<ReturnType<typeof s>>();
    addShardsOfWrite(one, catalog, 1);
    assert.deepEqual([...one], [0]);
    // A SERIAL counter of table 5 lives with table 5's rows, on one shard.
    const counter = `${SERIAL_COUNTER_PREFIX}5:2`;
    assert.ok(!onEveryShard(counter));
    assert.equal(shardOfKey(counter, 3), shardOfKey(row, 3));
    assert.equal(shardOfKey(`${SERIAL_COUNTER_PREFIX}1234:0`, 7), 1234 % 7);
    assert.equal(shardOfKey(`${SERIAL_COUNTER_PREFIX}x:0`, 7), 0, 'a malformed counter key goes to shard 0');
    const w = new Set<ReturnType<typeof s>>();
    addShardsOfWrite(w, counter, 3);
    assert.deepEqual([...w], [2]);
  });
});

// FNV-1a of "" is 0x811c9dc5 and of "a" 0xe40c292c (the published test vectors), mod 7.
const PINNED = [2, 5, 6, 3];
