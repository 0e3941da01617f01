import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { encodeTxn } from '../../protocol/codec.ts';
import type { ClientId, ShardId } from '../../protocol/ids.ts';
import type { Decide, DecideReply, Key, Message, Outcome, Prepare, PrepareReply, ReadEntry, ReadReply, ReadRequest, Txn, TxnBody, Writeback } from '../../protocol/messages.ts';
import { logShardOf, shardOfKey } from '../../protocol/sharding.ts';
import { st2Leaf, voteLeaf } from '../../protocol/statements.ts';
import { TimestampAllocator, ts, tsLess, type Timestamp } from '../../protocol/timestamp.ts';
import { ClientCore } from './client-core.ts';
import { rowKey, tablePrefix } from '../../sql/row-key.ts';
import { dones, KEY0, KEY1, keyOn, N, newClient, NOW, OPTS, Q, range, ref, seeded, sentOf, SHARDS, sigOf, timers, type Sent } from './client-core-fixture.ts';

function vote(p: Sent<Prepare>, decision: 'commit' | 'abstain'): PrepareReply {
  const { shard, index } = p.to;
  return { kind: 'prepareReply', req: p.msg.req, digest: p.msg.txn.digest, shard, decision, sig: sigOf(voteLeaf(p.msg.txn.digest, shard, decision), shard, index), conflict: null, decided: null, conflictPrepared: null };
}

function decideReply(d: Sent<Decide>, decision: Outcome = d.msg.decision): DecideReply {
  const { shard, index } = d.to;
  return { kind: 'decideReply', req: d.msg.req, digest: d.msg.digest, decision, view: 0, logShard: shard, sig: sigOf(st2Leaf(d.msg.digest, shard, decision, 0), shard, index) };
}

/** Begins a transaction writing one key on each shard and commits it; returns the ST1 messages. */
function committing(client: ClientCore): { prepares: Sent<Prepare>[]; txn: Txn } {
  const id = client.begin();
  client.write(id, KEY0, new Uint8Array([1]));
  client.write(id, KEY1, new Uint8Array([2]));
  client.commit(id, 100);
  const prepares = sentOf(client.takeEffects(), 'prepare');
  assert.equal(prepares.length, SHARDS * N);
  return { prepares, txn: prepares[0]!.msg.txn };
}

function answer(client: ClientCore, prepares: Sent<Prepare>[], pick: (p: Sent<Prepare>) => 'commit' | 'abstain' | null): void {
  for (const p of prepares) {
    const d = pick(p);
    if (d !== null) client.handle(p.to, vote(p, d));
  }
}

function writebackTargets(wbs: Sent<Writeback>[], withTxn: boolean): string[] {
  return wbs.filter((w) => (w.msg.txn !== null) === withTxn).map((w) => `${w.to.shard}/${w.to.index}`);
}

