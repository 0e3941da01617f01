import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { encodeTxn } from '../../protocol/codec.ts';
import { keyPairFromSeed } from '../../protocol/crypto/ed25519.ts';
import { signBatch } from '../../protocol/crypto/signed.ts';
import type { DigestKey, ReplicaIndex, ShardId } from '../../protocol/ids.ts';
import type { Certificate, Dependency, Key, Message, Outcome, ReadReply, ReadEntry, SigProof, Txn, TxnBody, WriteEntry, Writeback } from '../../protocol/messages.ts';
import { certificateOutcome } from '../../protocol/messages.ts';
import { logShardOf } from '../../protocol/sharding.ts';
import { st2Leaf, voteLeaf } from '../../protocol/statements.ts';
import { ts, ZERO_TS, type Timestamp } from '../../protocol/timestamp.ts';
import { ReplicaCore, type ReplicaEffect } from './replica-core.ts';
import { RecordQueue, TxnRecord } from './txn-record.ts';
import { encodeMessage } from '../../protocol/codec.ts';
import { decodeLogRecord, encodeLogRecord, type LogRecord } from '../../protocol/log-record.ts';
import { StoredWriteback } from '../../protocol/stored.ts';

// f = 1: n = 6. The core trusts the shell to have verified signatures; we still sign for real.
const N = 6;
const s = (n: number): ShardId => n as ShardId;
const NOW = 10_000_000;
const keys = Array.from({ length: N }, (_, i) => keyPairFromSeed(new Uint8Array(32).fill(i + 1)));

function txnOf(at: Timestamp, over: Partial<TxnBody> = {}): Txn {
  return encodeTxn({ ts: at, shards: [s(0)], reads: [], writes: [], deps: [], predicates: [], meta: new Uint8Array(0), ...over });
}
const rd = (key: Key, version: Timestamp): ReadEntry => ({ key, version });
const wr = (key: Key, byte: number): WriteEntry => ({ key, value: new Uint8Array([byte]) });

function sigOf(leaf: Uint8Array, signer: number): SigProof {
  return signBatch([leaf], keys[signer]!.secretKey, signer)[0]!;
}

function commitCert(t: Txn, shards: readonly ShardId[] = t.body.shards): Certificate {
  return {
    kind: 'votes',
    votes: { decision: 'commit', shards: shards.map((shard) => ({ shard, sigs: keys.map((_, i) => sigOf(voteLeaf(t.digest, shard, 'commit'), i)) })) },
  };
}

function abortCert(t: Txn): Certificate {
  const shard = t.body.shards[0]!;
  return { kind: 'votes', votes: { decision: 'abstain', shards: [{ shard, sigs: [0, 1, 2, 3].map((i) => sigOf(voteLeaf(t.digest, shard, 'abstain'), i)) }] } };
}

const writeback = (t: Txn, cert: Certificate, withTxn = true): Writeback => ({ kind: 'writeback', digest: t.digest, cert, txn: withTxn ? t : null });

function newCore(): ReplicaCore {
  return new ReplicaCore(
    { shard: s(0), index: 0 as ReplicaIndex, f: 1, owns: () => true, clockSkewMaxMicros: 1_000_000, gcWindowMicros: 5_000_000 },
    { nowMicros: () => NOW },
  );
}

const sends = (effects: ReplicaEffect[]): { to: number; msg: Message }[] => effects.flatMap((e) => (e.kind === 'send' ? [{ to: e.to, msg: e.msg }] : []));
const signs = (effects: ReplicaEffect[]): Extract<ReplicaEffect, { kind: 'sign' }>[] => effects.flatMap((e) => (e.kind === 'sign' ? [e] : []));

/** Signs every pending `sign` effect as the shell would; returns all effects, signing ones included. */
function drain(core: ReplicaCore): ReplicaEffect[] {
  const all: ReplicaEffect[] = [];
  for (let effects = core.takeEffects(); effects.length > 0; effects = core.takeEffects()) {
    all.push(...effects);
    for (const e of signs(effects)) core.onSigned(e.ref, sigOf(e.leaf, 0));
  }
  return all;
}

function readAt(core: ReplicaCore, key: Key, at: Timestamp, proof = true): ReadReply {
  core.handle(99, { kind: 'read', req: 1, key, ts: at, proof });
  const out = sends(core.takeEffects());
  assert.equal(out.length, 1);
  const m = out[0]!.msg;
  assert.equal(m.kind, 'readReply');
  return m as ReadReply;
}

