/**
 * Byzantine and crashing clients for the simulator (PROTOCOL §1: any number of Byzantine clients;
 * pesto-artifact-notes §10.4: the prototype's `client-crash`, `client-stall-after-p1`,
 * `client-send-partial-p1` and `client-equivocate` modes). Like `ReplicaBehavior` for replicas,
 * a behaviour wraps the correct `ClientCore`: the faulty client runs the bank workload with the
 * correct core, and on every k-th transaction it commits, the behaviour sees each message the core
 * wants to send about that transaction (and each verified reply about it) and decides what leaves
 * (and what the core hears). Its other transactions, and its recoveries of other clients'
 * transactions, run untouched.
 *
 * The workload is told the faulty transaction is over (`release`) without an outcome: the client
 * is Byzantine, so what counts is what the replicas decide. The simulation resolves each faulty
 * transaction's outcome from the correct replicas' state at the end of the run (a committed one
 * joins the serial replay; correct clients may have read its writes).
 */
import type { ReplicaRef, ShardId } from '../protocol/ids.ts';
import { encodeTxn } from '../protocol/codec.ts';
import type { Message, SigProof, Txn, VoteCert } from '../protocol/messages.ts';
import type { Quorums } from '../protocol/quorum.ts';
import { logShardOf } from '../protocol/sharding.ts';
import type { Prng } from './prng.ts';

/** What a behaviour may do about one faulty transaction. */
export interface FaultyTxnContext {
  /** The transaction, as the correct core encoded it. */
  readonly txn: Txn;
  readonly q: Quorums;
  readonly prng: Prng;
  nowMicros(): number;
  /** Sends a message of the behaviour's own making, `afterUs` from now. */
  send(to: ReplicaRef, msg: Message, afterUs?: number): void;
  /** Tells the workload this transaction is over for the client (its outcome is left to the replicas). */
  release(): void;
  /** A transaction the behaviour made up and sent (the checker must know it: it may commit). */
  shadow(txn: Txn): void;
  note(what: string): void;
  /** Counts an event of the behaviour (reported by the simulation). */
  count(event: string): void;
}

export interface FaultyTxnHandler {
  /** The correct core wants to send `msg` (about this transaction) to `to`: true lets it leave. */
  outgoing(msg: Message, to: ReplicaRef): boolean;
  /** A verified reply about this transaction: true lets the core see it. */
  incoming(from: ReplicaRef, msg: Message): boolean;
}

export interface ClientBehavior {
  readonly name: string;
  /**
   * False: only the original commit misbehaves; if the client's core later finishes the same
   * transaction as a dependency of its next one, that recovery is correct. True: the client forgot
   * the transaction and drops its own recoveries of it too.
   */
  readonly forgets: boolean;
  /** Called when the core sends the faulty transaction's first ST1. */
  start(ctx: FaultyTxnContext): FaultyTxnHandler;
}

/** Request id of messages a behaviour makes up (the core numbers its requests from 1). */
const OWN_REQ = 0;

/** Lets the first ST1 broadcast (the one carrying `req`) leave to `reach`, then goes silent: a crash. */
function crashAfter(ctx: FaultyTxnContext, reach: (index: number) => boolean): FaultyTxnHandler {
  let st1Req = -1;
  ctx.release();
  return {
    outgoing(m, to) {
      if (m.kind !== 'prepare') return false;
      if (st1Req < 0) st1Req = m.req;
      return m.req === st1Req && reach(to.index);
    },
    incoming: () => false,
  };
}

/** Indexes 0..n-1 in a seeded order. */
function shuffled(n: number, prng: Prng): number[] {
  const xs = Array.from({ length: n }, (_, i) => i);
  for (let i = n - 1; i > 0; i--) {
    const j = prng.int(i + 1);
    [xs[i], xs[j]] = [xs[j]!, xs[i]!];
  }
  return xs;
}

/**
 * Equivocates on ST2 (PROTOCOL §7): before its ST1, the client prepares a made-up read-only
 * transaction T' (T's reads at T + 1 µs) at f+1 replicas of each shard, so those replicas abstain
 * on T (a prepared reader above T read a key T writes) while the others vote COMMIT. Holding 3f+1
 * COMMIT votes of every shard and f+1 ABSTAIN votes, it logs COMMIT at half of the logging shard
 * and ABORT at the other half (no side reaches 4f+1), and goes silent. When the split does not
 * happen (a read-only T, reordered messages) it only withholds the writeback.
 */
