import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { encodeTxn } from '../../protocol/codec.ts';
import type { ShardId } from '../../protocol/ids.ts';
import type { CommittedTxn, Key, PreparedRead, ReadReply, Txn, WriteEntry } from '../../protocol/messages.ts';
import { quorums } from '../../protocol/quorum.ts';
import { ts, ZERO_TS, type Timestamp } from '../../protocol/timestamp.ts';
import { checkReadReply, PointRead, type ReadOutcome, type ReadStep, type ReplyCheck } from './point-read.ts';

const SHARD = 0 as ShardId;
const T = ts(1_000, 1);
const bytes = (b: number): Uint8Array => new Uint8Array([b]);

function writer(at: Timestamp, writes: WriteEntry[]): Txn {
  return encodeTxn({ ts: at, shards: [SHARD], reads: [], writes, deps: [], predicates: [], meta: new Uint8Array(0) });
}

/** The shell has verified the certificate; point-read checks the proof's transaction against the reply. */
function proofOf(t: Txn): CommittedTxn {
  return { txn: t, cert: { kind: 'votes', votes: { decision: 'commit', shards: [] } } };
}

/** A committed version with its writer's proof. */
function committed(key: Key, at: Timestamp, value: number): ReadReply['committed'] {
  const w = writer(at, [{ key, value: bytes(value) }]);
  return { version: at, value: bytes(value), digest: w.digest, proof: proofOf(w) };
}

/** The same committed version as `committed`, reported without its proof. */
function bare(key: Key, at: Timestamp, value: number): ReadReply['committed'] {
  return { ...committed(key, at, value)!, proof: null };
}

/** A committed read of `k` whose proof is `t`'s (for the mismatch checks). */
function claimed(at: Timestamp, value: Uint8Array | null, t: Txn): ReadReply['committed'] {
  return { version: at, value, digest: t.digest, proof: proofOf(t) };
}

const P700 = writer(ts(700, 2), [{ key: 'k', value: bytes(7) }]);
const P800 = writer(ts(800, 3), [{ key: 'k', value: bytes(8) }]);
const prepared = (t: Txn, value: number): PreparedRead => ({ version: t.body.ts, value: bytes(value), digest: t.digest });

function reply(committedPart: ReadReply['committed'], preparedPart: PreparedRead | null = null, key: Key = 'k'): ReadReply {
  return { kind: 'readReply', req: 1, key, committed: committedPart, prepared: preparedPart };
}

const outcomeOf = (step: ReadStep): ReadOutcome | null => (step.k === 'done' ? step.outcome : null);

function decide(f: number, replies: ReadReply[]): (ReadOutcome | null)[] {
  const pr = new PointRead('k', SHARD, T, quorums(f));
  return replies.map((r, i) => outcomeOf(pr.add(i, r)));
}