function prepareReplies(effects: ReplicaEffect[]): Extract<Message, { kind: 'prepareReply' }>[] {
  return sends(effects).flatMap((x) => (x.msg.kind === 'prepareReply' ? [x.msg] : []));
}

const tsAt = (micros: number, client = 1): Timestamp => ts(NOW - 1_000_000 + micros, client);

void describe('ReplicaCore point reads (PROTOCOL §4.1)', () => {
  void it('returns the newest committed version below T with its proof and the newest prepared version above it', () => {
    const core = newCore();
    const c1 = txnOf(tsAt(10), { writes: [wr('k', 1)] });
    const c2 = txnOf(tsAt(20), { writes: [wr('k', 2)] });
    const c4 = txnOf(tsAt(40), { writes: [wr('k', 4)] });
    for (const t of [c1, c2, c4]) core.handle(1, writeback(t, commitCert(t)));
    const p3 = txnOf(tsAt(30), { writes: [wr('k', 3)] });
    core.handle(1, { kind: 'prepare', req: 1, txn: p3 });
    drain(core);

    const r = readAt(core, 'k', tsAt(35));
    assert.deepEqual(r.committed?.version, tsAt(20));
    assert.deepEqual(r.committed?.value, new Uint8Array([2]));
    assert.equal(r.committed?.proof?.txn.key, c2.key);
    assert.deepEqual(r.prepared, { version: tsAt(30), value: new Uint8Array([3]), digest: p3.digest });

    const bare = readAt(core, 'k', tsAt(35), false);
    assert.deepEqual(bare.committed, { version: tsAt(20), value: new Uint8Array([2]), digest: c2.digest, proof: null }, 'the proof only when asked (decision 0010)');

    const below = readAt(core, 'k', tsAt(25));
    assert.deepEqual(below.committed?.version, tsAt(20));
    assert.equal(below.prepared, null, 'a prepared version at or above T is not returned');

    const above = readAt(core, 'k', tsAt(50));
    assert.deepEqual(above.committed?.version, tsAt(40));
    assert.equal(above.prepared, null, 'a prepared version older than the committed one is not returned');
  });

  void it('returns nothing for a missing key', () => {
    const r = readAt(newCore(), 'nope', tsAt(10));
    assert.equal(r.committed, null);
    assert.equal(r.prepared, null);
  });

  void it('refuses reads below the low watermark', () => {
    const core = newCore();
    core.handle(1, { kind: 'read', req: 1, key: 'k', ts: ts(1, 1), proof: false });
    assert.equal(core.takeEffects().length, 0);
    assert.equal(core.stats.readsRefused, 1);
  });
});

