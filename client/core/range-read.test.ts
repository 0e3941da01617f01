import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ShardId, TxnDigest } from '../../protocol/ids.ts';
import type { Dependency, Predicate, QueryReply, ReadEntry } from '../../protocol/messages.ts';
import { quorums } from '../../protocol/quorum.ts';
import type { Timestamp } from '../../protocol/timestamp.ts';
import { queryBodyDigest } from '../../protocol/query-digest.ts';
import { RangeRead } from './range-read.ts';

const q = quorums(1); // n = 6, eager fan-out 5, match 4, snapshot f+1 = 2, dependency 2f+1 = 3
const T: Timestamp = { micros: 1000, clientId: 1 };
const ts = (m: number): Timestamp => ({ micros: m, clientId: 2 });
const digest = (b: number): TxnDigest => new Uint8Array(32).fill(b) as TxnDigest;
const bytes = (s: string): Uint8Array => new TextEncoder().encode(s);

function reply(o: { retry?: number; result?: string; reads?: ReadEntry[]; predicates?: Predicate[]; deps?: Dependency[]; committed?: number[]; prepared?: number[] } = {}): QueryReply {
  return {
    kind: 'queryReply',
    req: 1,
    retry: o.retry ?? 0,
    result: bytes(o.result ?? 'rows'),
    reads: o.reads ?? [{ key: 'a', version: ts(10) }],
    predicates: o.predicates ?? [],
    deps: o.deps ?? [],
    snapshotCommitted: (o.committed ?? []).map(digest),
    snapshotPrepared: (o.prepared ?? []).map(digest),
  };
}

function fresh(forceSync = false): RangeRead {
  const r = new RangeRead(0 as ShardId, T, q, 2, forceSync);
  for (let i = 0; i < q.queryFanout; i++) r.asked.add(i);
  return r;
}