void describe('PointRead (PROTOCOL §4.1)', () => {
  void it('decides once f+1 identical replies are in', () => {
    const c = committed('k', ts(500, 2), 5);
    const outs = decide(1, [reply(c), reply(c)]);
    assert.equal(outs[0], null);
    assert.deepEqual(outs[1], { version: ts(500, 2), value: bytes(5), dep: null });
  });

  void it('takes the freshest committed version among the replies', () => {
    for (const order of [
      [ts(300, 2), ts(500, 2), ts(400, 2)],
      [ts(500, 2), ts(300, 2), ts(400, 2)],
    ]) {
      const outs = decide(
        2,
        order.map((v, i) => reply(committed('k', v, i))),
      );
      assert.deepEqual(outs[2]?.version, ts(500, 2));
    }
  });

  void it('takes a newer prepared version reported identically by f+1 replicas, as a dependency', () => {
    const c = committed('k', ts(500, 2), 5);
    const out = decide(1, [reply(c, prepared(P700, 7)), reply(c, prepared(P700, 7))])[1];
    assert.deepEqual(out, { version: ts(700, 2), value: bytes(7), dep: { digest: P700.digest, shard: SHARD, ts: ts(700, 2) } });
  });

  const notVouched: { name: string; second: PreparedRead | null }[] = [
    { name: 'only one replica reports it', second: null },
    { name: 'the other replica reports another value', second: prepared(P700, 9) },
    { name: 'the other replica reports another transaction', second: { ...prepared(P700, 7), digest: P800.digest } },
    { name: 'the other replica reports another version', second: prepared(P800, 7) },
  ];
  for (const c of notVouched) {
    void it(`ignores a prepared version when ${c.name}`, () => {
      const com = committed('k', ts(500, 2), 5);
      const out = decide(1, [reply(com, prepared(P700, 7)), reply(com, c.second)])[1];
      assert.deepEqual(out, { version: ts(500, 2), value: bytes(5), dep: null });
    });
  }

  void it('ignores a prepared version older than the freshest committed one', () => {
    const out = decide(1, [reply(committed('k', ts(750, 2), 1), prepared(P700, 7)), reply(committed('k', ts(600, 2), 1), prepared(P700, 7))])[1];
    assert.deepEqual(out?.version, ts(750, 2));
    assert.equal(out?.dep, null);
  });

  void it('picks the newest prepared version that f+1 replicas vouch for', () => {
    const outs = decide(1, [reply(null, prepared(P800, 8)), reply(null, prepared(P800, 8))]);
    assert.deepEqual(outs[1]?.version, ts(800, 3));
  });

  void it('reads a missing row as version 0 with no value', () => {
    const outs = decide(1, [reply(null), reply(null)]);
    assert.deepEqual(outs[1], { version: ZERO_TS, value: null, dep: null });
  });

  void it('counts a replica once and ignores replies after the decision', () => {
    const pr = new PointRead('k', SHARD, T, quorums(1));
    assert.equal(pr.add(3, reply(null)).k, 'wait');
    assert.equal(pr.add(3, reply(committed('k', ts(500, 2), 5))).k, 'wait');
    assert.equal(pr.add(4, reply(null)).k, 'done');
    assert.equal(pr.add(5, reply(null)).k, 'wait');
  });

  void it('accepts a committed version without proof that f+1 replicas report identically', () => {
    const outs = decide(1, [reply(bare('k', ts(500, 2), 5)), reply(bare('k', ts(500, 2), 5))]);
    assert.deepEqual(outs[1], { version: ts(500, 2), value: bytes(5), dep: null });
  });

  const unmatched: { name: string; second: ReadReply['committed'] }[] = [
    { name: 'the other replica reports an older version', second: bare('k', ts(400, 2), 4) },
    { name: 'the other replica reports another value', second: { ...bare('k', ts(500, 2), 5)!, value: bytes(6) } },
    { name: 'the other replica reports another writer', second: { ...bare('k', ts(500, 2), 5)!, digest: P800.digest } },
    { name: 'the other replica reports no row', second: null },
  ];
  for (const c of unmatched) {
    void it(`asks for the proof of the freshest committed version when ${c.name}`, () => {
      const pr = new PointRead('k', SHARD, T, quorums(1));
      assert.equal(pr.add(0, reply(bare('k', ts(500, 2), 5))).k, 'wait');
      assert.deepEqual(pr.add(1, reply(c.second)), { k: 'proofs', targets: [0] });
      // The proof arrives: the version is vouched for.
      const done = pr.add(0, reply(committed('k', ts(500, 2), 5)));
      assert.deepEqual(outcomeOf(done), { version: ts(500, 2), value: bytes(5), dep: null });
    });
  }

  void it('does not believe a replica that owes a proof, and falls back to what others vouch for', () => {
    const pr = new PointRead('k', SHARD, T, quorums(1));
    pr.add(0, reply(bare('k', ts(900, 2), 9)));
    assert.deepEqual(pr.add(1, reply(bare('k', ts(500, 2), 5))), { k: 'proofs', targets: [0] });
    // Replica 0 answers again without the proof: ignored, still owed.
    assert.equal(pr.add(0, reply(bare('k', ts(900, 2), 9))).k, 'wait');
    // Timeout: replica 0 is no longer believed; replica 1's version needs its proof in turn.
    assert.deepEqual(pr.retry(), { k: 'proofs', targets: [1] });
    const done = pr.add(1, reply(committed('k', ts(500, 2), 5)));
    assert.deepEqual(outcomeOf(done), { version: ts(500, 2), value: bytes(5), dep: null });
  });

  void it('needs no proof when the unmatched version is older than a vouched one', () => {
    const outs = decide(1, [reply(committed('k', ts(500, 2), 5)), reply(bare('k', ts(400, 2), 4))]);
    assert.deepEqual(outs[1], { version: ts(500, 2), value: bytes(5), dep: null });
  });

  void it('asks f+1 distinct replicas first and the rest later', () => {
    const pr = new PointRead('k', SHARD, T, quorums(1));
    const first = pr.firstTargets(0.99);
    assert.deepEqual(first, [5, 0]);
    for (const i of first) pr.asked.add(i);
    assert.deepEqual(pr.moreTargets(), [1, 2, 3, 4]);
  });
});