void describe('ReplicaCore ST1 (PROTOCOL §5)', () => {
  void it('asks the shell to sign the vote leaf and replies to every waiter once signed', () => {
    const core = newCore();
    const t = txnOf(tsAt(10), { writes: [wr('a', 1)] });
    core.handle(1, { kind: 'prepare', req: 11, txn: t });
    core.handle(2, { kind: 'prepare', req: 22, txn: t });
    const effects = core.takeEffects();
    assert.equal(sends(effects).length, 0, 'nothing is sent before the vote is signed');
    const sign = signs(effects);
    assert.equal(sign.length, 1);
    assert.deepEqual(sign[0]!.leaf, voteLeaf(t.digest, s(0), 'commit'));
    assert.deepEqual(sign[0]!.ref, { kind: 'vote', txn: t.key });

    const sig = sigOf(sign[0]!.leaf, 0);
    core.onSigned(sign[0]!.ref, sig);
    const out = sends(core.takeEffects());
    assert.deepEqual(
      out.map((x) => x.to),
      [1, 2],
    );
    for (const [i, x] of out.entries()) {
      assert.deepEqual(x.msg, { kind: 'prepareReply', req: i === 0 ? 11 : 22, digest: t.digest, shard: s(0), decision: 'commit', sig, conflict: null, decided: null, conflictPrepared: null });
    }
  });

  void it('answers a repeated ST1 with the stored vote without validating again', () => {
    const core = newCore();
    const t = txnOf(tsAt(10), { writes: [wr('a', 1)] });
    core.handle(1, { kind: 'prepare', req: 1, txn: t });
    const first = prepareReplies(drain(core));
    core.handle(3, { kind: 'prepare', req: 2, txn: t });
    const effects = core.takeEffects();
    assert.equal(signs(effects).length, 0);
    const again = prepareReplies(effects);
    assert.equal(again.length, 1);
    assert.equal(again[0]!.decision, first[0]!.decision);
    assert.equal(again[0]!.sig, first[0]!.sig);
    assert.equal(core.stats.prepares, 1);
  });

  void it('keeps its vote even when the store changes before the repeated ST1', () => {
    const core = newCore();
    const reader = txnOf(tsAt(20), { reads: [rd('a', ZERO_TS)] });
    core.handle(1, { kind: 'prepare', req: 1, txn: reader });
    assert.equal(prepareReplies(drain(core))[0]!.decision, 'commit');
    const writer = txnOf(tsAt(10), { writes: [wr('a', 1)] });
    core.handle(1, writeback(writer, commitCert(writer)));
    core.handle(2, { kind: 'prepare', req: 2, txn: reader });
    assert.equal(prepareReplies(drain(core))[0]!.decision, 'commit');
    assert.equal(core.stats.prepares, 1);
  });

  void it('votes ABORT with the conflicting proof and no signature', () => {
    const core = newCore();
    const writer = txnOf(tsAt(10), { writes: [wr('a', 1)] });
    core.handle(1, writeback(writer, commitCert(writer)));
    const reader = txnOf(tsAt(20), { reads: [rd('a', ZERO_TS)] });
    core.handle(2, { kind: 'prepare', req: 5, txn: reader });
    const effects = drain(core);
    assert.equal(signs(effects).length, 0);
    const [reply] = prepareReplies(effects);
    assert.equal(reply?.decision, 'abort');
    assert.equal(reply.sig, null);
    assert.equal(reply.conflict?.txn.key, writer.key);
  });
});

void describe('ReplicaCore prepared versions and writeback (PROTOCOL §6, §9)', () => {
  void it('shows prepared versions to reads and purges them on an abort writeback', () => {
    const core = newCore();
    const t = txnOf(tsAt(10), { reads: [rd('r', ZERO_TS)], writes: [wr('a', 1)] });
    core.handle(1, { kind: 'prepare', req: 1, txn: t });
    drain(core);
    assert.deepEqual(readAt(core, 'a', tsAt(20)).prepared?.digest, t.digest);

    core.handle(1, writeback(t, abortCert(t), false));
    assert.equal(core.txnState(t.key), 'aborted');
    assert.equal(readAt(core, 'a', tsAt(20)).prepared, null);
    assert.equal(core.store.get('a')?.prepared.length, 0);
    assert.equal(core.store.get('r')?.preparedReads.length, 0);

    // A late ST1 of the aborted transaction must not bring its versions back.
    core.handle(2, { kind: 'prepare', req: 2, txn: t });
    const late = prepareReplies(drain(core));
    assert.equal(late[0]!.decided?.cert.kind, 'votes');
    assert.equal(readAt(core, 'a', tsAt(20)).prepared, null);
  });

  void it('turns prepared versions into committed ones and records committed reads on a commit writeback', () => {
    const core = newCore();
    const t = txnOf(tsAt(10), { reads: [rd('r', ZERO_TS)], writes: [wr('a', 1)] });
    core.handle(1, { kind: 'prepare', req: 1, txn: t });
    drain(core);
    core.handle(1, writeback(t, commitCert(t), false));
    assert.equal(core.txnState(t.key), 'committed');
    const r = readAt(core, 'a', tsAt(20));
    assert.equal(r.prepared, null);
    assert.deepEqual(r.committed?.version, tsAt(10));
    assert.equal(r.committed?.proof?.txn.key, t.key);
    const reads = core.store.get('r');
    assert.equal(reads?.preparedReads.length, 0);
    assert.equal(reads?.committedReads.length, 1);
    assert.deepEqual(reads?.committedReads[0]?.readerTs, tsAt(10));

    // The recorded read makes an older writer of 'r' abort with the reader's proof.
    const late = txnOf(tsAt(5, 2), { writes: [wr('r', 9)] });
    core.handle(2, { kind: 'prepare', req: 2, txn: late });
    const [reply] = prepareReplies(drain(core));
    assert.equal(reply?.decision, 'abort');
    assert.equal(reply.conflict?.txn.key, t.key);
  });

  void it('tells a waiting ST1 sender the outcome when the writeback arrives first', () => {
    const core = newCore();
    const t = txnOf(tsAt(10), { writes: [wr('a', 1)] });
    core.handle(1, { kind: 'prepare', req: 1, txn: t });
    core.takeEffects(); // the vote is not signed yet
    core.handle(1, writeback(t, commitCert(t), false));
    const replies = prepareReplies(core.takeEffects());
    assert.equal(replies.length, 1);
    assert.equal(replies[0]!.decided?.cert.kind, 'votes');
  });

  void it('rejects a writeback whose certificate names the wrong shards', () => {
    const core = newCore();
    const t = txnOf(tsAt(10), { shards: [s(0), s(1)], writes: [wr('a', 1)] });
    core.handle(1, { kind: 'prepare', req: 1, txn: t });
    drain(core);
    core.handle(1, writeback(t, commitCert(t, [s(0)]), false));
    assert.equal(core.stats.rejected['writeback-shards-mismatch'], 1);
    assert.equal(core.txnState(t.key), 'voted');
    assert.deepEqual(readAt(core, 'a', tsAt(20)).prepared?.digest, t.digest);

    const wrongLog = s(logShardOf(t.digest, t.body.shards) === s(0) ? 1 : 0);
    const st2: Certificate = { kind: 'st2', st2: { decision: 'commit', logShard: wrongLog, view: 0, sigs: [] } };
    core.handle(1, writeback(t, st2, false));
    assert.equal(core.stats.rejected['writeback-shards-mismatch'], 2);
    assert.equal(core.txnState(t.key), 'voted');
  });
});

