import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { encodeTxn } from '../../protocol/codec.ts';
import { keyPairFromSeed } from '../../protocol/crypto/ed25519.ts';
import { signBatch } from '../../protocol/crypto/signed.ts';
import type { ReplicaIndex, ReplicaRef, ShardId } from '../../protocol/ids.ts';
import type { CommittedTxn, Decide, DecideReply, ElectReply, Message, Outcome, PrepareReply, SigProof, Txn, Writeback } from '../../protocol/messages.ts';
import { quorums } from '../../protocol/quorum.ts';
import { logShardOf } from '../../protocol/sharding.ts';
import { electLeaf, st2Leaf, voteLeaf } from '../../protocol/statements.ts';
import { ts } from '../../protocol/timestamp.ts';
import { Outbox, type ClientEffect } from './effects.ts';
import { Finisher, type FinishResult } from './finisher.ts';

// f = 1: n 6, slow commit 4, fast abort 4, slow abort 2, ST2 5.
const Q = quorums(1);
const N = Q.n;
const s = (n: number): ShardId => n as ShardId;
const ref = (shard: number, index: number): ReplicaRef => ({ shard: s(shard), index: index as ReplicaIndex });
const keys = [0, 1].map((shard) => Array.from({ length: N }, (_, i) => keyPairFromSeed(new Uint8Array(32).fill(16 * shard + i + 1))));
const sigOf = (leaf: Uint8Array, shard: number, signer: number): SigProof => signBatch([leaf], keys[shard]![signer]!.secretKey, signer)[0]!;

const TXN = encodeTxn({ ts: ts(1_000, 1), shards: [s(0), s(1)], reads: [], writes: [{ key: 'a', value: new Uint8Array([1]) }], deps: [], predicates: [], meta: new Uint8Array(0) });
const LOG = logShardOf(TXN.digest, TXN.body.shards);
const CONFLICT: CommittedTxn = {
  txn: encodeTxn({ ts: ts(900, 2), shards: [s(0)], reads: [], writes: [{ key: 'a', value: null }], deps: [], predicates: [], meta: new Uint8Array(0) }),
  cert: { kind: 'votes', votes: { decision: 'commit', shards: [] } },
};

interface Harness {
  readonly fin: Finisher;
  readonly out: Outbox;
  readonly results: FinishResult[];
  /** What noteSlowCommit was told: cause and the silent replicas as "shard:index". */
  readonly slow: string[];
  /** Round trips noteReplyMs was told, in ms. */
  readonly replyMs: number[];
  /** Votes noteVote was told of, as "shard:index" with " late" when it was late. */
  readonly voted: string[];
  now: number;
}

/** `oftenLate`: the replicas ("shard:index") the router reports as often late. */
function harness(live = true, txn: Txn = TXN, oftenLate: readonly string[] = []): Harness {
  const out = new Outbox();
  const results: FinishResult[] = [];
  const slow: string[] = [];
  const replyMs: number[] = [];
  const voted: string[] = [];
  const h: { now: number } = { now: 0 };
  const fin = new Finisher(
    txn,
    Q,
    { fastPathWaitMs: 5, fastPathWaitMaxMs: 100, resendMs: 1_000 },
    out,
    {
      newReq: () => out.req(),
      newTimer: (_f, afterMs) => out.timer(afterMs),
      nowMs: () => h.now,
      votedRecently: () => live,
      noteVote: (shard, index, late) => voted.push(`${shard}:${index}${late === null ? ' counted' : late ? ' late' : ''}`),
      oftenLate: (shard, index) => oftenLate.includes(`${shard}:${index}`),
      noteSlowCommit: (cause, late) => slow.push(`${cause} ${late.map((r) => `${r.shard}:${r.index}`).join(' ')}`),
      noteReplyMs: (ms) => replyMs.push(ms),
      replyTimeoutMs: (floor) => floor,
    },
    (r) => results.push(r),
  );
  return Object.assign(h, { fin, out, results, slow, replyMs, voted });
}

function vote(shard: number, index: number, decision: 'commit' | 'abstain', txn: Txn = TXN): PrepareReply {
  return { kind: 'prepareReply', req: 1, digest: txn.digest, shard: s(shard), decision, sig: sigOf(voteLeaf(txn.digest, s(shard), decision), shard, index), conflict: null, decided: null, conflictPrepared: null };
}