void describe('ClientCore commit (PROTOCOL §6)', () => {
  void it('commits on the fast path with n COMMIT votes per shard and writes back to every replica', () => {
    const client = newClient();
    const { prepares, txn } = committing(client);
    assert.deepEqual(txn.body.shards, [0, 1]);
    answer(client, prepares, () => 'commit');
    const effects = client.takeEffects();
    assert.deepEqual(dones(effects), [{ op: 100, result: { kind: 'commit', outcome: 'commit', path: 'fast' } }]);
    const wbs = sentOf(effects, 'writeback');
    assert.equal(wbs.length, SHARDS * N);
    assert.deepEqual(writebackTargets(wbs, true), [], 'every replica voted, so none needs the transaction bytes');
    assert.ok(wbs.every((w) => w.msg.cert.kind === 'votes' && w.msg.cert.votes.decision === 'commit'));
    assert.equal(client.stats.fastCommits, 1);
  });

  void it('involves every shard in a write of the catalog (table 0), and no extra shard for a read of it', () => {
    const CATALOG = '\x00\x00\x00\x00catalog';
    const shardsOf = (body: (client: ClientCore, id: number) => void): readonly number[] => {
      const client = newClient();
      const id = client.begin();
      body(client, id);
      client.commit(id, 100);
      return sentOf(client.takeEffects(), 'prepare')[0]?.msg.txn.body.shards ?? [];
    };
    assert.deepEqual(shardsOf((c, id) => c.write(id, CATALOG, new Uint8Array([1]))), [0, 1]);
    assert.deepEqual(shardsOf((c, id) => (c.noteRead(id, CATALOG, ts(NOW - 10, 1), new Uint8Array([1])), c.write(id, KEY1, new Uint8Array([2])))), [1], 'shard 1 validates the catalog read too');
    assert.deepEqual(shardsOf((c, id) => c.noteRead(id, CATALOG, ts(NOW - 10, 1), new Uint8Array([1]))), [0], 'a transaction that read only the catalog is validated on shard 0');
  });

  void it('logs the commit after the fast-path timer with exactly 3f+1 votes per shard, then commits on 4f+1 ST2 replies', () => {
    const client = newClient();
    const { prepares, txn } = committing(client);
    // Shard 0: five COMMIT votes; shard 1: four.
    answer(client, prepares, (p) => (p.to.index < (p.to.shard === 0 ? 5 : 4) ? 'commit' : null));
    const effects = client.takeEffects();
    assert.deepEqual(dones(effects), []);
    const fastTimer = timers(effects).find((t) => t.afterMs === OPTS.fastPathWaitMs);
    assert.ok(fastTimer !== undefined);
    client.onTimer(fastTimer.id);

    const decides = sentOf(client.takeEffects(), 'decide');
    const log = logShardOf(txn.digest, txn.body.shards);
    assert.deepEqual(
      decides.map((d) => d.to),
      range(0, N).map((i) => ref(log, i)),
    );
    assert.deepEqual(
      decides[0]!.msg.justification.shards.map((g) => [g.shard, g.sigs.length]),
      [
        [0, Q.commitSlow],
        [1, Q.commitSlow],
      ],
    );
    for (const d of decides.slice(0, Q.st2)) client.handle(d.to, decideReply(d));
    const end = client.takeEffects();
    assert.deepEqual(dones(end), [{ op: 100, result: { kind: 'commit', outcome: 'commit', path: 'slow' } }]);
    const wbs = sentOf(end, 'writeback');
    assert.equal(wbs.length, SHARDS * N);
    assert.deepEqual(writebackTargets(wbs, true), ['0/5', '1/4', '1/5'], 'only replicas that did not vote get the transaction bytes');
    assert.equal(client.stats.slowCommits, 1);
  });

  void it(
    'aborts on the fast path with exactly 3f+1 ABSTAIN signatures',
    () => {
      const client = newClient();
      const { prepares } = committing(client);
      answer(client, prepares, (p) => (p.to.shard === 1 && p.to.index < Q.abortFast ? 'abstain' : null));
      const effects = client.takeEffects();
      assert.deepEqual(dones(effects), [{ op: 100, result: { kind: 'commit', outcome: 'abort', path: 'fast', cause: 'abstained' } }]);
      const cert = sentOf(effects, 'writeback')[0]!.msg.cert;
      assert.ok(cert.kind === 'votes');
      assert.deepEqual(
        cert.votes.shards.map((g) => [g.shard, g.sigs.length]),
        [[1, Q.abortFast]],
      );
    },
  );

  void it('aborts through ST2 once ABSTAIN votes make both 3f+1 COMMIT and 3f+1 ABSTAIN impossible', () => {
    const client = newClient();
    const { prepares } = committing(client);
    answer(client, prepares, (p) => (p.to.shard === 1 ? (p.to.index < 2 * Q.f + 1 ? 'abstain' : 'commit') : null));
    const decides = sentOf(client.takeEffects(), 'decide');
    assert.equal(decides.length, N);
    assert.equal(decides[0]!.msg.decision, 'abort');
    assert.deepEqual(
      decides[0]!.msg.justification.shards.map((g) => [g.shard, g.sigs.length]),
      [[1, Q.abortSlow]],
    );
    for (const d of decides.slice(0, Q.st2)) client.handle(d.to, decideReply(d));
    assert.deepEqual(dones(client.takeEffects()), [{ op: 100, result: { kind: 'commit', outcome: 'abort', path: 'slow', cause: 'abstained' } }]);
    assert.equal(client.stats.aborted, 1);
  });

  void it('commits a transaction that touched nothing locally', () => {
    const client = newClient();
    const id = client.begin();
    client.commit(id, 9);
    assert.deepEqual(client.takeEffects(), [{ kind: 'done', op: 9, result: { kind: 'commit', outcome: 'commit', path: 'local' } }]);
  });
});

function committedReply(req: ReadRequest, at: Timestamp, value: Uint8Array): ReadReply {
  const writer = encodeTxn({ ts: at, shards: [shardOfKey(req.key, SHARDS)], reads: [], writes: [{ key: req.key, value }], deps: [], predicates: [], meta: new Uint8Array(0) });
  return { kind: 'readReply', req: req.req, key: req.key, committed: { version: at, value, digest: writer.digest, proof: { txn: writer, cert: { kind: 'votes', votes: { decision: 'commit', shards: [] } } } }, prepared: null };
}