void describe('ReplicaCore dependencies (PROTOCOL §5 step 10, §7)', () => {
  function setup(): { core: ReplicaCore; d: Txn; t: Txn } {
    const core = newCore();
    const d = txnOf(tsAt(50, 2), { writes: [wr('x', 5)] });
    core.handle(1, { kind: 'prepare', req: 1, txn: d });
    drain(core);
    const dep: Dependency = { digest: d.digest, shard: s(0), ts: d.body.ts };
    const t = txnOf(tsAt(60), { reads: [rd('x', d.body.ts)], writes: [wr('y', 6)], deps: [dep] });
    return { core, d, t };
  }

  void it('makes a reader of a prepared version wait and relays the dependency to the client', () => {
    const { core, d, t } = setup();
    core.handle(7, { kind: 'prepare', req: 70, txn: t });
    const effects = core.takeEffects();
    assert.equal(signs(effects).length, 0, 'no vote while the dependency is undecided');
    assert.deepEqual(sends(effects), [{ to: 7, msg: { kind: 'relay', req: 70, waitingDigest: t.digest, txn: d } }]);
    assert.equal(core.txnState(t.key), 'waiting');

    core.handle(8, { kind: 'prepare', req: 80, txn: t });
    assert.deepEqual(sends(core.takeEffects()), [{ to: 8, msg: { kind: 'relay', req: 80, waitingDigest: t.digest, txn: d } }]);
    assert.equal(core.stats.prepares, 2, 'one validation of d, one of t');
  });

  const table: { name: string; outcome: Outcome; vote: 'commit' | 'abstain' }[] = [
    { name: 'votes COMMIT once the dependency commits', outcome: 'commit', vote: 'commit' },
    { name: 'votes ABSTAIN once the dependency aborts', outcome: 'abort', vote: 'abstain' },
  ];
  for (const c of table) {
    void it(c.name, () => {
      const { core, d, t } = setup();
      core.handle(7, { kind: 'prepare', req: 70, txn: t });
      core.takeEffects();
      core.handle(1, writeback(d, c.outcome === 'commit' ? commitCert(d) : abortCert(d), false));
      const effects = core.takeEffects();
      const sign = signs(effects);
      assert.equal(sign.length, 1);
      assert.deepEqual(sign[0]!.leaf, voteLeaf(t.digest, s(0), c.vote));
      core.onSigned(sign[0]!.ref, sigOf(sign[0]!.leaf, 0));
      const replies = prepareReplies(core.takeEffects());
      assert.equal(replies.length, 1);
      assert.equal(replies[0]!.req, 70);
      assert.equal(replies[0]!.decision, c.vote);
    });
  }
});