function decideReply(index: number, decision: Outcome, view = 0): DecideReply {
  return { kind: 'decideReply', req: 2, digest: TXN.digest, decision, view, logShard: LOG, sig: sigOf(st2Leaf(TXN.digest, LOG, decision, view), LOG, index) };
}

function electReply(index: number, decision: Outcome, view: number): ElectReply {
  return { kind: 'electReply', req: 3, digest: TXN.digest, decision, view, logShard: LOG, sig: sigOf(electLeaf(TXN.digest, LOG, decision, view), LOG, index) };
}

const sent = (effects: ClientEffect[]): { to: ReplicaRef; msg: Message }[] => effects.flatMap((e) => (e.kind === 'send' ? [{ to: e.to, msg: e.msg }] : []));
const timers = (effects: ClientEffect[]): Extract<ClientEffect, { kind: 'timer' }>[] => effects.flatMap((e) => (e.kind === 'timer' ? [e] : []));
const writebacks = (effects: ClientEffect[]): { to: ReplicaRef; msg: Writeback }[] => sent(effects).flatMap((x) => (x.msg.kind === 'writeback' ? [{ to: x.to, msg: x.msg }] : []));
const decides = (effects: ClientEffect[]): { to: ReplicaRef; msg: Decide }[] => sent(effects).flatMap((x) => (x.msg.kind === 'decide' ? [{ to: x.to, msg: x.msg }] : []));

function votes(h: Harness, shard: number, indexes: number[], decision: 'commit' | 'abstain'): void {
  for (const i of indexes) h.fin.onPrepareReply(ref(shard, i), vote(shard, i, decision));
}

const range = (from: number, to: number): number[] => Array.from({ length: to - from }, (_, i) => from + i);

/** A finisher past ST1 with 3f+1 COMMIT votes per shard and the fast-path timer: its ST2 has gone out. */
function logging(): Harness {
  const h = harness();
  h.fin.start();
  votes(h, 0, range(0, 4), 'commit');
  votes(h, 1, range(0, 4), 'commit');
  h.fin.onTimer(timers(h.out.take()).find((t) => t.afterMs === 5)!.id);
  h.out.take();
  return h;
}

/**
 * Every replica of the logging shard answered ST2 with decisions that cannot reach 4f+1, so the
 * finisher started fallback view 1; `started`: what it sent then.
 */
function inFallback(): { h: Harness; started: ClientEffect[] } {
  const h = logging();
  for (const i of range(0, N)) h.fin.onDecideReply(ref(LOG, i), decideReply(i, i < 3 ? 'commit' : 'abort'));
  return { h, started: h.out.take() };
}

