/**
 * One range read (PROTOCOL §4.2): a SQL statement executed by the replicas of one shard at T.
 *
 * Rounds. Round 0 (eager) goes to 4f+1 replicas; every later round k re-executes on a snapshot
 * proposal and goes to 3f+1 (which ones: query-targets.ts), widened to the rest as soon as the asked
 * ones can no longer reach 3f+1 matching replies (or on timeout). A round succeeds when 3f+1 replies agree on (result, read set,
 * predicates without their table versions); replies differing only in table versions still match,
 * and each predicate then carries the minimum version among the matching replies (the conservative
 * one: SemanticCC checks writes down to it). A round fails once no group can reach 3f+1 any more
 * (every asked replica answered), or on timeout with at least 3f+1 replies in. Then the next proposal
 * is built from 3f+1 snapshot votes of the failed round: a transaction enters when at least f+1 votes
 * name it (so some correct replica has it), with those voters as the replicas to fetch it from.
 * After `retriesMax` sync rounds the read gives up (the transaction must abort).
 *
 * Dependencies: a prepared version the result depends on is kept only when at least 2f+1 of the
 * matching replies report it; with fewer, at least f+1 of them saw that very version committed
 * (the read sets match), so some correct replica has it committed.
 *
 * `forceSync` (a fault knob of the paper's stress runs) treats every eager round as failed: it moves
 * to the sync round with the first 3f+1 replies, as a round that failed to match would.
 *
 * Digest-only replies (decision 0027): in each round the first replicas asked beyond 3f (`ask`: one of
 * 3f+1, f+1 of 4f+1) are designated and send the full reply; the others send the digest of their result and read set
 * (protocol/query-digest.ts) with predicates, dependencies and snapshot vote in full. A reply counts
 * toward 3f+1 by that digest; a full reply matches a digest reply when its own body hashes to it. A
 * round succeeds only with 3f+1 matching replies of which one is full: the result and read set it
 * returns are then the ones 3f+1 replicas vouched for, whatever any single replica sent. A group of
 * 3f+1 without a full member asks f+1 of its members for the full reply (at once when no full reply is
 * awaited any more, on the round's timer otherwise), so a designated replica that lies or stays silent
 * costs one more execution, never a wrong result. A full reply from a replica that sent a digest
 * replaces its digest reply only when it hashes to the same digest.
 */
import { bytesEqual } from '../../protocol/codec.ts';
import { bulkEqual } from '../../protocol/codec-fast-wire.ts';
import type { ReplicaIndex, ShardId, TxnDigest } from '../../protocol/ids.ts';
import { digestKey, type DigestKey } from '../../protocol/ids.ts';
import type { Dependency, Predicate, QueryReply, ReadEntry, SnapshotEntry } from '../../protocol/messages.ts';
import { queryBodyDigest } from '../../protocol/query-digest.ts';
import type { Quorums } from '../../protocol/quorum.ts';
import { tsEquals, tsLess, type Timestamp } from '../../protocol/timestamp.ts';

export interface RangeReadSuccess {
  readonly result: Uint8Array;
  readonly reads: readonly ReadEntry[];
  readonly predicates: readonly Predicate[];
  readonly deps: readonly Dependency[];
  /** Sync rounds it took (0: the eager round matched). */
  readonly syncRounds: number;
}

export type RangeReadStep =
  | { readonly k: 'wait' }
  | { readonly k: 'done'; readonly ok: RangeReadSuccess }
  /**
   * Start round `retry` with this proposal. `current`: replicas whose votes named every proposed
   * transaction (they re-execute without fetching anything first).
   */
  | { readonly k: 'sync'; readonly retry: number; readonly snapshot: readonly SnapshotEntry[]; readonly current: readonly ReplicaIndex[] }
  /** The replicas asked in this sync round can no longer agree: ask these too. */
  | { readonly k: 'more'; readonly targets: readonly ReplicaIndex[] }
  | { readonly k: 'failed'; readonly reason: 'no-match' };

/**
 * Whether two replies agree on what 3f+1 must agree on: result bytes, read set, and predicates without
 * their table versions. Compared in place: building a key string of each reply cost ~55 ms per
 * 10,000-row reply (decision 0015); this walks the arrays once and allocates nothing.
 */