void describe('ReplicaCore ST2 (PROTOCOL §6 slow path)', () => {
  void it('adopts the first decision and answers later different decisions with it', () => {
    const core = newCore();
    const t = txnOf(tsAt(10), { writes: [wr('a', 1)] });
    const justification = { decision: 'commit' as const, shards: [] };
    core.handle(1, { kind: 'decide', req: 1, digest: t.digest, decision: 'commit', view: 0, logShard: s(0), justification, txn: t });
    const sign = signs(core.takeEffects());
    assert.equal(sign.length, 1);
    assert.deepEqual(sign[0]!.leaf, st2Leaf(t.digest, s(0), 'commit', 0));
    const sig = sigOf(sign[0]!.leaf, 0);
    core.onSigned(sign[0]!.ref, sig);
    const first = sends(core.takeEffects());
    assert.deepEqual(first, [{ to: 1, msg: { kind: 'decideReply', req: 1, digest: t.digest, decision: 'commit', view: 0, logShard: s(0), sig } }]);

    core.handle(2, { kind: 'decide', req: 2, digest: t.digest, decision: 'abort', view: 0, logShard: s(0), justification: { decision: 'abstain', shards: [] }, txn: t });
    const later = core.takeEffects();
    assert.equal(signs(later).length, 0);
    assert.deepEqual(sends(later), [{ to: 2, msg: { kind: 'decideReply', req: 2, digest: t.digest, decision: 'commit', view: 0, logShard: s(0), sig } }]);
    assert.equal(core.stats.st2Adopted, 1);
  });
});

void describe('ReplicaCore ABSTAIN names its blocker (PROTOCOL §7)', () => {
  void it('sends the undecided prepared transaction that made it abstain, and nothing once that one is decided', () => {
    const core = newCore();
    const blocker = txnOf(ts(NOW - 2_000, 7), { writes: [wr('k', 1)] });
    core.handle(1, { kind: 'prepare', req: 1, txn: blocker });
    drain(core);
    const reader = txnOf(ts(NOW - 1_000, 8), { reads: [rd('k', ZERO_TS)] });
    core.handle(2, { kind: 'prepare', req: 2, txn: reader });
    const [first] = prepareReplies(drain(core));
    assert.equal(first?.decision, 'abstain');
    assert.equal(first?.conflictPrepared?.key, blocker.key);
    core.handle(1, writeback(blocker, commitCert(blocker)));
    drain(core);
    core.handle(3, { kind: 'prepare', req: 3, txn: reader });
    const [again] = prepareReplies(drain(core));
    assert.equal(again?.decision, 'abstain', 'the stored vote never changes');
    assert.equal(again?.conflictPrepared, null, 'a decided blocker needs no recovery');
  });
});

void describe('ReplicaCore forgets decided transactions below the low watermark (onTick)', () => {
  void it('drops a decided record once its T and its making fall below the window, keeps undecided ones until decided', () => {
    let now = NOW;
    const core = new ReplicaCore({ shard: s(0), index: 0 as ReplicaIndex, f: 1, owns: () => true, clockSkewMaxMicros: 1_000_000, gcWindowMicros: 5_000_000 }, { nowMicros: () => now });
    const a = txnOf(ts(NOW - 1_000_000, 1), { writes: [wr('a', 1)] });
    const b = txnOf(ts(NOW - 1_000_000, 2), { writes: [wr('b', 1)] });
    const c = txnOf(ts(NOW + 500_000, 3), { writes: [wr('c', 1)] }); // ahead of the replica's clock, within the skew
    core.handle(1, writeback(a, commitCert(a)));
    core.handle(1, { kind: 'prepare', req: 1, txn: b });
    core.handle(1, writeback(c, commitCert(c)));
    drain(core);
    const states = (): string[] => [a, b, c].map((t) => core.txnState(t.key));
    assert.deepEqual(states(), ['committed', 'voted', 'committed']);

    now = NOW + 3_000_000; // watermark NOW - 2 s: every T is above it
    core.onTick();
    assert.deepEqual(states(), ['committed', 'voted', 'committed']);

    now = NOW + 5_500_000; // watermark NOW + 0.5 s: a's T and its making are below it
    core.onTick();
    assert.deepEqual(states(), ['unknown', 'voted', 'committed'], 'a goes; b is undecided; c is not below the watermark');

    core.handle(1, writeback(b, commitCert(b)));
    drain(core);
    now = NOW + 5_600_000; // watermark NOW + 0.6 s
    core.onTick();
    assert.deepEqual(states(), ['unknown', 'unknown', 'unknown'], 'b decided since, c now below: both go from the stragglers');
    assert.equal(core.txnCount, 0);

    // A record made now waits for its own making to fall below the watermark, then goes.
    const d = txnOf(ts(NOW + 1_000_000, 4), { writes: [wr('d', 1)] });
    core.handle(1, writeback(d, commitCert(d)));
    drain(core);
    now = NOW + 6_500_000; // watermark NOW + 1.5 s: d's T is below it, its making (NOW + 5.6 s) is not
    core.onTick();
    assert.equal(core.txnState(d.key), 'committed');
    now = NOW + 10_700_000;
    core.onTick();
    assert.equal(core.txnState(d.key), 'unknown');
  });
});