function bareReply(req: ReadRequest, at: Timestamp, value: Uint8Array): ReadReply {
  const r = committedReply(req, at, value);
  return { ...r, committed: { ...r.committed!, proof: null } };
}

void describe('ClientCore reads (PROTOCOL §3, §4.1)', () => {
  void it('reads its own buffered writes without asking a replica', () => {
    const client = newClient();
    const id = client.begin();
    const t = client.timestampOf(id)!;
    client.write(id, KEY0, new Uint8Array([9]));
    client.read(id, KEY0, 1);
    client.write(id, KEY1, null);
    client.read(id, KEY1, 2);
    assert.deepEqual(client.takeEffects(), [
      { kind: 'done', op: 1, result: { kind: 'read', value: new Uint8Array([9]), version: t } },
      { kind: 'done', op: 2, result: { kind: 'read', value: null, version: t } },
    ]);
  });

  void it('returns the first read when the same key is read twice', () => {
    const client = newClient();
    const id = client.begin();
    client.read(id, KEY0, 1);
    const reqs = sentOf(client.takeEffects(), 'read');
    assert.equal(reqs.length, Q.read);
    for (const r of reqs) client.handle(r.to, committedReply(r.msg, ts(1_000, 3), new Uint8Array([4])));
    assert.deepEqual(dones(client.takeEffects()), [{ op: 1, result: { kind: 'read', value: new Uint8Array([4]), version: ts(1_000, 3) } }]);

    client.read(id, KEY0, 2);
    const again = client.takeEffects();
    assert.deepEqual(again, [{ kind: 'done', op: 2, result: { kind: 'read', value: new Uint8Array([4]), version: ts(1_000, 3) } }]);
    assert.equal(client.stats.reads, 1);
  });

  void it('counts an invalid reply and asks the remaining replicas', () => {
    const client = newClient();
    const id = client.begin();
    client.read(id, KEY0, 1);
    const reqs = sentOf(client.takeEffects(), 'read');
    const bad = { ...committedReply(reqs[0]!.msg, ts(1_000, 3), new Uint8Array([4])), key: 'other' };
    client.handle(reqs[0]!.to, bad);
    assert.equal(client.stats.badReplies['wrong-key'], 1);
    assert.equal(sentOf(client.takeEffects(), 'read').length, N - Q.read);
  });

  void it('reads a version without its proof when f+1 replicas report it (decision 0010)', () => {
    const client = newClient();
    const id = client.begin();
    client.read(id, KEY0, 1);
    const reqs = sentOf(client.takeEffects(), 'read');
    assert.ok(reqs.every((r) => !r.msg.proof), 'the first round asks for no proof');
    for (const r of reqs) client.handle(r.to, bareReply(r.msg, ts(1_000, 3), new Uint8Array([4])));
    assert.deepEqual(dones(client.takeEffects()), [{ op: 1, result: { kind: 'read', value: new Uint8Array([4]), version: ts(1_000, 3) } }]);
    assert.equal(client.stats.readProofRequests, 0);
  });

  void it('never reads a forged version: asks for its proof, and stops believing a replica that has none', () => {
    const client = newClient();
    const id = client.begin();
    client.read(id, KEY0, 1);
    const first = client.takeEffects();
    const [forger, honest] = sentOf(first, 'read');
    const readTimer = timers(first)[0]!.id;
    // The forger claims a fresher committed value, with no proof; the honest replica reports the real one.
    client.handle(forger!.to, bareReply(forger!.msg, ts(2_000, 9), new Uint8Array([66])));
    client.handle(honest!.to, bareReply(honest!.msg, ts(1_000, 3), new Uint8Array([4])));
    const ask = sentOf(client.takeEffects(), 'read');
    assert.deepEqual(ask.map((a) => [a.to, a.msg.proof]), [[forger!.to, true]], 'the fresher version needs its proof');
    // The forger answers again without a proof: it is not believed.
    client.handle(forger!.to, bareReply(ask[0]!.msg, ts(2_000, 9), new Uint8Array([66])));
    assert.deepEqual(dones(client.takeEffects()), []);
    // On the retry timer the honest replica's version needs its own proof, which it has.
    client.onTimer(readTimer);
    const next = sentOf(client.takeEffects(), 'read');
    const proofAsk = next.find((a) => a.msg.proof);
    assert.deepEqual(proofAsk?.to, honest!.to);
    client.handle(honest!.to, committedReply(proofAsk!.msg, ts(1_000, 3), new Uint8Array([4])));
    assert.deepEqual(dones(client.takeEffects()), [{ op: 1, result: { kind: 'read', value: new Uint8Array([4]), version: ts(1_000, 3) } }]);
  });
});