void describe('RangeRead', () => {
  void it('succeeds with 3f+1 identical replies and takes the minimum table version per predicate', () => {
    const r = fresh();
    const pred = (v: number): Predicate => ({ table: 1, tableVersion: ts(v), expr: bytes('p') });
    assert.equal(r.add(0, reply({ predicates: [pred(50)] })).k, 'wait');
    assert.equal(r.add(1, reply({ predicates: [pred(40)] })).k, 'wait');
    assert.equal(r.add(2, reply({ predicates: [pred(60)] })).k, 'wait');
    const step = r.add(3, reply({ predicates: [pred(45)] }));
    assert.equal(step.k, 'done');
    if (step.k !== 'done') return;
    assert.deepEqual(step.ok.predicates[0]!.tableVersion, ts(40));
    assert.equal(step.ok.syncRounds, 0);
  });

  void it('keeps a dependency only when 2f+1 matching replies report it', () => {
    const r = fresh();
    const d1: Dependency = { digest: digest(7), shard: 0 as ShardId, ts: ts(10) };
    const d2: Dependency = { digest: digest(8), shard: 0 as ShardId, ts: ts(10) };
    r.add(0, reply({ deps: [d1, d2] }));
    r.add(1, reply({ deps: [d1, d2] }));
    r.add(2, reply({ deps: [d1] }));
    const step = r.add(3, reply());
    assert.equal(step.k, 'done');
    if (step.k !== 'done') return;
    assert.deepEqual(step.ok.deps.map((d) => d.digest[0]), [7]);
  });

  void it('syncs when no group can reach 3f+1, proposing transactions named by f+1 votes with their holders', () => {
    const r = fresh();
    assert.equal(r.add(0, reply({ result: 'x', committed: [1], prepared: [9] })).k, 'wait');
    assert.equal(r.add(1, reply({ result: 'x', committed: [1, 2] })).k, 'wait');
    assert.equal(r.add(2, reply({ result: 'y', committed: [2, 3] })).k, 'wait');
    // Two groups of 2 with one reply outstanding: 4 is out of reach.
    const step = r.add(3, reply({ result: 'y', committed: [3] }));
    assert.equal(step.k, 'sync');
    if (step.k !== 'sync') return;
    assert.equal(step.retry, 1);
    assert.deepEqual(
      step.snapshot.map((e) => [e.digest[0], [...e.holders]]),
      [
        [1, [0, 1]],
        [2, [1, 2]],
        [3, [2, 3]],
      ],
    );
    // Replies of the old round no longer count; the new round decides.
    for (let i = 0; i < q.n; i++) r.asked.add(i);
    assert.equal(r.add(4, reply({ result: 'x' })).k, 'wait');
    for (let i = 0; i < 3; i++) r.add(i, reply({ retry: 1, result: 'z' }));
    const done = r.add(3, reply({ retry: 1, result: 'z' }));
    assert.equal(done.k, 'done');
    if (done.k === 'done') assert.equal(done.ok.syncRounds, 1);
  });

  void it('names the replicas whose votes hold the whole proposal, and the ones that replied outside the largest group', () => {
    const r = fresh();
    r.add(0, reply({ result: 'x', committed: [1, 2] }));
    r.add(1, reply({ result: 'x', committed: [1, 2] }));
    r.add(2, reply({ result: 'x', committed: [1, 2] }));
    const step = r.add(3, reply({ result: 'stale', committed: [1] }));
    assert.equal(step.k, 'wait');
    const sync = r.add(4, reply({ result: 'stale', committed: [2] }));
    assert.equal(sync.k, 'sync');
    if (sync.k !== 'sync') return;
    assert.deepEqual([...sync.current], [0, 1, 2]);
    assert.deepEqual([...r.roundOutliers].sort(), [3, 4]);
  });

  void it('names every replica current when the proposal is empty, and no outliers when the largest group is tied', () => {
    const r = fresh();
    r.add(0, reply({ result: 'a' }));
    r.add(1, reply({ result: 'a' }));
    r.add(2, reply({ result: 'b' }));
    const sync = r.add(3, reply({ result: 'b' }));
    assert.equal(sync.k, 'sync');
    if (sync.k !== 'sync') return;
    assert.equal(sync.current.length, q.n);
    assert.deepEqual(r.roundOutliers, []);
  });

  void it('widens a sync round asked of 3f+1 once they can no longer agree, and decides with the widened replies', () => {
    const r = fresh();
    for (let i = 0; i < 4; i++) r.add(i, reply({ result: `r${i}` }));
    assert.equal(r.retry, 1);
    for (const i of [0, 1, 2, 3]) r.asked.add(i);
    assert.equal(r.add(0, reply({ retry: 1, result: 'good' })).k, 'wait');
    const more = r.add(1, reply({ retry: 1, result: 'bad' }));
    assert.equal(more.k, 'more');
    if (more.k !== 'more') return;
    assert.deepEqual([...more.targets], [4, 5]);
    for (const i of more.targets) r.asked.add(i);
    assert.equal(r.add(2, reply({ retry: 1, result: 'good' })).k, 'wait');
    assert.equal(r.add(4, reply({ retry: 1, result: 'good' })).k, 'wait');
    const done = r.add(5, reply({ retry: 1, result: 'good' }));
    assert.equal(done.k, 'done');
    assert.deepEqual(r.roundOutliers, [1]);
  });

  void it('widens an eager round asked of 3f+1 up to 4f+1 once they can no longer agree, then moves on to sync (decision 0028)', () => {
    const r = new RangeRead(0 as ShardId, T, q, 2, false);
    for (const i of [0, 1, 2, 3]) r.asked.add(i);
    assert.equal(r.add(0, reply({ result: 'good' })).k, 'wait');
    const more = r.add(1, reply({ result: 'bad' }));
    assert.equal(more.k, 'more');
    if (more.k !== 'more') return;
    assert.deepEqual([...more.targets], [4], 'only up to 4f+1');
    r.asked.add(4);
    for (const i of [2, 3]) assert.equal(r.add(i, reply({ result: 'good' })).k, 'wait');
    assert.equal(r.add(4, reply({ result: 'good' })).k, 'done');
    assert.equal(r.retry, 0, 'decided in the eager round');

    const s = new RangeRead(0 as ShardId, T, q, 2, false);
    for (const i of [0, 1, 2, 3]) s.asked.add(i);
    s.add(0, reply({ result: 'a' }));
    assert.equal(s.add(1, reply({ result: 'b' })).k, 'more');
    s.asked.add(4);
    assert.equal(s.add(2, reply({ result: 'c' })).k, 'sync', 'at 4f+1 asked an eager round that cannot agree moves on, as before');
  });

  void it('gives up after the retry limit', () => {
    const r = new RangeRead(0 as ShardId, T, q, 1, false);
    for (let i = 0; i < q.queryFanout; i++) r.asked.add(i);
    for (let i = 0; i < 4; i++) r.add(i, reply({ result: `r${i}` }));
    assert.equal(r.retry, 1);
    for (let i = 0; i < q.n; i++) r.asked.add(i);
    const steps = [0, 1, 2, 3].map((i) => r.add(i, reply({ retry: 1, result: `b${i}` })).k);
    assert.deepEqual(steps, ['wait', 'wait', 'wait', 'failed']);
    assert.equal(r.add(4, reply({ retry: 1 })).k, 'wait');
  });

  void it('with forceSync treats a matching eager round as failed once 3f+1 replies are in', () => {
    const r = fresh(true);
    for (let i = 0; i < 3; i++) assert.equal(r.add(i, reply()).k, 'wait');
    assert.equal(r.add(3, reply()).k, 'sync');
  });

  void it('ignores replies with unsorted read sets or versions not below T', () => {
    const r = fresh();
    assert.equal(r.add(0, reply({ reads: [{ key: 'b', version: ts(1) }, { key: 'a', version: ts(1) }] })).k, 'wait');
    assert.equal(r.add(1, reply({ reads: [{ key: 'a', version: { micros: 1000, clientId: 1 } }] })).k, 'wait');
    assert.equal(r.replyCount, 0);
  });

  void it('matches replies sharing one decoded read set, and still checks a shared set that is unsorted or not below T', () => {
    const shared: ReadEntry[] = [{ key: 'a', version: ts(10) }, { key: 'b', version: ts(20) }];
    const r = fresh();
    for (let i = 0; i < 3; i++) assert.equal(r.add(i, reply({ reads: shared })).k, 'wait');
    // A reply with its own, different array still joins no group it does not match.
    assert.equal(r.add(4, reply({ reads: [{ key: 'a', version: ts(10) }, { key: 'b', version: ts(21) }] })).k, 'wait');
    const step = r.add(3, reply({ reads: shared }));
    assert.equal(step.k, 'done');
    if (step.k === 'done') assert.equal(step.ok.reads, shared);
    const bad: ReadEntry[] = [{ key: 'b', version: ts(10) }, { key: 'a', version: ts(20) }];
    const late: ReadEntry[] = [{ key: 'a', version: T }];
    const r2 = fresh();
    for (let i = 0; i < 5; i++) assert.equal(r2.add(i, reply({ reads: i % 2 === 0 ? bad : late })).k, 'wait');
    assert.equal(r2.replyCount, 0);
  });

  void it('moves on at a timeout only with 3f+1 replies in', () => {
    const r = fresh();
    r.add(0, reply({ result: 'a' }));
    r.add(1, reply({ result: 'b' }));
    assert.equal(r.onTimeout().k, 'wait');
    r.add(2, reply({ result: 'c' }));
    r.add(3, reply({ result: 'd' }));
    assert.equal(r.retry, 1); // four distinct results with one outstanding: already synced
  });
});