void describe('RecordQueue', () => {
  void it('hands out records made before a time, oldest first, across the dropping of its taken prefix', () => {
    const q = new RecordQueue();
    const recs = Array.from({ length: 5000 }, (_, i) => new TxnRecord(`r${i}` as DigestKey));
    recs.forEach((r, i) => q.push(r, 10 * i));
    const taken: TxnRecord[] = [];
    for (const before of [0, 5, 10_001, 10_001, 30_000, 49_995, 1e9]) q.takeBefore(before, (r) => taken.push(r));
    assert.deepEqual(taken, recs, 'each once, in order, none lost when the prefix is dropped (after 1,001 and 3,000)');
    q.push(recs[0]!, 5);
    q.takeBefore(6, (r) => taken.push(r));
    assert.equal(taken.length, 5001, 'pushes after a drop are found');
  });
});

void describe('ReplicaCore checkpoint and restore (the write-ahead log)', () => {
  void it('rebuilds committed versions, proofs and stored votes in a fresh core from its checkpoint', () => {
    const core = newCore();
    const committed = txnOf(ts(NOW - 3_000, 7), { writes: [wr('a', 1), wr('b', 2)] });
    core.handle(1, { kind: 'prepare', req: 1, txn: committed });
    drain(core);
    core.handle(1, writeback(committed, commitCert(committed)));
    drain(core);
    const pending = txnOf(ts(NOW - 1_000, 8), { writes: [wr('c', 3)] });
    core.handle(2, { kind: 'prepare', req: 2, txn: pending });
    const [vote] = prepareReplies(drain(core));
    assert.equal(vote?.decision, 'commit');

    const records = core.checkpoint();
    assert.deepEqual(records.map((r) => r.kind).sort(), ['vote', 'writeback']);
    const fresh = newCore();
    fresh.restore(records);
    assert.equal(fresh.takeEffects().length, 0, 'restoring logs nothing again');
    const a = readAt(fresh, 'a', ts(NOW, 9));
    assert.deepEqual([...(a.committed?.value ?? [])], [1]);
    assert.equal(a.committed?.proof?.txn.key, committed.key);
    const c = readAt(fresh, 'c', ts(NOW, 9));
    assert.equal(c.prepared?.digest.length, 32, 'the pending COMMIT vote prepared its write again');
    fresh.handle(3, { kind: 'prepare', req: 3, txn: pending });
    const effects = drain(fresh);
    const [again] = prepareReplies(effects);
    assert.equal(again?.decision, 'commit', 'the same vote, signed anew');
    assert.equal(fresh.stats.prepares, 0, 'no second validation');
    assert.equal(effects.filter((e) => e.kind === 'persist').length, 0, 'nothing new to log');
  });
  void it('checkpoints incrementally while it keeps working: the checkpoint and the records of the meantime replay to its state', () => {
    const core = newCore();
    const committedTxn = (i: number, keysOf: readonly Key[], byte: number, withTxn: boolean): Txn => {
      const t = txnOf(tsAt(1_000 + i), { writes: keysOf.map((k) => wr(k, byte)) });
      if (!withTxn) {
        core.handle(1, { kind: 'prepare', req: 1, txn: t });
        drain(core);
      }
      core.handle(1, writeback(t, commitCert(t), withTxn));
      drain(core);
      return t;
    };
    // More keys than one pause point (CHECKPOINT_PAUSE_EVERY = 1,024), half of the writebacks with their transaction.
    const all: Key[] = [];
    for (let i = 0; i < 120; i++) {
      const ks = Array.from({ length: 10 }, (_, j) => `k${i}-${j}`);
      all.push(...ks);
      committedTxn(i, ks, 1, i % 2 === 0);
    }
    const pending1 = txnOf(tsAt(5_000), { writes: [wr('p1', 1)] });
    core.handle(2, { kind: 'prepare', req: 2, txn: pending1 });
    drain(core);

    const records = core.checkpointRecords();
    const checkpoint: LogRecord[] = [];
    for (let r = records.next(); r.done !== true && r.value !== null; r = records.next()) checkpoint.push(r.value);
    assert.ok(checkpoint.length > 0 && checkpoint.length < 120, 'paused part-way');
    // Meanwhile: new versions of keys the checkpoint already passed and of keys it has not reached,
    // the pending transaction decided, another one prepared. The log takes their records.
    const tail: LogRecord[] = [];
    const persisted = (effects: ReplicaEffect[]): void => {
      for (const e of effects) if (e.kind === 'persist') tail.push(e.record);
    };
    const late = txnOf(tsAt(6_000), { writes: [wr('k0-0', 2), wr('k119-9', 2), wr('new', 2)] });
    core.handle(1, writeback(late, commitCert(late)));
    persisted(drain(core));
    core.handle(1, writeback(pending1, commitCert(pending1), false));
    persisted(drain(core));
    const pending2 = txnOf(tsAt(7_000), { writes: [wr('p2', 3)] });
    core.handle(2, { kind: 'prepare', req: 3, txn: pending2 });
    persisted(drain(core));
    for (let r = records.next(); r.done !== true; r = records.next()) if (r.value !== null) checkpoint.push(r.value);
    for (const r of checkpoint) {
      if (r.kind === 'writeback' && r.writeback instanceof StoredWriteback) assert.equal(encodeMessage(r.writeback), r.writeback.bytes, 'a stored proof is logged with its bytes');
    }

    // Through the log's bytes, as a restart reads them.
    const log = [...checkpoint, ...tail].map((r) => {
      const d = decodeLogRecord(encodeLogRecord(r));
      assert.ok(d.ok);
      return d.value;
    });
    const fresh = newCore();
    fresh.restore(log);
    const at = tsAt(9_000, 9);
    for (const k of [...all, 'new', 'p1', 'p2']) {
      const want = readAt(core, k, at);
      const got = readAt(fresh, k, at);
      const bytesOf = (b: Uint8Array | null | undefined): number[] | null => (b == null ? null : [...b]);
      assert.deepEqual(bytesOf(got.committed?.value), bytesOf(want.committed?.value), k);
      assert.equal(got.committed?.proof?.txn.key, want.committed?.proof?.txn.key, k);
      assert.deepEqual(bytesOf(got.prepared?.digest), bytesOf(want.prepared?.digest), k);
    }
    assert.deepEqual([...(readAt(fresh, 'k0-0', at).committed?.value ?? [])], [2]);
    assert.deepEqual([...(readAt(fresh, 'p1', at).committed?.value ?? [])], [1]);
    assert.equal(readAt(fresh, 'p2', at).prepared?.digest.length, 32, 'the vote of the meantime came back');
  });
});