export function repliesMatch(a: QueryReply, b: QueryReply): boolean {
  if (a.predicates.length !== b.predicates.length) return false;
  if (a.bodyDigest !== undefined || b.bodyDigest !== undefined) {
    if (!bytesEqual(bodyDigestOf(a), bodyDigestOf(b))) return false;
  } else if (!bodiesEqual(a, b)) return false;
  for (let i = 0; i < a.predicates.length; i++) {
    const x = a.predicates[i]!;
    const y = b.predicates[i]!;
    if (x.table !== y.table || !bytesEqual(x.expr, y.expr)) return false;
  }
  return true;
}

/** Whether two full replies carry the same result and read set. */
function bodiesEqual(a: QueryReply, b: QueryReply): boolean {
  if (a.reads.length !== b.reads.length) return false;
  if (!bulkEqual(a.result, b.result)) return false;
  // Replies whose read entries were the same bytes share one decoded array (protocol/codec-query.ts).
  for (let i = 0; a.reads !== b.reads && i < a.reads.length; i++) {
    const x = a.reads[i]!;
    const y = b.reads[i]!;
    if (x.key !== y.key || !tsEquals(x.version, y.version)) return false;
  }
  return true;
}

const fullDigests = new WeakMap<QueryReply, Uint8Array>();

/** The digest a digest-only reply carries, or the one a full reply's body hashes to (computed once per reply). */
function bodyDigestOf(r: QueryReply): Uint8Array {
  if (r.bodyDigest !== undefined) return r.bodyDigest;
  let d = fullDigests.get(r);
  if (d === undefined) fullDigests.set(r, (d = queryBodyDigest(r.result, r.reads)));
  return d;
}

export class RangeRead {
  retry = 0;
  readonly asked = new Set<number>();
  #replies = new Map<number, QueryReply>();
  /** Replies of this round grouped by `repliesMatch` (the first member stands for its group). */
  #groups: number[][] = [];
  /** The last read set found sorted and below T (replies with the same bytes share one array). */
  #readsChecked: readonly ReadEntry[] | null = null;
  /** This round's replicas asked for a full reply (the designated ones, then any asked for the body). */
  #fullAsked = new Set<number>();
  /** Of those, the ones whose full reply has not come (a group without a body waits for them). */
  #fullPending = new Set<number>();
  /** Replies of this round in when its timer last fired (`laggingAtTimeout`). */
  #repliesAtTimeout = 0;
  done = false;
  /**
   * Set when a round ends (decided, failed, or moved to a sync round): the replicas that replied
   * outside its matching group, or without one outside its single largest group (query-targets.ts).
   */
  roundOutliers: readonly number[] = [];

  constructor(
    readonly shard: ShardId,
    readonly ts: Timestamp,
    readonly q: Quorums,
    readonly retriesMax: number,
    readonly forceSync: boolean,
    /** Ask for digest-only replies from all but the designated replicas of a round (`ask`); else every reply is full. */
    readonly digestReplies = true,
  ) {}