/** `reply(o)` as a digest-only reply: the digest of its result and reads in their place (decision 0027). */
function digestReply(o: Parameters<typeof reply>[0] = {}): QueryReply {
  const full = reply(o);
  return { ...full, result: new Uint8Array(0), reads: [], digestOnly: true, bodyDigest: queryBodyDigest(full.result, full.reads) };
}

/** A read asked of 4f+1 replicas (ClientCoreOptions.queryEagerQuorum off): the first f+1 (0 and 1) are designated. */
function designated(): RangeRead {
  const r = new RangeRead(0 as ShardId, T, q, 2, false);
  assert.deepEqual(r.ask([0, 1, 2, 3, 4]), [false, false, true, true, true]);
  return r;
}

void describe('RangeRead with digest-only replies', () => {
  void it('succeeds with a designated full reply and 3f digests of the same body, taking the body from the full reply', () => {
    const r = designated();
    const pred = (v: number): Predicate => ({ table: 1, tableVersion: ts(v), expr: bytes('p') });
    for (const i of [2, 3, 4]) assert.equal(r.add(i, digestReply({ result: 'good', predicates: [pred(40 + i)] })).k, 'wait');
    const step = r.add(0, reply({ result: 'good', predicates: [pred(50)] }));
    assert.equal(step.k, 'done');
    if (step.k !== 'done') return;
    assert.deepEqual(step.ok.result, bytes('good'));
    assert.deepEqual(step.ok.reads, [{ key: 'a', version: ts(10) }]);
    // Digest replies' predicates count for the table version like any other.
    assert.deepEqual(step.ok.predicates[0]!.tableVersion, ts(42));
  });

  void it('designates one of 3f+1 asked (every reply is needed anyway) and succeeds with its body', () => {
    const r = new RangeRead(0 as ShardId, T, q, 2, false);
    assert.deepEqual(r.ask([3, 0, 1, 2]), [false, true, true, true]);
    for (const i of [0, 1, 2]) assert.equal(r.add(i, digestReply({ result: 'good' })).k, 'wait');
    const step = r.add(3, reply({ result: 'good' }));
    assert.equal(step.k, 'done');
    if (step.k === 'done') assert.deepEqual(step.ok.result, bytes('good'));
  });

  void it('asks a replica added while the designated one is silent for the full reply, and succeeds without the silent one', () => {
    const r = new RangeRead(0 as ShardId, T, q, 2, false);
    assert.deepEqual(r.ask([0, 1, 2, 3]), [false, true, true, true]);
    for (const i of [1, 2, 3]) assert.equal(r.add(i, digestReply({ result: 'good' })).k, 'wait');
    assert.equal(r.onTimeout().k, 'wait');
    assert.deepEqual(r.ask([4]), [false], 'widened while designated replica 0 has not answered');
    const step = r.add(4, reply({ result: 'good' }));
    assert.equal(step.k, 'done');
    if (step.k === 'done') assert.deepEqual(step.ok.result, bytes('good'));
  });

  void it('never takes a body that does not hash to the digest 3f+1 replicas sent: a lying designated replica is an outlier', () => {
    const r = designated();
    assert.equal(r.add(0, reply({ result: 'lie' })).k, 'wait');
    for (const i of [2, 3, 4]) assert.equal(r.add(i, digestReply({ result: 'good' })).k, 'wait');
    const step = r.add(1, reply({ result: 'good' }));
    assert.equal(step.k, 'done');
    if (step.k !== 'done') return;
    assert.deepEqual(step.ok.result, bytes('good'));
    assert.deepEqual([...r.roundOutliers], [0]);
  });

  void it('does not wait for a silent designated replica: any 3f+1 of the 4f+1 asked include a full reply', () => {
    const r = designated();
    for (const i of [2, 3]) assert.equal(r.add(i, digestReply({ result: 'good' })).k, 'wait');
    assert.equal(r.add(1, reply({ result: 'good' })).k, 'wait');
    const step = r.add(4, digestReply({ result: 'good' }));
    assert.equal(step.k, 'done');
  });

  void it('asks f+1 members of a bodiless 3f+1 group for the body at once when the designated replicas answered outside it, and takes only one that hashes to their digest', () => {
    const r = designated();
    assert.equal(r.add(0, reply({ result: 'lie' })).k, 'wait');
    assert.equal(r.add(1, reply({ result: 'stale' })).k, 'wait');
    assert.deepEqual(r.ask([5]), [true], 'widened once every designated replica answered: a digest');
    for (const i of [2, 3, 4]) assert.equal(r.add(i, digestReply({ result: 'good' })).k, 'wait');
    const ask = r.add(5, digestReply({ result: 'good' }));
    assert.equal(ask.k, 'more');
    if (ask.k !== 'more') return;
    assert.deepEqual([...ask.targets], [2, 3]);
    assert.deepEqual(r.ask([2, 3]), [false, false]);
    // A body that does not hash to the group's digest (the state moved, or a lie) is not taken.
    assert.equal(r.add(3, reply({ result: 'other' })).k, 'wait');
    const step = r.add(2, reply({ result: 'good' }));
    assert.equal(step.k, 'done');
    if (step.k !== 'done') return;
    assert.deepEqual(step.ok.result, bytes('good'));
    assert.deepEqual([...r.roundOutliers], [0, 1]);
  });

  void it('waits for a full reply still awaited before asking for the body, then asks on the round timer', () => {
    const r = designated();
    for (const i of [2, 3, 4]) assert.equal(r.add(i, digestReply({ result: 'good' })).k, 'wait');
    // 0 and 1 silent: 5 is asked for the full reply, but sends a digest.
    assert.deepEqual(r.ask([5]), [false]);
    assert.equal(r.add(5, digestReply({ result: 'good' })).k, 'wait');
    const ask = r.onTimeout();
    assert.equal(ask.k, 'more');
    if (ask.k === 'more') assert.deepEqual([...ask.targets], [2, 3]);
  });

  void it('moves to a sync round when 3f+1 digests agree and no replica ever sends their body', () => {
    const r = designated();
    assert.deepEqual(r.ask([5]), [false]);
    for (const i of [2, 3, 4, 5]) r.add(i, digestReply({ result: 'made up', committed: [i] }));
    assert.equal(r.onTimeout().k, 'more');
    // A repeated digest is not a body.
    assert.equal(r.add(2, digestReply({ result: 'made up' })).k, 'wait');
    assert.equal(r.onTimeout().k, 'more');
    const sync = r.onTimeout();
    assert.equal(sync.k, 'sync');
    assert.equal(r.retry, 1);
    // The new round designates anew.
    assert.deepEqual(r.ask([3, 0, 1, 2]), [false, true, true, true]);
  });

  void it('asks every replica for the full reply when digest replies are off', () => {
    const r = new RangeRead(0 as ShardId, T, q, 2, false, false);
    assert.deepEqual(r.ask([0, 1, 2, 3, 4]), [false, false, false, false, false]);
  });
});

void describe('RangeRead round timer', () => {
  void it('reports replicas lagging only when some had answered by the previous firing', () => {
    const r = fresh();
    assert.equal(r.laggingAtTimeout(), false, 'nobody answered: the host is slow, not some replicas');
    assert.equal(r.laggingAtTimeout(), false);
    r.add(0, reply());
    assert.equal(r.laggingAtTimeout(), false, 'answered within this period');
    assert.equal(r.laggingAtTimeout(), true, 'a whole period behind a peer');
  });
});