function equivocate(ctx: FaultyTxnContext): FaultyTxnHandler {
  const { txn, q } = ctx;
  const body = txn.body;
  const commits = new Map<ShardId, Map<number, SigProof>>();
  const abstains = new Map<ShardId, Map<number, SigProof>>();
  for (const s of body.shards) {
    commits.set(s, new Map());
    abstains.set(s, new Map());
  }
  const holdUntil = ctx.nowMicros() + 50_000;
  let st1Held = -1;
  let equivocated = false;
  if (body.writes.length > 0) {
    const shadow = encodeTxn({ ...body, ts: { micros: body.ts.micros + 1, clientId: body.ts.clientId }, writes: [] });
    ctx.shadow(shadow);
    for (const shard of body.shards) {
      for (const index of shuffled(q.n, ctx.prng).slice(0, q.f + 1)) ctx.send({ shard, index: index as ReplicaRef['index'] }, { kind: 'prepare', req: OWN_REQ, txn: shadow });
    }
    ctx.count('shadow-prepared');
    ctx.note(`equivocating client prepares ${shadow.key.slice(0, 12)} at f+1 replicas before ${txn.key.slice(0, 12)}`);
  }
  const take = (sigs: Map<number, SigProof>, count: number): SigProof[] =>
    [...sigs.entries()].sort((a, b) => a[0] - b[0]).slice(0, count).map((e) => e[1]);
  const tryEquivocate = (): void => {
    if (equivocated) return;
    const abortShard = body.shards.find((s) => abstains.get(s)!.size >= q.abortSlow);
    if (abortShard === undefined || !body.shards.every((s) => commits.get(s)!.size >= q.commitSlow)) return;
    equivocated = true;
    const commitJust: VoteCert = { decision: 'commit', shards: body.shards.map((shard) => ({ shard, sigs: take(commits.get(shard)!, q.commitSlow) })) };
    const abortJust: VoteCert = { decision: 'abstain', shards: [{ shard: abortShard, sigs: take(abstains.get(abortShard)!, q.abortSlow) }] };
    const logShard = logShardOf(txn.digest, body.shards);
    for (let i = 0; i < q.n; i++) {
      const commit = i < Math.ceil(q.n / 2);
      ctx.send(
        { shard: logShard, index: i as ReplicaRef['index'] },
        { kind: 'decide', req: OWN_REQ, digest: txn.digest, decision: commit ? 'commit' : 'abort', view: 0, logShard, justification: commit ? commitJust : abortJust, txn },
      );
    }
    ctx.note(`equivocating client logs COMMIT and ABORT of ${txn.key.slice(0, 12)}`);
    ctx.count('equivocated');
    ctx.release();
  };
  return {
    outgoing(m, to) {
      if (equivocated || m.kind === 'writeback') return false;
      if (m.kind === 'prepare') {
        // The first ST1 waits 2 ms, so the made-up transaction arrives first.
        if (body.writes.length === 0) return true;
        if (st1Held < 0) st1Held = m.req;
        if (m.req !== st1Held) return true;
        ctx.send(to, m, 2_000);
        return false;
      }
      // The core's own ST2 waits a little for the votes that make the split possible.
      return ctx.nowMicros() >= holdUntil;
    },
    incoming(from, m) {
      if (m.kind === 'prepareReply' && m.decided === null && m.sig !== null && m.decision !== 'abort') {
        (m.decision === 'commit' ? commits : abstains).get(from.shard)?.set(from.index, m.sig);
        tryEquivocate();
      }
      return !equivocated;
    },
  };
}

export const CLIENT_BEHAVIORS = {
  /** Sends its ST1 to every replica, then never talks again (prototype: `client-crash`). */
  'crash-after-st1': { name: 'crash-after-st1', forgets: false, start: (ctx) => crashAfter(ctx, () => true) },
  /**
   * Like `crash-after-st1`, and the client never finishes the transaction later either, even when
   * its next transaction read the prepared writes: chains of stalled dependencies (T2 read T1's
   * prepared writes, both abandoned) that only other clients can finish.
   */
  'crash-forget': { name: 'crash-forget', forgets: true, start: (ctx) => crashAfter(ctx, () => true) },
  /** Sends its ST1 to at most 3f+1 replicas of each shard (a seeded subset), then stops (`client-send-partial-p1`). */
  'partial-st1': {
    name: 'partial-st1',
    forgets: false,
    start(ctx) {
      const reach = new Set(shuffled(ctx.q.n, ctx.prng).slice(0, ctx.prng.range(1, ctx.q.commitSlow)));
      return crashAfter(ctx, (i) => reach.has(i));
    },
  },
  /** Runs ST1 and ST2 to a certified outcome but never sends the writeback (`client-stall-after-p1`). */
  'stall-after-decision': {
    name: 'stall-after-decision',
    forgets: false,
    start: () => ({ outgoing: (m) => m.kind !== 'writeback', incoming: () => true }),
  },
  /** Logs conflicting ST2 decisions when it can justify both (`client-equivocate`); see `equivocate`. */
  'equivocate-st2': { name: 'equivocate-st2', forgets: false, start: equivocate },
} as const satisfies Record<string, ClientBehavior>;

export type ClientBehaviorName = keyof typeof CLIENT_BEHAVIORS;
