/**
 * Drives one transaction from ST1 to a certified outcome and its writeback (PROTOCOL §6): the
 * client's own commits, and the recovery of a stalled transaction another client left behind (§7:
 * replicas answer a repeated ST1 with their stored vote, or with the certificate if decided).
 *
 * Decision per shard (vote-tally.ts): n COMMIT is the fast path; 3f+1 COMMIT with no ABSTAIN waits
 * `fastPathWaitMs` for the rest, then goes slow; 3f+1 ABSTAIN or one proven ABORT aborts fast; f+1
 * ABSTAIN aborts slowly. Any shard aborting aborts the transaction. The slow path logs the decision
 * with ST2 on the logging shard and waits for 4f+1 matching replies. Lost messages are re-sent on
 * a timer; the outcome is reported once the certificate exists, then the writeback goes out.
 */
import type { DigestKey, ReplicaRef, ShardId } from '../../protocol/ids.ts';
import type { Certificate, Decide, DecideReply, ElectReply, Message, Outcome, PrepareReply, SigProof, St2Cert, Txn, VoteCert, Writeback } from '../../protocol/messages.ts';
import type { Quorums } from '../../protocol/quorum.ts';
import { logShardOf } from '../../protocol/sharding.ts';
import type { Outbox } from './effects.ts';
import type { AbortCause, CommitPath } from './results.ts';
import { VoteTally } from './vote-tally.ts';

export interface FinisherTimeouts {
  /**
   * How long to wait for the last votes once 3f+1 COMMIT votes are in: when every missing replica
   * is seldom late, `LONG_WAIT_FACTOR` times as long as those took to arrive or as long as replies
   * lately take, whichever is longer, at most `fastPathWaitMaxMs`; twice as long as the votes took
   * when a missing replica is often late; at least `fastPathWaitMs`, and only that when a missing
   * replica has not voted recently (crashed or partitioned: waiting for it only adds latency).
   */
  readonly fastPathWaitMs: number;
  readonly fastPathWaitMaxMs: number;
  readonly resendMs: number;
}

/** Routes a finisher's replies and timers back to it (the client core keeps the tables). */
export interface FinisherRouter {
  newReq(fin: Finisher): number;
  newTimer(fin: Finisher, afterMs: number): number;
  nowMs(): number;
  /** Whether a replica voted recently (a crashed one is not worth waiting for). */
  votedRecently(shard: ShardId, index: number): boolean;
  /**
   * Records that a replica voted, and whether its vote was late (it came after the short wait would
   * have ended; null: already counted).
   */
  noteVote(shard: ShardId, index: number, late: boolean | null): void;
  /** Whether a replica's votes lately came late (or not before the wait gave up) often enough not to wait long for it. */
  oftenLate(shard: ShardId, index: number): boolean;
  /**
   * A commit went to the slow path: because a replica abstained, or because the fast-path wait ran
   * out with these replicas (bit per index, per shard) still silent (for metrics: who is late), and
   * which wait that was (`SlowCause`).
   */
  noteSlowCommit(cause: SlowCause, lateReplicas: readonly { readonly shard: ShardId; readonly index: number }[]): void;
  /** A reply to a request that was not sent again arrived `ms` after it left (latency.ts). */
  noteReplyMs(ms: number): void;
  /** How long replies lately take to arrive, at least `floorMs` (adaptive resend and fast-path timers). */
  replyTimeoutMs(floorMs: number): number;
}

export interface FinishResult {
  readonly outcome: Outcome;
  readonly path: CommitPath;
  readonly cause: AbortCause | null;
}

type Phase = 'st1' | 'st2' | 'done';

/**
 * Why a commit went slow: a replica abstained, or the last votes did not come within the wait, which
 * was the long one, the short one (a missing replica is often late) or the floor (a missing replica
 * has not voted for a second).
 */
export type SlowCause = 'abstain' | 'late-long' | 'late-short' | 'late-floor';

/** Longest wait before ST1 or ST2 goes out again, however slow replies were and however many views. */
const RESEND_MAX_MS = 10_000;

const OUTCOMES: readonly Outcome[] = ['commit', 'abort'];

/**
 * The fast-path wait (decision 0030): after 3f+1 COMMIT votes took `e` ms, the short wait is
 * `max(fastPathWaitMs, SHORT_WAIT_FACTOR * e)`; the long one `LONG_WAIT_FACTOR * e` (or as long as
 * replies lately take), used when every missing replica is seldom late. A vote is late when it comes
 * after the short wait would have ended. On the 2-core benchmark machine at 64 clients the last votes
 * are late because a replica was not scheduled for a while, evenly over the replicas; waiting for them
 * was cheaper than the ST2 round (fewer CPU µs per transaction, lower p99). A replica whose votes
 * often need the long wait (a Byzantine one voting at the last moment, an overloaded one) only gets
 * the short one, so it cannot stretch every commit, nor the time its prepared versions stay in other
 * transactions' way (under contention that window is what they abstain on: sim seed 176).
 */
