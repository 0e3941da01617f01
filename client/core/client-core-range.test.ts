import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { ShardId } from '../../protocol/ids.ts';
import type { Message } from '../../protocol/messages.ts';
import { ts, type Timestamp } from '../../protocol/timestamp.ts';
import { EARLY_RESULT_BYTES } from './client-options.ts';
import type { ClientEffect } from './effects.ts';
import { dones, KEY0, newClient, Q, range, sentOf, type Sent } from './client-core-fixture.ts';

void describe('ClientCore range reads (PROTOCOL §4.2)', () => {
  const result = new Uint8Array([1, 2, 3]);
  const reply = (q: Sent<Extract<Message, { kind: 'query' }>>, o: { result?: Uint8Array; version?: Timestamp; retry?: number } = {}): Message => ({
    kind: 'queryReply',
    req: q.msg.req,
    retry: o.retry ?? q.msg.retry,
    result: o.result ?? result,
    reads: [{ key: KEY0, version: o.version ?? ts(10, 3) }],
    predicates: [{ table: 5, tableVersion: ts(9, 3), expr: new Uint8Array([7]) }],
    deps: [],
    snapshotCommitted: [],
    snapshotPrepared: [],
  });

  void it('asks 3f+1 replicas first by default, widens to the (4f+1)th when one disagrees, and succeeds with 3f+1 matching (decision 0047)', () => {
    const client = newClient();
    const id = client.begin();
    client.query(id, { shard: 0 as ShardId, sql: 'SELECT 1', params: new Uint8Array(0), ownWrites: [], recon: false }, 1);
    const first = sentOf(client.takeEffects(), 'query');
    assert.equal(first.length, Q.commitSlow);
    // One of them disagrees: the others can no longer reach 3f+1 alone, so one more replica is asked.
    first.forEach((q, i) => client.handle(q.to, reply(q, i === 0 ? { result: new Uint8Array([9]) } : {})));
    const widened = sentOf(client.takeEffects(), 'query');
    assert.equal(widened.length, Q.queryFanout - Q.commitSlow);
    assert.ok(widened.every((q) => q.msg.retry === 0 && !first.some((f) => f.to.index === q.to.index)));
    client.handle(widened[0]!.to, reply(widened[0]!));
    const [d] = dones(client.takeEffects());
    assert.equal(d?.result.kind, 'query');
    assert.equal(client.stats.queriesEager, 1);
  });

  void it('hands the first full reply of a large result out early, once, while more replies are awaited (QuerySpec.early, decision 0052)', () => {
    const big = new Uint8Array(EARLY_RESULT_BYTES).fill(4);
    const earlies = (effects: readonly ClientEffect[]): ClientEffect[] => effects.filter((e) => e.kind === 'early');
    const run = (opts: Parameters<typeof newClient>[0], spec: { early?: boolean }, size: Uint8Array): ClientEffect[][] => {
      const client = newClient(opts);
      const id = client.begin();
      client.query(id, { shard: 0 as ShardId, sql: 'SELECT 1', params: new Uint8Array(0), ownWrites: [], recon: false, ...spec }, 1);
      const queries = sentOf(client.takeEffects(), 'query');
      const out: ClientEffect[][] = [];
      for (const q of queries) {
        client.handle(q.to, reply(q, { result: size }));
        out.push(client.takeEffects());
      }
      return out;
    };
    const asked = run({}, { early: true }, big);
    assert.deepEqual(earlies(asked[0]!), [{ kind: 'early', op: 1, result: big }], 'the first reply');
    assert.ok(asked.slice(1).every((effects) => earlies(effects).length === 0), 'once');
    assert.equal(dones(asked.at(-1)!).length, 1, 'the agreed result follows as usual');
    assert.ok(run({}, {}, big).every((effects) => earlies(effects).length === 0), 'not asked for');
    assert.ok(run({}, { early: true }, big.subarray(1)).every((effects) => earlies(effects).length === 0), 'a small result');
    // Every eager round forced to fail: the eager round's replies are not handed out.
    assert.ok(run({ forceSyncQueries: true }, { early: true }, big).every((effects) => earlies(effects).length === 0), 'forced sync');
  });

  void it('with queryEagerQuorum off sends the eager round to 4f+1, and with 3f+1 matching replies merges reads and predicates into the transaction', () => {
    const client = newClient({ queryEagerQuorum: false });
    const id = client.begin();
    client.query(id, { shard: 0 as ShardId, sql: 'SELECT 1', params: new Uint8Array(0), ownWrites: [], recon: false }, 1);
    const queries = sentOf(client.takeEffects(), 'query');
    assert.equal(queries.length, Q.queryFanout);
    assert.ok(queries.every((q) => q.to.shard === 0 && q.msg.retry === 0 && q.msg.snapshot.length === 0));
    for (const q of queries.slice(0, Q.commitSlow - 1)) client.handle(q.to, reply(q));
    assert.equal(dones(client.takeEffects()).length, 0);
    client.handle(queries[Q.commitSlow - 1]!.to, reply(queries[Q.commitSlow - 1]!));
    const [d] = dones(client.takeEffects());
    assert.equal(d?.result.kind, 'query');
    client.commit(id, 2);
    const prepares = sentOf(client.takeEffects(), 'prepare');
    const body = prepares[0]!.msg.txn.body;
    assert.deepEqual(body.reads, [{ key: KEY0, version: ts(10, 3) }]);
    assert.deepEqual(body.predicates, [{ table: 5, tableVersion: ts(9, 3), expr: new Uint8Array([7]) }]);
    assert.equal(client.stats.queriesEager, 1);
  });

  void it('a range read that saw another version of a key the transaction read dooms it: commit aborts locally', () => {
    const client = newClient();
    const id = client.begin();
    client.noteRead(id, KEY0, ts(5, 3), new Uint8Array([9]));
    client.query(id, { shard: 0 as ShardId, sql: 'SELECT 1', params: new Uint8Array(0), ownWrites: [], recon: false }, 1);
    const queries = sentOf(client.takeEffects(), 'query');
    for (const q of queries.slice(0, Q.commitSlow)) client.handle(q.to, reply(q));
    client.takeEffects();
    client.commit(id, 2);
    const effects = client.takeEffects();
    assert.equal(sentOf(effects, 'prepare').length, 0);
    const [d] = dones(effects);
    assert.ok(d?.result.kind === 'commit' && d.result.outcome === 'abort' && d.result.path === 'local');
  });

  void it('mismatching eager replies (4f+1 asked) lead to a sync round to 3f+1, widened to all n once they disagree, and an unresolvable read fails the operation', () => {
    const client = newClient({ queryEagerQuorum: false });
    const id = client.begin();
    client.query(id, { shard: 0 as ShardId, sql: 'SELECT 1', params: new Uint8Array(0), ownWrites: [], recon: false }, 1);
    const eager = sentOf(client.takeEffects(), 'query');
    eager.forEach((q, i) => client.handle(q.to, reply(q, { result: new Uint8Array([i]) })));
    let round = sentOf(client.takeEffects(), 'query');
    let outcome: unknown;
    for (let retry = 1; round.length > 0; retry++) {
      assert.equal(round.length, Q.commitSlow);
      // Answer every query of this round, each differently, including those the client adds.
      const pending = [...round];
      const asked = new Set<number>();
      round = [];
      for (let i = 0; pending.length > 0; i++) {
        const q = pending.shift()!;
        assert.equal(q.msg.retry, retry);
        asked.add(q.to.index);
        client.handle(q.to, reply(q, { result: new Uint8Array([i]) }));
        const effects = client.takeEffects();
        for (const s of sentOf(effects, 'query')) (s.msg.retry === retry ? pending : round).push(s);
        outcome ??= dones(effects)[0]?.result;
      }
      assert.equal(asked.size, Q.n);
    }
    assert.deepEqual(outcome, { kind: 'failed', reason: 'query-unresolved' });
    assert.equal(client.stats.queriesFailed, 1);
  });
});