void describe('ClientCore recovery (PROTOCOL §7)', () => {
  /**
   * A transaction (op 2) that read KEY0 from a prepared dependency `dep` (op 1) and writes KEY1, its ST1
   * sent; `p` is its ST1 to a replica of the dependency's shard, which relays `dep`.
   */
  function committingOnPrepared(client: ClientCore): { dep: Txn; xShard: ShardId; readDones: ReturnType<typeof dones>; prepares: Sent<Prepare>[]; txn: Txn; p: Sent<Prepare> } {
    const xShard = shardOfKey(KEY0, SHARDS);
    const dep = encodeTxn({ ts: ts(NOW - 1_000, 3), shards: [xShard], reads: [], writes: [{ key: KEY0, value: new Uint8Array([5]) }], deps: [], predicates: [], meta: new Uint8Array(0) });
    const id = client.begin();
    client.read(id, KEY0, 1);
    for (const r of sentOf(client.takeEffects(), 'read')) {
      client.handle(r.to, { kind: 'readReply', req: r.msg.req, key: KEY0, committed: null, prepared: { version: dep.body.ts, value: new Uint8Array([5]), digest: dep.digest } });
    }
    const readDones = dones(client.takeEffects());
    client.write(id, KEY1, new Uint8Array([6]));
    client.commit(id, 2);
    const prepares = sentOf(client.takeEffects(), 'prepare');
    const txn = prepares[0]!.msg.txn;
    const p = prepares.find((x) => x.to.shard === xShard)!;
    return { dep, xShard, readDones, prepares, txn, p };
  }

  /** The recovery the client runs for `dep`: ST1 with `dep` to every replica of its shard. */
  function assertRecovers(client: ClientCore, dep: Txn, xShard: ShardId): void {
    const recovery = sentOf(client.takeEffects(), 'prepare');
    assert.deepEqual(
      recovery.map((x) => x.to),
      range(0, N).map((i) => ref(xShard, i)),
    );
    assert.ok(recovery.every((x) => x.msg.txn === dep));
  }

  void it('finishes a relayed dependency itself after the relay timer', () => {
    const client = newClient();
    const { dep, xShard, readDones, txn, p } = committingOnPrepared(client);
    assert.deepEqual(readDones, [{ op: 1, result: { kind: 'read', value: new Uint8Array([5]), version: dep.body.ts } }]);
    assert.deepEqual(txn.body.deps, [{ digest: dep.digest, shard: xShard, ts: dep.body.ts }]);

    client.handle(p.to, { kind: 'relay', req: p.msg.req, waitingDigest: txn.digest, txn: dep });
    const relayTimers = timers(client.takeEffects());
    assert.deepEqual(
      relayTimers.map((t) => t.afterMs),
      [OPTS.relayWaitMs],
    );
    client.handle(p.to, { kind: 'relay', req: p.msg.req, waitingDigest: txn.digest, txn: dep });
    assert.deepEqual(client.takeEffects(), [], 'a repeated relay arms no second timer');

    client.onTimer(relayTimers[0]!.id);
    assertRecovers(client, dep, xShard);
    assert.equal(client.stats.recoveries, 1);
  });

  void it('finishes a relayed dependency after the waiting transaction aborted (replicas that never saw it abstain)', () => {
    const client = newClient();
    const { dep, xShard, prepares, txn, p } = committingOnPrepared(client);
    client.handle(p.to, { kind: 'relay', req: p.msg.req, waitingDigest: txn.digest, txn: dep });
    client.takeEffects();
    // The replicas that lack the dependency abstain ('dependency-missing'): 3f+1 ABSTAIN, a fast abort.
    answer(client, prepares, (x) => (x.to.shard === xShard && x.to.index !== p.to.index && x.to.index <= Q.abortFast ? 'abstain' : null));
    const effects = client.takeEffects();
    assert.deepEqual(dones(effects), [{ op: 2, result: { kind: 'commit', outcome: 'abort', path: 'fast', cause: 'abstained' } }]);
    const recoveryTimer = timers(effects).find((t) => t.afterMs === OPTS.relayWaitMs);
    assert.ok(recoveryTimer !== undefined, 'the relayed dependency is scheduled for recovery');
    client.onTimer(recoveryTimer.id);
    assertRecovers(client, dep, xShard);
  });

  void it('ignores a relay naming a transaction it does not depend on', () => {
    const client = newClient();
    const { prepares } = committing(client);
    const stranger = encodeTxn({ ts: ts(1, 9), shards: [0 as ShardId], reads: [], writes: [], deps: [], predicates: [], meta: new Uint8Array(0) });
    client.handle(prepares[0]!.to, { kind: 'relay', req: prepares[0]!.msg.req, waitingDigest: prepares[0]!.msg.txn.digest, txn: stranger });
    assert.deepEqual(client.takeEffects(), []);
  });
});