const LONG_WAIT_FACTOR = 8;
const SHORT_WAIT_FACTOR = 2;

export class Finisher {
  /** One tally per involved shard, in body order (a transaction involves few: an array, no Map iterator per vote). */
  readonly #tallies: { readonly shard: ShardId; readonly tally: VoteTally }[] = [];
  phase: Phase = 'st1';
  result: FinishResult | null = null;
  /** Undecided prepared transactions replicas named when they abstained (PROTOCOL §7). */
  readonly blockers = new Map<DigestKey, Txn>();
  /** Request ids of this finisher's messages (the core routes replies by them). */
  readonly reqs: number[] = [];
  /** ST1 and ST2 messages sent again to replicas that had not answered (for metrics). */
  resends = 0;
  #fastTimer = -1;
  #resendTimer = -1;
  #st2: {
    decision: Outcome;
    logShard: ShardId;
    justification: VoteCert;
    /** Latest reply of each replica of the logging shard (a later view replaces an earlier one). */
    replies: Map<number, DecideReply>;
    /** Fallback view this finisher is driving (0: plain ST2), its elects, and whether it sent the decision. */
    view: number;
    elects: Map<number, ElectReply>;
    /** Elects of replicas already in a later view than `view` (another finisher moved them), latest per replica. */
    ahead: Map<number, ElectReply>;
    decided: boolean;
    /** Resends so far in this view, for the backoff. */
    rounds: number;
  } | null = null;

  constructor(
    readonly txn: Txn,
    readonly q: Quorums,
    readonly timeouts: FinisherTimeouts,
    readonly out: Outbox,
    readonly router: FinisherRouter,
    /** Called once, when the outcome is certified (before the writeback is sent). */
    readonly onDone: (r: FinishResult) => void,
  ) {
    for (const shard of txn.body.shards) this.#tallies.push({ shard, tally: new VoteTally(q) });
  }

  #tallyOf(shard: ShardId): VoteTally | undefined {
    for (const t of this.#tallies) if (t.shard === shard) return t.tally;
    return undefined;
  }

  #startedMs = 0;
  /** When (since start) the short fast-path wait would end (-1 until the wait starts): a vote after it is late. */
  #shortWaitEndMs = -1;
  /** Which fast-path wait was armed (for metrics, `SlowCause`). */
  #wait: SlowCause = 'late-long';
  /** ST1 sent again this many times (for the resend backoff), and to which replicas (bit per index). */
  #st1Rounds = 0;
  #resentTo = 0;
  /** Replicas whose vote arrived after ST1's phase and was sampled (bit per index). */
  #sampledLate = 0;

  start(): void {
    this.#startedMs = this.router.nowMs();
    this.#sendPrepare(false);
  }

  onPrepareReply(from: ReplicaRef, m: PrepareReply): void {
    if (this.phase === 'done') return;
    // The certified outcome, from any replica that applied it: the answer to a repeated ST1, and to ST2
    // or fallback messages for a transaction already decided (views cannot change it, PROTOCOL §7).
    if (m.decided !== null) {
      this.#finish(m.decided.cert, this.phase === 'st1' ? 'fast' : 'slow', null, m.decided);
      return;
    }
    const tally = this.#tallyOf(from.shard);
    if (tally === undefined || tally.hasVoted(from.index)) return;
    // A vote after the wait gave up was counted late then (noteSlowCommit).
    const sinceMs = this.router.nowMs() - this.#startedMs;
    this.router.noteVote(from.shard, from.index, this.phase !== 'st1' ? null : this.#shortWaitEndMs >= 0 && sinceMs > this.#shortWaitEndMs);
    // A round trip sample unless ST1 went to this replica again (then the reply may answer either:
    // Karn's rule); the resend timer is long, so only the slowest replies go unsampled. Votes that
    // come after the fast-path wait gave up count too (once per replica): without them the wait
    // never learns how late the last votes get, and under load it kept giving up on them.
    const bit = 1 << from.index;
    if ((this.#resentTo & bit) === 0 && (this.#sampledLate & bit) === 0) {
      this.router.noteReplyMs(this.router.nowMs() - this.#startedMs);
      if (this.phase !== 'st1') this.#sampledLate |= bit;
    }
    if (this.phase !== 'st1') return;
    if (m.conflictPrepared !== null && m.conflictPrepared.key !== this.txn.key) this.blockers.set(m.conflictPrepared.key, m.conflictPrepared);
    if (m.decision === 'abort') tally.conflict = m.conflict;
    else if (m.sig !== null) (m.decision === 'commit' ? tally.commits : tally.abstains).set(from.index, m.sig);
    this.#evaluate(false);
  }

  onDecideReply(from: ReplicaRef, m: DecideReply): void {
    const st2 = this.#st2;
    if (this.phase !== 'st2' || st2 === null || from.shard !== st2.logShard) return;
    const prior = st2.replies.get(from.index);
    if (prior !== undefined && prior.view >= m.view) return;
    st2.replies.set(from.index, m);
    // 4f+1 matching (decision, view) replies form the certificate.
    const matching: DecideReply[] = [];
    for (const r of st2.replies.values()) if (r.decision === m.decision && r.view === m.view) matching.push(r);
    if (matching.length < this.q.st2) {
      // Everyone answered and no decision can reach 4f+1 in its view: the decisions diverged
      // (an equivocating client, or concurrent finishers with different justifications).
      if (st2.replies.size === this.q.n && !st2.decided) this.#startFallback(this.#maxView() + 1);
      return;
    }
    const sigs: SigProof[] = [];
    for (const [, r] of [...st2.replies.entries()].sort((a, b) => a[0] - b[0])) {
      if (r.decision === m.decision && r.view === m.view && sigs.length < this.q.st2) sigs.push(r.sig);
    }
    const cert: St2Cert = { decision: m.decision, logShard: st2.logShard, view: m.view, sigs };
    this.#finish({ kind: 'st2', st2: cert }, 'slow', m.decision === 'abort' ? 'abstained' : null, null);
  }

  onTimer(id: number): void {
    if (this.phase === 'done') return;
    if (id === this.#fastTimer) {
      this.#fastTimer = -1;
      if (this.phase === 'st1') this.#evaluate(true);
      return;
    }
    if (id !== this.#resendTimer) return;
    if (this.phase === 'st1') return this.#sendPrepare(true);
    const st2 = this.#st2!;
    // n - f replies without a certificate, or a fallback view that did not conclude: next view.
    if (st2.view > 0 || st2.replies.size >= this.q.st2) return this.#startFallback(Math.max(st2.view, this.#maxView()) + 1);
    // Whoever has not answered gets the message again.
    this.#sendDecide(true);
  }

  /** A fallback elect statement for the view this finisher drives (PROTOCOL §7). */
  onElectReply(from: ReplicaRef, m: ElectReply): void {
    const st2 = this.#st2;
    if (this.phase !== 'st2' || st2 === null || from.shard !== st2.logShard) return;
    if (m.view > st2.view) return this.#noteAhead(from.index, m);
    if (m.view !== st2.view || st2.decided) return;
    st2.elects.set(from.index, m);
    this.#electIfQuorum();
  }

  /**
   * A replica answered from a later view than ours: another finisher (the transaction's client or a
   * recoverer) moved it there. Once f+1 replicas are ahead, at least one correct replica is in the
   * (f+1)-th highest of their views: this finisher moves to that view (asking the others to follow)
   * rather than proposing views the shard has passed, which replicas would not answer (PROTOCOL §7).
   */
  #noteAhead(index: number, m: ElectReply): void {
    const st2 = this.#st2!;
    const prior = st2.ahead.get(index);
    if (prior !== undefined && prior.view >= m.view) return;
    st2.ahead.set(index, m);
    const view = this.#caughtUpView();
    if (view <= st2.view) return;
    this.#startFallback(view);
    this.#electIfQuorum();
  }

  /** The (f+1)-th highest view replicas reported ahead of this finisher (0 with fewer than f+1). */
  #caughtUpView(): number {
    const views = [...this.#st2!.ahead.values()].map((e) => e.view).sort((a, b) => b - a);
    return views.length > this.q.f ? views[this.q.f]! : 0;
  }

  /** With 2f+1 elects of one decision in this view, broadcasts that decision (PROTOCOL §7). */
  #electIfQuorum(): void {
    const st2 = this.#st2!;
    if (st2.decided) return;
    for (const decision of OUTCOMES) {
      const same = [...st2.elects.entries()].filter(([, e]) => e.decision === decision).sort((a, b) => a[0] - b[0]);
      if (same.length < this.q.elect) continue;
      // 2f+1 replicas elected one decision in this view: any decision certified earlier is that one.
      st2.decided = true;
      const req = this.router.newReq(this);
      const elects = same.slice(0, this.q.elect).map(([, e]) => e.sig);
      for (let i = 0; i < this.q.n; i++) {
        this.out.send(
          { shard: st2.logShard, index: i as ReplicaRef['index'] },
          { kind: 'decisionFb', req, digest: this.txn.digest, decision, view: st2.view, logShard: st2.logShard, elects, txn: this.txn },
        );
      }
      this.#armResend(st2.rounds++);
      return;
    }
  }

  #maxView(): number {
    let v = 0;
    for (const r of this.#st2!.replies.values()) v = Math.max(v, r.view);
    return v;
  }

  /**
   * Asks the logging shard to move to `view` and elect (PROTOCOL §7); backs off view by view. Elects
   * replicas already sent from that view count; those of older views are dropped.
   */
  #startFallback(view: number): void {
    const st2 = this.#st2!;
    st2.view = view;
    st2.elects.clear();
    st2.decided = false;
    for (const [i, e] of st2.ahead) {
      if (e.view === view) st2.elects.set(i, e);
      if (e.view <= view) st2.ahead.delete(i);
    }
    const req = this.router.newReq(this);
    const decide = this.#decideMessage(req);
    for (let i = 0; i < this.q.n; i++) this.out.send({ shard: st2.logShard, index: i as ReplicaRef['index'] }, { kind: 'elect', req, view, decide });
    this.#armResend(view);
  }

  #evaluate(timerFired: boolean): void {
    let allFast = true;
    let waiting = false;
    let slowAbortShard: ShardId | null = null;
    let tentative = false;
    const all = this.#tallies;
    for (const { shard, tally } of all) {
      const s = tally.status();
      switch (s) {
        case 'fast-abort': {
          const cert: Certificate =
            tally.conflict !== null
              ? { kind: 'conflict', conflict: tally.conflict }
              : { kind: 'votes', votes: { decision: 'abstain', shards: [{ shard, sigs: tally.take('abstain', this.q.abortFast) }] } };
          this.#finish(cert, 'fast', tally.conflict !== null ? 'conflict' : 'abstained', null);
          return;
        }
        case 'slow-abort':
          slowAbortShard ??= shard;
          allFast = false;
          break;
        case 'abort-tentative':
          allFast = false;
          tentative = true;
          if (timerFired) slowAbortShard ??= shard;
          break;
        case 'fast-commit':
          break;
        case 'commit-tentative':
          allFast = false;
          tentative = true;
          break;
        case 'slow-commit':
          allFast = false;
          break;
        case 'pending':
          allFast = false;
          waiting = true;
          break;
      }
    }
    if (slowAbortShard !== null) {
      const sigs = this.#tallyOf(slowAbortShard)!.take('abstain', this.q.abortSlow);
      this.#startSt2('abort', { decision: 'abstain', shards: [{ shard: slowAbortShard, sigs }] });
      return;
    }
    if (allFast) {
      const shards = all.map(({ shard, tally }) => ({ shard, sigs: tally.take('commit', this.q.n) }));
      this.#finish({ kind: 'votes', votes: { decision: 'commit', shards } }, 'fast', null, null);
      return;
    }
    if (waiting) return;
    if (tentative && !timerFired) {
      if (this.#fastTimer < 0) this.#fastTimer = this.router.newTimer(this, this.#fastPathWaitMs());
      return;
    }
    // Every shard has 3f+1 COMMIT votes: log the commit on the slow path.
    this.#noteSlowCommit();
    const shards = all.map(({ shard, tally }) => ({ shard, sigs: tally.take('commit', this.q.commitSlow) }));
    this.#startSt2('commit', { decision: 'commit', shards });
  }

  /**
   * How long to wait for the missing votes once 3f+1 COMMIT votes are in (see LONG_WAIT_FACTOR); sets
   * when the short wait would end, against which later votes count as late.
   */
  #fastPathWaitMs(): number {
    const { fastPathWaitMs, fastPathWaitMaxMs } = this.timeouts;
    const elapsed = this.router.nowMs() - this.#startedMs;
    const shortWaitMs = Math.max(fastPathWaitMs, SHORT_WAIT_FACTOR * elapsed);
    this.#shortWaitEndMs = elapsed + shortWaitMs;
    const missing = this.#missing();
    if (!missing.every((r) => this.router.votedRecently(r.shard, r.index))) {
      this.#wait = 'late-floor';
      return fastPathWaitMs;
    }
    // Replies lately took long when often-late replicas answered late: no reason to wait for them.
    if (missing.some((r) => this.router.oftenLate(r.shard, r.index))) {
      this.#wait = 'late-short';
      return shortWaitMs;
    }
    // A multiple of what the 3f+1 votes took, or until votes lately all arrive, whichever is later.
    this.#wait = 'late-long';
    return Math.min(fastPathWaitMaxMs, Math.max(shortWaitMs, LONG_WAIT_FACTOR * elapsed, this.router.replyTimeoutMs(0) - elapsed));
  }

  #noteSlowCommit(): void {
    let abstained = false;
    for (const { tally } of this.#tallies) if (tally.abstains.size > 0) abstained = true;
    this.router.noteSlowCommit(abstained ? 'abstain' : this.#wait, this.#missing());
  }

  /** The replicas whose ST1 vote has not arrived. */
  #missing(): { shard: ShardId; index: number }[] {
    const missing: { shard: ShardId; index: number }[] = [];
    for (const { shard, tally } of this.#tallies) {
      for (let i = 0; i < this.q.n; i++) if (!tally.hasVoted(i)) missing.push({ shard, index: i });
    }
    return missing;
  }

  #startSt2(decision: Outcome, justification: VoteCert): void {
    this.phase = 'st2';
    this.#fastTimer = -1;
    this.#st2 = { decision, logShard: logShardOf(this.txn.digest, this.txn.body.shards), justification, replies: new Map(), view: 0, elects: new Map(), ahead: new Map(), decided: false, rounds: 0 };
    this.#sendDecide(false);
  }

  #sendPrepare(resend: boolean): void {
    if (resend) this.#st1Rounds++;
    // One message for every replica: the shell's encode memo then encodes it once (decision 0032).
    const msg: Message = { kind: 'prepare', req: this.router.newReq(this), txn: this.txn };
    for (const { shard, tally } of this.#tallies) {
      for (let i = 0; i < this.q.n; i++) {
        if (resend && tally.hasVoted(i)) continue;
        if (resend) {
          this.resends++;
          this.#resentTo |= 1 << i;
        }
        this.out.send({ shard, index: i as ReplicaRef['index'] }, msg);
      }
    }
    this.#armResend(this.#st1Rounds);
  }

  #sendDecide(resend: boolean): void {
    const st2 = this.#st2!;
    const msg = this.#decideMessage(this.router.newReq(this));
    for (let i = 0; i < this.q.n; i++) {
      if (resend && st2.replies.has(i)) continue;
      if (resend) this.resends++;
      this.out.send({ shard: st2.logShard, index: i as ReplicaRef['index'] }, msg);
    }
    this.#armResend();
  }

  #decideMessage(req: number): Decide {
    const st2 = this.#st2!;
    return { kind: 'decide', req, digest: this.txn.digest, decision: st2.decision, view: 0, logShard: st2.logShard, justification: st2.justification, txn: this.txn };
  }

  /**
   * Arms the resend timer: the configured time, or three times as long as replies lately take,
   * whichever is longer. Links are ordered streams that queue across reconnects, so a late reply is
   * nearly always queued behind others, not lost, and a resend to a slow replica only adds to its
   * queue (an ST1 it answers again). `backoff` doubles the wait per step (resends of ST1, views of
   * the fallback), capped.
   */
  #armResend(backoff = 0): void {
    const ms = Math.max(this.timeouts.resendMs, 3 * this.router.replyTimeoutMs(0)) * 2 ** Math.min(backoff, 6);
    this.#resendTimer = this.router.newTimer(this, Math.min(ms, RESEND_MAX_MS));
  }

  /** Reports the outcome, then writes it back to every replica of every involved shard. */
  #finish(cert: Certificate, path: CommitPath, cause: AbortCause | null, forwarded: Writeback | null): void {
    if (this.phase === 'done') return;
    this.phase = 'done';
    const outcome: Outcome = cert.kind === 'conflict' ? 'abort' : cert.kind === 'st2' ? cert.st2.decision : cert.votes.decision === 'commit' ? 'commit' : 'abort';
    this.result = { outcome, path, cause: outcome === 'abort' ? (cause ?? 'abstained') : null };
    this.onDone(this.result);
    const digest = this.txn.digest;
    // One message object per variant, so the shell encodes each once for the whole fan-out.
    const bare: Writeback = { kind: 'writeback', digest, cert, txn: null };
    const full: Writeback = { kind: 'writeback', digest, cert, txn: this.txn };
    for (const { shard, tally } of this.#tallies) {
      for (let i = 0; i < this.q.n; i++) {
        // Replicas that voted hold the transaction; the others get it with the certificate.
        this.out.send({ shard, index: i as ReplicaRef['index'] }, forwarded === null && tally.hasVoted(i) ? bare : full);
      }
    }
  }
}