  /**
   * Marks `targets` asked in this round and says, for each, whether it may answer with a digest
   * (decision 0027, 0053). The first send of a round designates `targets.length - 3f` of them (at least
   * one) to send the full reply: then any 3f+1 of those asked include a designated replica, so with
   * every replica correct the first 3f+1 replies carry a body (f+1 of 4f+1; one of 3f+1, where every
   * reply is needed anyway). A replica added to the round later (widening) sends the full reply while a
   * designated one has not answered (it may be the faulty one), a digest otherwise; one asked for the
   * body (a 'more' step of `#askBody`) always sends it.
   */
  ask(targets: readonly number[]): boolean[] {
    // Full replies still to designate among these targets.
    let full = this.asked.size === 0 ? Math.max(1, targets.length - this.q.commitSlow + 1) : this.#fullPending.size > 0 ? targets.length : 0;
    return targets.map((i) => {
      this.asked.add(i);
      if (!this.digestReplies || this.#fullAsked.has(i)) return false;
      if (full === 0) return true;
      full--;
      this.#fullAsked.add(i);
      this.#fullPending.add(i);
      return false;
    });
  }

  /** Asked replicas that have not answered this round. */
  silentTargets(): ReplicaIndex[] {
    const out: ReplicaIndex[] = [];
    for (const i of this.asked) if (!this.#replies.has(i)) out.push(i as ReplicaIndex);
    return out;
  }

  /**
   * The round's timer fired without 3f+1 replies: whether to ask replicas not asked yet (and to ask the
   * silent ones again). Only when some asked replica had answered by the previous firing: then the
   * silent ones lag behind their peers. With no reply a whole period after the first, every replica is
   * slow alike (a big scan on a busy host), and one more replica executing the query only slows the
   * others (decision 0027: at 10,000 rows the 6th replica was asked 200 ms into nearly every read).
   * At most f asked replicas are faulty, so the 3f+1 correct ones answer without it.
   */
  laggingAtTimeout(): boolean {
    const lagging = this.#repliesAtTimeout > 0;
    this.#repliesAtTimeout = this.#replies.size;
    return lagging;
  }

  /** Everyone not asked this round. */
  moreTargets(): ReplicaIndex[] {
    const out: ReplicaIndex[] = [];
    for (let i = 0; i < this.q.n; i++) if (!this.asked.has(i)) out.push(i as ReplicaIndex);
    return out;
  }

  get replyCount(): number {
    return this.#replies.size;
  }

  /** A reply of the current round (the caller routes by request id and checks the sender was asked). */
  add(from: number, r: QueryReply): RangeReadStep {
    if (this.done || r.retry !== this.retry) return { k: 'wait' };
    if (r.bodyDigest === undefined && r.reads !== this.#readsChecked) {
      if (!readsSorted(r.reads) || r.reads.some((e) => !tsLess(e.version, this.ts))) return { k: 'wait' };
      this.#readsChecked = r.reads;
    }
    const prev = this.#replies.get(from);
    // A designated replica's first reply ends the wait for it, whatever its form; a body asked for, only the body.
    if (prev === undefined || r.bodyDigest === undefined) this.#fullPending.delete(from);
    if (prev !== undefined) {
      // Only the body of a digest this replica sent, asked for since (it keeps its place in its group).
      if (prev.bodyDigest === undefined || r.bodyDigest !== undefined || !repliesMatch(prev, r)) return { k: 'wait' };
      this.#replies.set(from, r);
      const g = this.#groups.find((members) => members.includes(from))!;
      return g.length >= this.q.commitSlow && !(this.forceSync && this.retry === 0) ? this.#succeedOrAskBody(g) : { k: 'wait' };
    }
    this.#replies.set(from, r);
    let g: number[] | undefined;
    for (const members of this.#groups) {
      if (repliesMatch(this.#replies.get(members[0]!)!, r)) {
        g = members;
        break;
      }
    }
    if (g === undefined) this.#groups.push((g = []));
    g.push(from);
    if (g.length >= this.q.commitSlow && !(this.forceSync && this.retry === 0)) {
      const step = this.#succeedOrAskBody(g);
      if (step.k !== 'wait') return step;
    }
    // Can any group still reach 3f+1 with the replicas that have not answered?
    const outstanding = this.asked.size - this.#replies.size;
    let best = 0;
    for (const members of this.#groups) best = Math.max(best, members.length);
    if (this.forceSync && this.retry === 0 && this.#replies.size >= this.q.commitSlow) return this.#nextRound();
    if (best + outstanding < this.q.commitSlow) {
      // A sync round asked only 3f+1: widen before giving up on it; so does an eager round that asked
      // fewer than 4f+1 (ClientCoreOptions.queryEagerQuorum), up to 4f+1; then it moves on to sync.
      if (this.retry > 0 && this.asked.size < this.q.n) return { k: 'more', targets: this.moreTargets() };
      if (this.retry === 0 && this.asked.size < this.q.queryFanout) return { k: 'more', targets: this.moreTargets().slice(0, this.q.queryFanout - this.asked.size) };
      return this.#nextRound();
    }
    return { k: 'wait' };
  }

  /**
   * The round's timer fired: ask f+1 more members of a bodiless 3f+1 group for the body, else move on if
   * 3f+1 votes are in, else the caller asks more replicas.
   */
  onTimeout(): RangeReadStep {
    if (this.done) return { k: 'wait' };
    const bodiless = this.#groups.find((g) => g.length >= this.q.commitSlow);
    if (bodiless !== undefined && !(this.forceSync && this.retry === 0)) {
      const ask = this.#askBody(bodiless, this.q.snapshotInclude);
      if (ask.k !== 'wait') return ask;
    }
    if (this.#replies.size >= this.q.commitSlow) return this.#nextRound();
    return { k: 'wait' };
  }

  /** A group of 3f+1: done with its full member's body, else ask f+1 members for it unless a full reply is still awaited. */
  #succeedOrAskBody(g: readonly number[]): RangeReadStep {
    const body = g.find((i) => this.#replies.get(i)!.bodyDigest === undefined);
    if (body !== undefined) return this.#succeed(g, body);
    if (this.#fullPending.size > 0) return { k: 'wait' };
    return this.#askBody(g, this.q.snapshotInclude);
  }

  /** Asks up to `count` members of `g` not asked for a full reply yet (a 'more' step the caller sends). */
  #askBody(g: readonly number[], count: number): RangeReadStep {
    const targets: ReplicaIndex[] = [];
    for (const i of g) {
      if (targets.length >= count) break;
      if (this.#fullAsked.has(i)) continue;
      this.#fullAsked.add(i);
      this.#fullPending.add(i);
      targets.push(i as ReplicaIndex);
    }
    return targets.length === 0 ? { k: 'wait' } : { k: 'more', targets };
  }

  /** The replicas that replied outside `members` (or outside the single largest group). */
  #closeRound(members: readonly number[] | null): void {
    let main = members;
    if (main === null) {
      const sizes = this.#groups.map((g) => g.length).sort((a, b) => b - a);
      main = sizes.length > 0 && sizes[0] !== sizes[1] ? this.#groups.find((g) => g.length === sizes[0])! : null;
    }
    const out: number[] = [];
    if (main !== null) for (const i of this.#replies.keys()) if (!main.includes(i)) out.push(i);
    this.roundOutliers = out;
  }

  #succeed(members: readonly number[], bodyFrom: number): RangeReadStep {
    this.done = true;
    this.#closeRound(members);
    const replies = members.map((i) => this.#replies.get(i)!);
    const first = this.#replies.get(bodyFrom)!;
    const predicates = first.predicates.map((p, i) => {
      let v = p.tableVersion;
      for (const r of replies) {
        const tv = r.predicates[i]!.tableVersion;
        if (tsLess(tv, v)) v = tv;
      }
      return { table: p.table, tableVersion: v, expr: p.expr };
    });
    const depVotes = new Map<string, { dep: Dependency; n: number }>();
    for (const r of replies) {
      const seen = new Set<string>();
      for (const d of r.deps) {
        const k = digestKey(d.digest) + d.ts.micros + ':' + d.ts.clientId + ':' + d.shard;
        if (seen.has(k)) continue;
        seen.add(k);
        const e = depVotes.get(k);
        if (e === undefined) depVotes.set(k, { dep: d, n: 1 });
        else e.n++;
      }
    }
    const deps = [...depVotes.values()].filter((e) => e.n >= this.q.queryDependency && e.dep.shard === this.shard).map((e) => e.dep);
    return { k: 'done', ok: { result: first.result, reads: first.reads, predicates, deps, syncRounds: this.retry } };
  }

  #nextRound(): RangeReadStep {
    this.#closeRound(null);
    if (this.retry >= this.retriesMax) {
      this.done = true;
      return { k: 'failed', reason: 'no-match' };
    }
    const votes = new Map<DigestKey, { digest: TxnDigest; holders: number[] }>();
    let counted = 0;
    for (const [from, r] of this.#replies) {
      if (counted >= this.q.commitSlow) break;
      counted++;
      const mine = new Set<DigestKey>();
      for (const d of [...r.snapshotCommitted, ...r.snapshotPrepared]) {
        const k = digestKey(d);
        if (mine.has(k)) continue;
        mine.add(k);
        const e = votes.get(k);
        if (e === undefined) votes.set(k, { digest: d, holders: [from] });
        else e.holders.push(from);
      }
    }
    const snapshot: SnapshotEntry[] = [...votes.entries()]
      .filter(([, e]) => e.holders.length >= this.q.snapshotInclude)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([, e]) => ({ digest: e.digest, holders: e.holders.sort((a, b) => a - b) }));
    // Voters named in every entry hold the whole proposal (all of them, when it is empty).
    const named = new Map<number, number>();
    for (const e of snapshot) for (const h of e.holders) named.set(h, (named.get(h) ?? 0) + 1);
    const current: ReplicaIndex[] = [];
    for (let i = 0; i < this.q.n; i++) if (snapshot.length === 0 || named.get(i) === snapshot.length) current.push(i as ReplicaIndex);
    this.retry++;
    this.asked.clear();
    this.#replies = new Map();
    this.#groups = [];
    this.#fullAsked = new Set();
    this.#fullPending = new Set();
    this.#repliesAtTimeout = 0;
    return { k: 'sync', retry: this.retry, snapshot, current };
  }
}

function readsSorted(reads: readonly ReadEntry[]): boolean {
  for (let i = 1; i < reads.length; i++) if (!(reads[i - 1]!.key < reads[i]!.key)) return false;
  return true;
}