void describe('Finisher (PROTOCOL §6)', () => {
  void it('sends ST1 to every replica of every involved shard', () => {
    const h = harness();
    h.fin.start();
    const out = sent(h.out.take());
    assert.equal(out.length, 2 * N);
    assert.ok(out.every((x) => x.msg.kind === 'prepare' && x.msg.txn === TXN));
  });

  void it('commits on the fast path with n COMMIT votes from every shard', () => {
    const h = harness();
    h.fin.start();
    h.out.take();
    votes(h, 0, range(0, N), 'commit');
    assert.equal(h.results.length, 0, 'one shard is not enough');
    votes(h, 1, range(0, N), 'commit');
    assert.deepEqual(h.results, [{ outcome: 'commit', path: 'fast', cause: null }]);
    const wbs = writebacks(h.out.take());
    assert.equal(wbs.length, 2 * N);
    const cert = wbs[0]!.msg.cert;
    assert.equal(cert.kind, 'votes');
    assert.ok(cert.kind === 'votes');
    assert.deepEqual(
      cert.votes.shards.map((g) => [g.shard, g.sigs.length]),
      [
        [0, N],
        [1, N],
      ],
    );
    assert.ok(wbs.every((w) => w.msg.txn === null), 'every replica voted, so every replica holds the transaction');
  });

  void it('aborts on the fast path with one ABORT carrying a proven conflict', () => {
    const h = harness();
    h.fin.start();
    h.out.take();
    votes(h, 0, [0, 1], 'commit');
    h.fin.onPrepareReply(ref(1, 3), { kind: 'prepareReply', req: 1, digest: TXN.digest, shard: s(1), decision: 'abort', sig: null, conflict: CONFLICT, decided: null, conflictPrepared: null });
    assert.deepEqual(h.results, [{ outcome: 'abort', path: 'fast', cause: 'conflict' }]);
    const wbs = writebacks(h.out.take());
    assert.equal(wbs.length, 2 * N);
    assert.deepEqual(wbs[0]!.msg.cert, { kind: 'conflict', conflict: CONFLICT });
    // Replicas 0 and 1 of shard 0 voted; everyone else (the ABORT voter included) gets the bytes.
    assert.deepEqual(
      wbs.filter((w) => w.msg.txn === null).map((w) => [w.to.shard, w.to.index]),
      [
        [0, 0],
        [0, 1],
      ],
    );
  });

  void it(
    'aborts on the fast path with exactly 3f+1 ABSTAIN signatures of one shard',
    () => {
    const h = harness();
    h.fin.start();
    h.out.take();
    votes(h, 1, [5, 3, 1, 0], 'abstain');
    assert.deepEqual(h.results, [{ outcome: 'abort', path: 'fast', cause: 'abstained' }]);
    const cert = writebacks(h.out.take())[0]!.msg.cert;
    assert.ok(cert.kind === 'votes');
    assert.equal(cert.votes.decision, 'abstain');
    assert.deepEqual(
      cert.votes.shards.map((g) => [g.shard, g.sigs.map((p) => p.signer)]),
      [[1, [0, 1, 3, 5]]],
    );
    },
  );

  void it('waits for the fast-path timer once 3f+1 COMMIT votes are in, then logs the commit with exactly 3f+1 per shard', () => {
    const h = harness();
    h.fin.start();
    h.out.take();
    votes(h, 0, [5, 4, 3, 2, 1], 'commit');
    votes(h, 1, [0, 1, 2, 3], 'commit');
    const effects = h.out.take();
    assert.equal(sent(effects).length, 0);
    const [timer] = timers(effects);
    assert.equal(timer?.afterMs, 5);
    h.fin.onTimer(timer.id);
    assert.equal(h.fin.phase, 'st2');
    assert.deepEqual(h.slow, ['late-long 0:0 1:4 1:5'], 'the replicas still silent when the wait ran out');
    const ds = decides(h.out.take());
    assert.equal(ds.length, N);
    assert.ok(ds.every((d) => d.to.shard === LOG && d.msg.logShard === LOG && d.msg.decision === 'commit' && d.msg.view === 0));
    assert.deepEqual(
      ds[0]!.msg.justification.shards.map((g) => [g.shard, g.sigs.map((p) => p.signer)]),
      [
        [0, [1, 2, 3, 4]],
        [1, [0, 1, 2, 3]],
      ],
    );

    for (const i of [0, 1, 2, 3]) h.fin.onDecideReply(ref(LOG, i), decideReply(i, 'commit'));
    assert.equal(h.results.length, 0, '4f replies are not a certificate');
    h.fin.onDecideReply(ref(LOG, 4), decideReply(4, 'commit'));
    assert.deepEqual(h.results, [{ outcome: 'commit', path: 'slow', cause: null }]);
    const wbs = writebacks(h.out.take());
    assert.equal(wbs.length, 2 * N);
    const cert = wbs[0]!.msg.cert;
    assert.ok(cert.kind === 'st2');
    assert.equal(cert.st2.sigs.length, Q.st2);
    assert.deepEqual(
      wbs.filter((w) => w.msg.txn !== null).map((w) => [w.to.shard, w.to.index]),
      [
        [0, 0],
        [1, 4],
        [1, 5],
      ],
    );
  });

  void it('waits eight times as long as the votes took, twice when a missing replica is often late, between the minimum and the maximum, and only the minimum for replicas that went quiet', () => {
    const table: { elapsedMs: number; live: boolean; oftenLate: string[]; waitMs: number; cause: string }[] = [
      { elapsedMs: 0, live: true, oftenLate: [], waitMs: 5, cause: 'late-long' },
      { elapsedMs: 6, live: true, oftenLate: [], waitMs: 48, cause: 'late-long' },
      { elapsedMs: 6, live: true, oftenLate: ['1:5'], waitMs: 12, cause: 'late-short' },
      { elapsedMs: 6, live: true, oftenLate: ['1:3'], waitMs: 48, cause: 'late-long' },
      { elapsedMs: 50, live: true, oftenLate: [], waitMs: 100, cause: 'late-long' },
      { elapsedMs: 6, live: false, oftenLate: [], waitMs: 5, cause: 'late-floor' },
    ];
    for (const c of table) {
      const h = harness(c.live, TXN, c.oftenLate);
      h.fin.start();
      h.out.take();
      h.now = c.elapsedMs;
      votes(h, 0, range(0, 4), 'commit');
      votes(h, 1, range(0, 4), 'commit');
      const [timer] = timers(h.out.take());
      assert.equal(timer?.afterMs, c.waitMs, JSON.stringify(c));
      h.fin.onTimer(timer.id);
      assert.deepEqual(h.slow, [`${c.cause} 0:4 0:5 1:4 1:5`], 'the wait that ran out, for metrics');
    }
  });

  void it('tells the router which votes came late: after the short wait would have ended, or not before the wait gave up', () => {
    const h = harness();
    h.fin.start();
    h.out.take();
    h.now = 4;
    votes(h, 0, range(0, 4), 'commit');
    votes(h, 1, range(0, 4), 'commit');
    assert.ok(h.voted.every((v) => !v.endsWith('late')), 'the first 3f+1 are never late');
    h.now = 12;
    votes(h, 0, [4], 'commit');
    h.now = 13;
    votes(h, 1, [4], 'commit');
    assert.deepEqual(h.voted.slice(-2), ['0:4', '1:4 late'], 'until the short wait would have ended (4 + 2 x 4 ms): timely');
    h.fin.onTimer(timers(h.out.take()).find((t) => t.afterMs === 32)!.id);
    assert.deepEqual(h.slow, ['late-long 0:5 1:5'], 'still silent when the wait gave up: counted late there');
    h.now = 40;
    votes(h, 0, [5], 'commit');
    assert.equal(h.voted.at(-1), '0:5 counted', 'a vote after the wait gave up is not counted twice');
  });

  void it('samples the round trip of a vote that arrives after the fast-path wait gave up, once', () => {
    const h = harness();
    h.fin.start();
    h.out.take();
    h.now = 4;
    votes(h, 0, range(0, 4), 'commit');
    votes(h, 1, range(0, 5), 'commit');
    h.fin.onTimer(timers(h.out.take()).find((t) => t.afterMs === 32)!.id);
    assert.equal(decides(h.out.take()).length, N, 'the wait ran out: ST2');
    assert.deepEqual(h.replyMs, Array(9).fill(4));
    h.now = 30;
    votes(h, 0, [4, 4], 'commit');
    assert.deepEqual(h.replyMs, [...Array(9).fill(4), 30], 'the late vote teaches the wait how late votes get');
    assert.equal(h.results.length, 0, 'ST2 decides now, not the late vote');
  });

  void it('logs the commit at once when 3f+1 COMMIT and an ABSTAIN are in', () => {
    const h = harness();
    h.fin.start();
    h.out.take();
    votes(h, 0, range(0, 4), 'commit');
    votes(h, 1, range(0, 4), 'commit');
    h.out.take();
    votes(h, 0, [4], 'abstain');
    votes(h, 1, [4], 'abstain');
    assert.equal(decides(h.out.take()).length, N);
  });

  void it('keeps waiting for the fast path while another shard has no ABSTAIN yet', () => {
    const h = harness();
    h.fin.start();
    h.out.take();
    votes(h, 0, range(0, 4), 'commit');
    votes(h, 1, range(0, 4), 'commit');
    votes(h, 1, [4], 'abstain');
    assert.equal(decides(h.out.take()).length, 0);
  });

  void it('logs an abort with exactly f+1 ABSTAIN votes once neither 3f+1 COMMIT nor 3f+1 ABSTAIN is possible', () => {
    const h = harness();
    h.fin.start();
    h.out.take();
    votes(h, 0, [0, 1, 3], 'commit');
    votes(h, 0, [4, 2, 5], 'abstain');
    const ds = decides(h.out.take());
    assert.equal(ds.length, N);
    assert.equal(ds[0]!.msg.decision, 'abort');
    assert.deepEqual(ds[0]!.msg.justification, { decision: 'abstain', shards: [{ shard: s(0), sigs: [2, 4].map((i) => vote(0, i, 'abstain').sig!) }] });
    for (const i of range(0, 5)) h.fin.onDecideReply(ref(LOG, i), decideReply(i, 'abort'));
    assert.deepEqual(h.results, [{ outcome: 'abort', path: 'slow', cause: 'abstained' }]);
  });

  void it('waits for the timer before logging an abort while 3f+1 COMMIT is still possible', () => {
    const h = harness();
    h.fin.start();
    h.out.take();
    votes(h, 1, range(0, 4), 'commit');
    votes(h, 0, [0, 1], 'abstain');
    const effects = h.out.take();
    assert.equal(decides(effects).length, 0);
    const [timer] = timers(effects);
    assert.ok(timer !== undefined);
    h.fin.onTimer(timer.id);
    const ds = decides(h.out.take());
    assert.equal(ds.length, N);
    assert.equal(ds[0]!.msg.decision, 'abort');
  });

  void it('needs 4f+1 ST2 replies matching in decision and view, from the logging shard only', () => {
    const h = logging();
    const other = LOG === s(0) ? 1 : 0;
    for (const i of range(0, N)) h.fin.onDecideReply(ref(other, i), decideReply(i, 'commit'));
    h.fin.onDecideReply(ref(LOG, 0), decideReply(0, 'commit', 1));
    h.fin.onDecideReply(ref(LOG, 0), decideReply(0, 'commit')); // a replica counts once
    for (const i of range(1, 4)) h.fin.onDecideReply(ref(LOG, i), decideReply(i, 'commit'));
    h.fin.onDecideReply(ref(LOG, 4), decideReply(4, 'abort'));
    h.fin.onDecideReply(ref(LOG, 5), decideReply(5, 'commit'));
    assert.equal(h.results.length, 0, 'four matching replies and two odd ones');
  });

  void it('builds the ST2 certificate from exactly 4f+1 matching replies, lowest signers first', () => {
    const h = logging();
    h.fin.onDecideReply(ref(LOG, 2), decideReply(2, 'abort'));
    for (const i of [5, 4, 3, 1, 0]) h.fin.onDecideReply(ref(LOG, i), decideReply(i, 'commit'));
    assert.deepEqual(h.results, [{ outcome: 'commit', path: 'slow', cause: null }]);
    const cert = writebacks(h.out.take())[0]!.msg.cert;
    assert.ok(cert.kind === 'st2');
    assert.deepEqual(
      cert.st2.sigs.map((p) => p.signer),
      [0, 1, 3, 4, 5],
    );
    assert.deepEqual([cert.st2.decision, cert.st2.logShard, cert.st2.view], ['commit', LOG, 0]);
  });

  void it('adopts a certificate a replica forwards and writes it back with the transaction to everyone', () => {
    const h = harness();
    h.fin.start();
    h.out.take();
    votes(h, 0, [0], 'commit');
    const cert = { kind: 'conflict' as const, conflict: CONFLICT };
    h.fin.onPrepareReply(ref(1, 2), { kind: 'prepareReply', req: 1, digest: TXN.digest, shard: s(1), decision: 'abstain', sig: null, conflict: null, decided: { kind: 'writeback', digest: TXN.digest, cert, txn: null }, conflictPrepared: null });
    assert.deepEqual(h.results, [{ outcome: 'abort', path: 'fast', cause: 'abstained' }]);
    const wbs = writebacks(h.out.take());
    assert.equal(wbs.length, 2 * N);
    assert.ok(wbs.every((w) => w.msg.txn === TXN && w.msg.cert === cert));
  });

  void it('takes a forwarded certificate in the ST2 phase and in a fallback view too (sim seeds 17, 72)', () => {
    const { h, started } = inFallback();
    assert.ok(started.some((e) => e.kind === 'send' && e.msg.kind === 'elect'), 'the fallback started');
    assert.equal(h.results.length, 0);
    const cert = { kind: 'conflict' as const, conflict: CONFLICT };
    h.fin.onPrepareReply(ref(LOG, 1), { kind: 'prepareReply', req: 9, digest: TXN.digest, shard: LOG, decision: 'abstain', sig: null, conflict: null, decided: { kind: 'writeback', digest: TXN.digest, cert, txn: null }, conflictPrepared: null });
    assert.deepEqual(h.results, [{ outcome: 'abort', path: 'slow', cause: 'abstained' }], 'the certified outcome ends the fallback');
    assert.equal(writebacks(h.out.take()).length, 2 * N);
  });

  void it('catches up with a fallback view f+1 replicas report ahead of it, and decides there (sim seed 30192)', () => {
    const { h, started } = inFallback();
    const electsOf = (effects: ClientEffect[]): number[] => sent(effects).flatMap((x) => (x.msg.kind === 'elect' ? [x.msg.view] : []));
    assert.deepEqual(electsOf(started), Array<number>(N).fill(1), 'view 1 proposed to everyone');
    // Another finisher moved the shard on: one replica (it may be faulty) claiming a far view moves nothing.
    h.fin.onElectReply(ref(LOG, 5), electReply(5, 'abort', 1_000));
    assert.deepEqual(electsOf(h.out.take()), [], 'a single replica ahead is not followed');
    h.fin.onElectReply(ref(LOG, 0), electReply(0, 'commit', 4));
    assert.deepEqual(electsOf(h.out.take()), Array<number>(N).fill(4), 'f+1 ahead: the (f+1)-th highest view, 4, proposed to everyone');
    h.fin.onElectReply(ref(LOG, 1), electReply(1, 'commit', 4));
    h.fin.onElectReply(ref(LOG, 2), electReply(2, 'abort', 1));
    assert.equal(sent(h.out.take()).length, 0, 'two elects of view 4 and a stale one: no decision yet');
    h.fin.onElectReply(ref(LOG, 3), electReply(3, 'commit', 4));
    const fbs = sent(h.out.take()).flatMap((x) => (x.msg.kind === 'decisionFb' ? [x.msg] : []));
    assert.equal(fbs.length, N);
    assert.deepEqual([fbs[0]!.decision, fbs[0]!.view, fbs[0]!.elects.map((e) => e.signer)], ['commit', 4, [0, 1, 3]]);
    for (const i of range(0, 5)) h.fin.onDecideReply(ref(LOG, i), decideReply(i, 'commit', 4));
    assert.deepEqual(h.results, [{ outcome: 'commit', path: 'slow', cause: null }]);
  });

  void it('resends ST1 only to replicas that have not voted', () => {
    const h = harness();
    h.fin.start();
    const [resend] = timers(h.out.take());
    votes(h, 0, range(0, N), 'commit');
    votes(h, 1, [0, 2], 'commit');
    h.out.take();
    h.fin.onTimer(resend!.id);
    assert.deepEqual(
      sent(h.out.take()).map((x) => [x.to.shard, x.to.index]),
      [
        [1, 1],
        [1, 3],
        [1, 4],
        [1, 5],
      ],
    );
  });

  void it(
    'does not restart ST2 when the fast-path timer fires after ST2 has begun',
    () => {
      const h = harness();
      h.fin.start();
      votes(h, 0, range(0, 4), 'commit');
      votes(h, 1, range(0, 4), 'commit');
      const [fastTimer] = timers(h.out.take()).filter((t) => t.afterMs === 5);
      votes(h, 0, [4], 'abstain');
      votes(h, 1, [4], 'abstain'); // slow-commit on both shards now: ST2 starts before the timer fires
      assert.equal(decides(h.out.take()).length, N);
      assert.deepEqual(h.slow, ['abstain 0:5 1:5']);
      for (const i of range(0, 3)) h.fin.onDecideReply(ref(LOG, i), decideReply(i, 'commit'));
      h.fin.onTimer(fastTimer!.id);
      assert.equal(decides(h.out.take()).length, 0, 'no second ST2 round');
      for (const i of range(3, 5)) h.fin.onDecideReply(ref(LOG, i), decideReply(i, 'commit'));
      assert.deepEqual(h.results, [{ outcome: 'commit', path: 'slow', cause: null }]);
    },
  );
});