void describe('ClientCore timestamps', () => {
  void it('gives distinct timestamps to transactions of two cores of one client id that share an allocator, at the same clock reading', () => {
    const shared = new TimestampAllocator(OPTS.clientId);
    const a = new ClientCore(OPTS, { nowMicros: () => NOW, random: seeded(1) }, shared);
    const b = new ClientCore(OPTS, { nowMicros: () => NOW, random: seeded(2) }, shared);
    const stamps = [a.begin(), b.begin(), a.begin(), b.begin()].map((id, i) => (i % 2 === 0 ? a : b).timestampOf(id)!);
    assert.equal(new Set(stamps.map((t) => `${t.micros}.${t.clientId}`)).size, 4);
    assert.throws(() => new ClientCore({ ...OPTS, clientId: 9 as ClientId }, { nowMicros: () => NOW, random: seeded(3) }, shared), /allocator of client/);
  });
});

void describe('ClientCore for bulk loads (decision 0012)', () => {
  const T5 = 5;
  const privateKey = rowKey(T5, 'row');
  type QueryMsg = Sent<Extract<Message, { kind: 'query' }>>;
  const replyWith = (q: QueryMsg, reads: ReadEntry[], tableVersion: Timestamp, table = 9): Message => ({
    kind: 'queryReply', req: q.msg.req, retry: q.msg.retry, result: new Uint8Array([1]),
    reads, predicates: [{ table, tableVersion, expr: new Uint8Array([7]) }], deps: [], snapshotCommitted: [], snapshotPrepared: [],
  });
  /** Runs one range read of transaction `id` to completion with identical replies. */
  function rangeRead(client: ClientCore, id: number, reply: (q: QueryMsg) => Message, readsAsPredicates?: number): void {
    client.query(id, { shard: 0 as ShardId, sql: 'SELECT 1', params: new Uint8Array(0), ownWrites: [], recon: false, ...(readsAsPredicates === undefined ? {} : { readsAsPredicates }) }, 1);
    for (const q of sentOf(client.takeEffects(), 'query').slice(0, Q.commitSlow)) client.handle(q.to, reply(q));
    assert.equal(dones(client.takeEffects())[0]?.result.kind, 'query');
  }
  function bodyOf(client: ClientCore, id: number): TxnBody {
    client.write(id, KEY0, new Uint8Array([1]));
    client.commit(id, 2);
    return sentOf(client.takeEffects(), 'prepare')[0]!.msg.txn.body;
  }

  void it('moves a transaction past every transaction begun since, keeps its read versions, and caps predicate versions at the read timestamp', () => {
    let now = NOW;
    const client = new ClientCore(OPTS, { nowMicros: () => now, random: seeded(1) });
    const id = client.begin();
    const t = client.timestampOf(id)!;
    // The replicas report a table version above T (a later reader raised the high-water mark).
    rangeRead(client, id, (q) => replyWith(q, [{ key: KEY1, version: ts(NOW - 10, 3) }], ts(NOW + 500, 3)));
    now += 100;
    const batch = client.begin();
    const moved = client.advance(id)!;
    assert.ok(tsLess(client.timestampOf(batch)!, moved) && tsLess(t, moved));
    // A statement after the move reports its own version, capped at its own (new) timestamp only.
    rangeRead(client, id, (q) => replyWith(q, [], ts(NOW + 50, 3), 8));
    const body = bodyOf(client, id);
    assert.deepEqual(body.ts, moved);
    assert.deepEqual(body.reads, [{ key: KEY1, version: ts(NOW - 10, 3) }]);
    assert.deepEqual(body.predicates.map((p) => [p.table, p.tableVersion]), [[9, t], [8, ts(NOW + 50, 3)]]);
  });

  void it('records no reads or predicates on a private storage', () => {
    const client = newClient();
    const id = client.begin();
    client.markPrivate(id, tablePrefix(T5));
    rangeRead(client, id, (q) => replyWith(q, [{ key: KEY1, version: ts(10, 3) }, { key: privateKey, version: ts(11, 3) }].sort((a, b) => (a.key < b.key ? -1 : 1)), ts(9, 3), T5));
    const body = bodyOf(client, id);
    assert.deepEqual(body.reads, [{ key: KEY1, version: ts(10, 3) }]);
    assert.deepEqual(body.predicates, []);
  });

  void it('with readsAsPredicates keeps only read-set entries within the window below the table version', () => {
    const client = newClient();
    const id = client.begin();
    const [old, recent] = [keyOn(0, 'old'), keyOn(0, 'new')];
    rangeRead(client, id, (q) => replyWith(q, [{ key: old, version: ts(NOW - 5000, 3) }, { key: recent, version: ts(NOW - 1500, 3) }].sort((a, b) => (a.key < b.key ? -1 : 1)), ts(NOW - 1000, 3)), 1000);
    const body = bodyOf(client, id);
    assert.deepEqual(body.reads, [{ key: recent, version: ts(NOW - 1500, 3) }]);
    assert.equal(body.predicates.length, 1);
  });
});