void describe('ReplicaCore checkpoints write each proof once', () => {
  void it('writes one writeback per committed transaction, however many versions and reads name it, and again in the next checkpoint', () => {
    const core = newCore();
    // Each writes three keys and reads one: its proof sits on three versions and a committed read.
    const txns: Txn[] = [];
    for (let i = 0; i < 40; i++) {
      const t = txnOf(tsAt(1_000 + i), { reads: [rd(`r${i}`, tsAt(1))], writes: [wr(`a${i}`, 1), wr(`b${i}`, 1), wr(`c${i}`, 1)] });
      core.handle(1, { kind: 'prepare', req: 1, txn: t });
      drain(core);
      core.handle(1, writeback(t, commitCert(t), i % 2 === 0));
      drain(core);
      txns.push(t);
    }
    const writebacks = (): string[] => {
      const keys: string[] = [];
      for (const r of core.checkpointRecords()) if (r !== null && r.kind === 'writeback') keys.push(r.txn.key);
      return keys.sort();
    };
    const expected = txns.map((t) => t.key).sort();
    assert.deepEqual(writebacks(), expected);
    assert.deepEqual(writebacks(), expected, 'a second checkpoint writes them all again');
  });
});

void describe('ReplicaCore fallback views (PROTOCOL §7)', () => {
  const decide = (t: Txn, decision: Outcome, req: number): Message => ({
    kind: 'decide', req, digest: t.digest, decision, view: 0, logShard: s(0),
    justification: { decision: decision === 'commit' ? 'commit' : 'abstain', shards: [] }, txn: t,
  });

  void it('elects its current decision for each view it moves to, only forward, and answers an elect for a view it passed from where it stands', () => {
    const core = newCore();
    const t = txnOf(tsAt(20), { writes: [wr('a', 1)] });
    core.handle(1, decide(t, 'abort', 1));
    drain(core);
    const elect = (view: number, req: number): Message => ({ kind: 'elect', req, view, decide: decide(t, 'commit', req) as Extract<Message, { kind: 'decide' }> });
    core.handle(2, elect(2, 2));
    const replies = sends(drain(core)).map((x) => x.msg).filter((m) => m.kind === 'electReply');
    assert.deepEqual(replies.map((m) => [m.kind === 'electReply' ? m.decision : '', m.kind === 'electReply' ? m.view : -1]), [['abort', 2]], "its own decision, not the client's");
    const electsNow = (): string[] => sends(drain(core)).map((x) => x.msg).map((m) => (m.kind === 'electReply' ? `${m.decision}@${m.view}` : m.kind === 'decideReply' ? `st2 ${m.decision}@${m.view}` : m.kind));
    core.handle(3, elect(2, 3));
    core.handle(3, elect(1, 4));
    assert.deepEqual(electsNow(), ['abort@2', 'abort@2'], 'the same statement for view 2 again, to a finisher still at view 2 or behind it');
    core.handle(4, { kind: 'decisionFb', req: 5, digest: t.digest, decision: 'commit', view: 5, logShard: s(0), elects: [], txn: t });
    assert.deepEqual(electsNow(), ['st2 commit@5']);
    core.handle(3, elect(3, 6));
    assert.deepEqual(electsNow(), ['st2 commit@5'], 'after adopting a decision of view 5, an elect for an older view gets that decision');
    core.handle(3, elect(6, 7));
    assert.deepEqual(electsNow(), ['commit@6'], 'and a newer view is elected with it');
  });

  void it('adopts a fallback decision of a newer view and answers with it, and ignores an older one', () => {
    const core = newCore();
    const t = txnOf(tsAt(30), { writes: [wr('a', 1)] });
    core.handle(1, decide(t, 'commit', 1));
    drain(core);
    const fb = (view: number, decision: Outcome, req: number): Message => ({ kind: 'decisionFb', req, digest: t.digest, decision, view, logShard: s(0), elects: [], txn: t });
    core.handle(2, fb(3, 'abort', 2));
    const effects = drain(core);
    assert.ok(effects.some((e) => e.kind === 'persist' && e.record.kind === 'st2' && e.record.view === 3), 'the new decision is logged');
    const [reply] = sends(effects).map((x) => x.msg);
    assert.equal(reply?.kind === 'decideReply' ? `${reply.decision}@${reply.view}` : '', 'abort@3');
    core.handle(3, fb(2, 'commit', 3));
    const [again] = sends(drain(core)).map((x) => x.msg);
    assert.equal(again?.kind === 'decideReply' ? `${again.decision}@${again.view}` : '', 'abort@3');
  });

  void it('answers ST2, elect and fallback decisions for a transaction it applied with the certified outcome (sim seeds 17, 72)', () => {
    const core = newCore();
    const t = txnOf(tsAt(40), { writes: [wr('a', 1)] });
    core.handle(1, writeback(t, commitCert(t)));
    drain(core);
    const elect: Message = { kind: 'elect', req: 2, view: 3, decide: decide(t, 'abort', 2) as Extract<Message, { kind: 'decide' }> };
    const fb: Message = { kind: 'decisionFb', req: 3, digest: t.digest, decision: 'abort', view: 4, logShard: s(0), elects: [], txn: t };
    for (const [req, msg] of [[1, decide(t, 'abort', 1)], [2, elect], [3, fb]] as const) {
      core.handle(2, msg);
      const effects = drain(core);
      const replies = sends(effects).map((x) => x.msg);
      assert.equal(replies.length, 1, `${msg.kind}: one reply`);
      const [reply] = replies;
      assert.ok(reply?.kind === 'prepareReply' && reply.req === req && reply.decided !== null, `${msg.kind}: answered with the certificate`);
      assert.equal(certificateOutcome(reply.decided.cert), 'commit');
      assert.equal(effects.filter((e) => e.kind === 'persist' || e.kind === 'sign').length, 0, `${msg.kind}: no new decision logged or signed`);
    }
  });
});