void describe('checkReadReply', () => {
  const table: { name: string; r: ReadReply; expect: ReplyCheck }[] = [
    { name: 'accepts a committed value its proof wrote', r: reply(committed('k', ts(500, 2), 5)), expect: 'ok' },
    { name: 'accepts an empty reply', r: reply(null), expect: 'ok' },
    { name: 'accepts a committed value without proof (f+1 matching replies vouch for it)', r: reply(bare('k', ts(500, 2), 5)), expect: 'ok' },
    {
      name: 'rejects a proof of another transaction than the named writer',
      r: reply({ ...committed('k', ts(500, 2), 5)!, digest: P800.digest }),
      expect: 'bad-proof',
    },
    {
      name: 'rejects a proof whose transaction wrote another value',
      r: reply(claimed(ts(500, 2), bytes(6), writer(ts(500, 2), [{ key: 'k', value: bytes(5) }]))),
      expect: 'bad-proof',
    },
    {
      name: 'rejects a proof whose transaction did not write the key',
      r: reply(claimed(ts(500, 2), bytes(5), writer(ts(500, 2), [{ key: 'j', value: bytes(5) }]))),
      expect: 'bad-proof',
    },
    {
      name: 'rejects a proof whose transaction has another timestamp',
      r: reply(claimed(ts(500, 2), bytes(5), writer(ts(400, 2), [{ key: 'k', value: bytes(5) }]))),
      expect: 'bad-proof',
    },
    {
      name: 'rejects a deletion claimed by a proof that wrote a value',
      r: reply(claimed(ts(500, 2), null, writer(ts(500, 2), [{ key: 'k', value: bytes(5) }]))),
      expect: 'bad-proof',
    },
    { name: 'rejects a committed version equal to T', r: reply(committed('k', T, 5)), expect: 'version-not-below-ts' },
    { name: 'rejects a committed version above T', r: reply(committed('k', ts(2_000, 0), 5)), expect: 'version-not-below-ts' },
    { name: 'rejects a prepared version at or above T', r: reply(null, { version: T, value: bytes(1), digest: P700.digest }), expect: 'version-not-below-ts' },
    { name: 'rejects a reply for another key', r: reply(committed('j', ts(500, 2), 5), null, 'j'), expect: 'wrong-key' },
    {
      name: 'finds the key among several writes of the proof',
      r: reply(claimed(ts(500, 2), bytes(5), writer(ts(500, 2), ['a', 'c', 'k', 'x', 'z'].map((key) => ({ key, value: bytes(key === 'k' ? 5 : 0) }))))),
      expect: 'ok',
    },
  ];
  for (const c of table) {
    void it(c.name, () => {
      assert.equal(checkReadReply(c.r, 'k', T), c.expect);
    });
  }
});