void describe('ClientCore and the replicas\' history window', () => {
  // Replicas refuse reads below their low watermark without answering: a transaction older than the
  // window must fail its reads instead of retrying them forever.
  const WINDOW = 15_000_000;
  const clocked = (): { client: ClientCore; clock: { now: number } } => {
    const clock = { now: NOW };
    return { client: new ClientCore({ ...OPTS, staleAfterMicros: WINDOW }, { nowMicros: () => clock.now, random: seeded(7) }), clock };
  };
  const spec = { shard: 0 as ShardId, sql: 'SELECT 1', params: new Uint8Array(0), ownWrites: [], recon: false };

  void it('a read or range read of a transaction older than the window fails with too-old, and its commit aborts locally', () => {
    const { client, clock } = clocked();
    const id = client.begin();
    clock.now += WINDOW + 1;
    client.read(id, KEY0, 1);
    client.query(id, spec, 2);
    const effects = client.takeEffects();
    assert.equal(sentOf(effects, 'read').length + sentOf(effects, 'query').length, 0, 'nothing is sent for it');
    assert.deepEqual(dones(effects), [
      { op: 1, result: { kind: 'failed', reason: 'too-old' } },
      { op: 2, result: { kind: 'failed', reason: 'too-old' } },
    ]);
    assert.equal(client.stats.tooOld, 2);
    client.commit(id, 3);
    assert.deepEqual(dones(client.takeEffects()), [{ op: 3, result: { kind: 'commit', outcome: 'abort', path: 'local', cause: 'conflict' } }]);
  });

  void it('a read still unanswered when the transaction falls behind the window fails at its next retry', () => {
    const { client, clock } = clocked();
    const id = client.begin();
    clock.now += WINDOW - 1_000;
    client.read(id, KEY0, 1);
    const first = client.takeEffects();
    assert.equal(sentOf(first, 'read').length, Q.read, 'still young enough: asked');
    const [timer] = timers(first);
    clock.now += 2_000;
    client.onTimer(timer!.id);
    const effects = client.takeEffects();
    assert.equal(sentOf(effects, 'read').length, 0, 'not asked again');
    assert.deepEqual(dones(effects), [{ op: 1, result: { kind: 'failed', reason: 'too-old' } }]);
  });

  void it('a range read still unresolved when the transaction falls behind the window fails at its next round', () => {
    const { client, clock } = clocked();
    const id = client.begin();
    client.query(id, spec, 1);
    const [timer] = timers(client.takeEffects());
    clock.now += WINDOW + 1;
    client.onTimer(timer!.id);
    const effects = client.takeEffects();
    assert.equal(sentOf(effects, 'query').length, 0);
    assert.deepEqual(dones(effects), [{ op: 1, result: { kind: 'failed', reason: 'too-old' } }]);
  });

  void it('a young transaction reads as before', () => {
    const { client, clock } = clocked();
    const id = client.begin();
    clock.now += WINDOW;
    client.read(id, KEY0, 1);
    assert.equal(sentOf(client.takeEffects(), 'read').length, Q.read);
    assert.equal(client.stats.tooOld, 0);
  });
});
