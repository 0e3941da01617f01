/**
 * The client core: runs transactions for one client identity (DESIGN §2, PROTOCOL §3-7). Pure: the
 * shell feeds it verified replies and timer firings and executes its effects (effects.ts).
 *
 * A transaction picks T = (clock, client id) at begin, reads through point reads (point-read.ts),
 * buffers writes (later reads of the same key see them), and at commit encodes its body once (the
 * digest covers every field any replica checks) and hands it to a Finisher (finisher.ts) for ST1,
 * the fast or slow path, and writeback. A replica that makes the transaction wait for a dependency
 * says so with a Relay; if the transaction is still undecided `relayWaitMs` later, the client
 * finishes the dependency itself (recovery.ts, PROTOCOL §7), which unblocks the replicas.
 */
import { encodeTxn } from '../../protocol/codec.ts';
import { digestKey, type ReplicaRef, type ShardId } from '../../protocol/ids.ts';
import type { Key, Message, QueryReply, ReadEntry, Txn } from '../../protocol/messages.ts';
import { quorums, type Quorums } from '../../protocol/quorum.ts';
import { addShardOfRead, addShardsOfWrite, shardOfKey } from '../../protocol/sharding.ts';
import { TimestampAllocator, ZERO_TS, type Timestamp } from '../../protocol/timestamp.ts';
import { Outbox, type ClientEffect, type ClientEnv } from './effects.ts';
import { Finisher, type FinisherRouter, type FinisherTimeouts } from './finisher.ts';
import { checkReadReply, PointRead, type ReadStep } from './point-read.ts';
import { RangeRead, type RangeReadStep } from './range-read.ts';
import { QueryTargets } from './query-targets.ts';
import { ReplicaPreference } from './replica-preference.ts';
import { Recoveries } from './recovery.ts';
import { RECENT_VOTE_MICROS, RETRY_CAP_MS, RoundTrip, VoteTiming } from './latency.ts';
import { absorbRangeRead, capTableVersion, commitBody, finalReads, isPrivate, mergeRead, queryTooLarge, readFootprint, tooLargeFor, type ActiveTxn, type QueryOp, type ReadOp } from './active-txn.ts';
import { DEFAULT_REPLICA_PREFERENCE_MS, EARLY_RESULT_BYTES, newClientStats, type ClientCoreOptions, type ClientStats, type QuerySpec } from './client-options.ts';

export class ClientCore {
  readonly q: Quorums;
  readonly stats: ClientStats = newClientStats();
  readonly #out = new Outbox();
  readonly #ts: TimestampAllocator;
  readonly #txns = new Map<number, ActiveTxn>();
  readonly #reads = new Map<number, ReadOp>();
  readonly #queries = new Map<number, QueryOp>();
  /** Finishers by request id (ST1 and ST2 replies are routed by request). */
  readonly #byReq = new Map<number, Finisher>();
  readonly #byTimer = new Map<number, Finisher | ReadOp | QueryOp | ActiveTxn | Recoveries>();
  /** The own transaction each commit finisher belongs to (recovery finishers have none). */
  readonly #ownerOf = new WeakMap<Finisher, ActiveTxn>();
  /** Other clients' transactions that blocked ours, finished by us (recovery.ts). */
  readonly #recoveries: Recoveries = new Recoveries({
    finish: (txn, done) => new Finisher(txn, this.q, this.#finisherTimeouts(), this.#out, this.#router, done).start(),
    timer: (afterMs) => this.#timer(afterMs, this.#recoveries),
    relayWaitMs: () => this.opts.relayWaitMs,
    started: () => void this.stats.recoveries++,
  });
  /** Each replica's ST1 votes: when it last voted, how often late, how long they take. */
  readonly #votes = new VoteTiming();
  /** Round trips of point reads (until decided), for the read retry timer. */
  readonly #readRtt = new RoundTrip();
  /** Which replicas range-read rounds ask, learned from how they answered. */
  readonly #queryTargets: QueryTargets;
  /** Where point reads and ties among range-read targets start, kept for a while (decision 0043). */
  readonly #preference: ReplicaPreference;
  #nextTxn = 1;

  /**
   * `timestamps`: the allocator every core of this client id in the process shares (two cores with one
   * id and their own allocators would give two transactions the same timestamp within a millisecond).
   */
  constructor(
    readonly opts: ClientCoreOptions,
    readonly env: ClientEnv,
    timestamps: TimestampAllocator = new TimestampAllocator(opts.clientId),
  ) {
    if (timestamps.clientId !== opts.clientId) throw new RangeError(`timestamp allocator of client ${timestamps.clientId} given to client ${opts.clientId}`);
    this.q = quorums(opts.f);
    this.#ts = timestamps;
    this.#queryTargets = new QueryTargets(this.q, opts.learnQueryTargets !== false);
    this.#preference = new ReplicaPreference(opts.replicaPreferenceMs ?? DEFAULT_REPLICA_PREFERENCE_MS);
  }

  #preferred(): number {
    return this.#preference.start(this.env);
  }

  takeEffects(): ClientEffect[] {
    return this.#out.take();
  }

  begin(): number {
    const id = this.#nextTxn++;
    this.stats.begun++;
    this.#txns.set(id, {
      id,
      ts: this.#ts.next(this.env.nowMicros()),
      private: new Set(),
      readStart: this.#preferred(),
      reads: new Map(),
      readRuns: [],
      runEntries: 0,
      runBytes: 0,
      pointBytes: 0,
      writes: new Map(),
      deps: new Map(),
      predicates: [],
      doomed: null,
      shards: new Set(),
      state: 'active',
      finisher: null,
      relayed: new Map(),
      relayTimer: -1,
    });
    return id;
  }

  /** The transaction a commit or recovery request belongs to (the shell checks replies against it). */
  txnOfReq(req: number): Txn | null {
    return this.#byReq.get(req)?.txn ?? null;
  }

  timestampOf(txnId: number): Timestamp | undefined {
    return this.#txns.get(txnId)?.ts;
  }

  /**
   * Moves an active transaction to a fresh timestamp T' (later than every transaction this client
   * began so far) and returns it (decision 0012: a load commits after its batches). Reads keep their
   * versions, and validation at T' checks that nothing they read changed below T' (PROTOCOL §5 steps
   * 3-4, 7). A predicate's table version is capped at the timestamp its statement executed at: the
   * execution may report a version above that (the table's high-water mark), and writes between the
   * execution's timestamp and that version, invisible to it, must not be skipped by the check at T'.
   */
  advance(txnId: number): Timestamp | undefined {
    const txn = this.#txns.get(txnId);
    if (txn === undefined || txn.state !== 'active') return undefined;
    const old = txn.ts;
    txn.ts = this.#ts.next(this.env.nowMicros());
    for (let i = 0; i < txn.predicates.length; i++) txn.predicates[i] = capTableVersion(txn.predicates[i]!, old);
    return txn.ts;
  }

  /** Declares `prefix` (a fresh storage's row-key prefix) private to the transaction (ActiveTxn.private). */
  markPrivate(txnId: number, prefix: Key): void {
    this.#txns.get(txnId)?.private.add(prefix);
  }

  /** Reads `key` in transaction `txnId`; the result arrives as a `done` effect for `op`. */
  read(txnId: number, key: Key, op: number): void {
    const txn = this.#active(txnId, op);
    if (txn === null) return;
    if (txn.writes.has(key)) return this.#out.done(op, { kind: 'read', value: txn.writes.get(key)!, version: txn.ts });
    const prior = txn.reads.get(key);
    if (prior !== undefined && prior.value !== undefined) return this.#out.done(op, { kind: 'read', value: prior.value, version: prior.version });
    // No transaction can write a key this long (replicas refuse it undecoded), so it is absent at every
    // timestamp: nothing to ask and nothing to validate.
    if (this.opts.txnLimits !== undefined && key.length > this.opts.txnLimits.keyBytesMax) return this.#out.done(op, { kind: 'read', value: null, version: ZERO_TS });
    if (this.#tooOld(txn, op)) return;
    this.stats.reads++;
    const shard = shardOfKey(key, this.opts.shardCount);
    const read = new PointRead(key, shard, txn.ts, this.q);
    const first = read.firstTargets(txn.readStart);
    const r: ReadOp = { op, txn, read, req: this.#out.req(), retryTimer: -1, retries: 0, startedUs: this.env.nowMicros(), first, sampled: 0 };
    this.#reads.set(r.req, r);
    this.#sendRead(r, first);
    r.retryTimer = this.#timer(this.#readRetryMs(), r);
  }

  /**
   * Adds a read the caller already holds (e.g. a cached catalog version) to the read set without
   * asking replicas. Safe under MVTSO: validation aborts the transaction if a newer version committed
   * below T (PROTOCOL §5 step 3), exactly as if the read had returned it.
   */
  noteRead(txnId: number, key: Key, version: Timestamp, value: Uint8Array | null): void {
    const txn = this.#txns.get(txnId);
    if (txn === undefined || txn.state !== 'active') return;
    mergeRead(txn, { key, version }, value);
    addShardOfRead(txn.shards, key, this.opts.shardCount);
  }

  /** What the transaction's reads add to its ST1 so far (active-txn.ts `readFootprint`), or null when it is not active. */
  readFootprint(txnId: number, exact = false): { entries: number; bytes: number } | null {
    const txn = this.#txns.get(txnId);
    return txn === undefined || txn.state !== 'active' ? null : readFootprint(txn, exact);
  }

  /** Runs a range read (PROTOCOL §4.2); the result arrives as a `query` done effect for `op`. */
  query(txnId: number, spec: QuerySpec, op: number): void {
    const txn = this.#active(txnId, op);
    if (txn === null || this.#tooOld(txn, op)) return;
    const tooLarge = queryTooLarge(spec, this.opts.txnLimits);
    if (tooLarge !== null) return this.#out.done(op, { kind: 'failed', reason: 'too-large', detail: tooLarge });
    this.stats.queries++;
    const eagerQuorum = this.opts.queryEagerQuorum !== false;
    const read = new RangeRead(spec.shard, txn.ts, this.q, this.opts.queryRetriesMax ?? 3, this.opts.forceSyncQueries === true, this.opts.queryDigestReplies === true);
    const qo: QueryOp = { op, txn, ts: txn.ts, spec, read, req: this.#out.req(), snapshot: [], timer: -1, timeouts: 0, early: false };
    this.#queries.set(qo.req, qo);
    const targets = this.#queryTargets.eager(spec.shard, this.#preferred());
    this.#sendQuery(qo, eagerQuorum ? targets.slice(0, this.q.commitSlow) : targets);
    qo.timer = this.#timer(this.#queryRoundMs, qo);
  }

  write(txnId: number, key: Key, value: Uint8Array | null): void {
    const txn = this.#txns.get(txnId);
    if (txn === undefined || txn.state !== 'active') return;
    txn.writes.set(key, value);
    addShardsOfWrite(txn.shards, key, this.opts.shardCount);
  }

  /** Forgets a buffered write (a SQL savepoint rolled back); the shards it involved stay involved. */
  unwrite(txnId: number, key: Key): void {
    const txn = this.#txns.get(txnId);
    if (txn !== undefined && txn.state === 'active') txn.writes.delete(key);
  }

  /** Commits; the result arrives as a `done` effect for `op`. */
  commit(txnId: number, op: number): void {
    const txn = this.#active(txnId, op);
    if (txn === null) return;
    const reads = txn.doomed === null ? finalReads(txn) : null;
    if (reads === null) {
      txn.doomed ??= 'two reads saw different versions of a key';
      txn.state = 'done';
      this.#txns.delete(txnId);
      this.stats.aborted++;
      return this.#out.done(op, { kind: 'commit', outcome: 'abort', path: 'local', cause: 'conflict' });
    }
    txn.state = 'committing';
    // Only keys every shard stores were read (the catalog): shard 0 validates them.
    if (txn.shards.size === 0 && (reads.length > 0 || txn.deps.size > 0)) txn.shards.add(0 as ShardId);
    if (txn.shards.size === 0) {
      // Nothing read or written: nothing to validate.
      txn.state = 'done';
      this.#txns.delete(txnId);
      this.stats.committed++;
      return this.#out.done(op, { kind: 'commit', outcome: 'commit', path: 'local' });
    }
    const encoded = encodeTxn(commitBody(txn, reads));
    const tooLarge = this.opts.txnLimits === undefined ? null : tooLargeFor(encoded, this.opts.txnLimits);
    if (tooLarge !== null) {
      txn.state = 'done';
      this.#txns.delete(txnId);
      this.stats.abandoned++;
      return this.#out.done(op, { kind: 'failed', reason: 'too-large', detail: tooLarge });
    }
    const fin = new Finisher(encoded, this.q, this.#finisherTimeouts(), this.#out, this.#router, (r) => {
      txn.state = 'done';
      this.stats.resends += fin.resends;
      this.#txns.delete(txnId);
      if (r.outcome === 'commit') {
        this.stats.committed++;
        if (r.path === 'fast') this.stats.fastCommits++;
        else this.stats.slowCommits++;
        this.#out.done(op, { kind: 'commit', outcome: 'commit', path: r.path });
      } else {
        this.stats.aborted++;
        this.#out.done(op, { kind: 'commit', outcome: 'abort', path: r.path, cause: r.cause ?? 'abstained' });
        // Dependencies relayed to us are finished too: replicas that never saw one abstain for it
        // ('dependency-missing'), so the retry would read from it and abort again until someone does.
        this.#recoveries.schedule(fin.blockers);
        this.#recoveries.schedule(txn.relayed);
      }
    });
    txn.finisher = fin;
    this.#ownerOf.set(fin, txn);
    fin.start();
  }

  /** Abandons an active transaction: nothing was sent to replicas but reads, so nothing to undo. */
  abort(txnId: number): void {
    const txn = this.#txns.get(txnId);
    if (txn === undefined || txn.state !== 'active') return;
    txn.state = 'done';
    this.#txns.delete(txnId);
    this.stats.abandoned++;
  }

  /** A verified message from replica `from`. */
  handle(from: ReplicaRef, msg: Message): void {
    switch (msg.kind) {
      case 'readReply': {
        const r = this.#reads.get(msg.req);
        if (r === undefined || from.shard !== r.read.shard || !r.read.asked.has(from.index)) return;
        this.#sampleRead(r, from.index);
        const check = checkReadReply(msg, r.read.key, r.read.ts);
        if (check !== 'ok') {
          this.#bad(check);
          this.#sendRead(r, r.read.moreTargets());
          return;
        }
        this.#readStep(r, r.read.add(from.index, msg));
        return;
      }
      case 'prepareReply': {
        const fin = this.#byReq.get(msg.req);
        fin?.onPrepareReply(from, msg);
        if (fin !== undefined) this.#forgetIfDone(fin);
        return;
      }
      case 'decideReply': {
        const fin = this.#byReq.get(msg.req);
        fin?.onDecideReply(from, msg);
        if (fin !== undefined) this.#forgetIfDone(fin);
        return;
      }
      case 'electReply': {
        const fin = this.#byReq.get(msg.req);
        fin?.onElectReply(from, msg);
        return;
      }
      case 'relay':
        this.#onRelay(msg.req, msg.txn);
        return;
      case 'queryReply': {
        const qo = this.#queries.get(msg.req);
        if (qo === undefined || from.shard !== qo.read.shard || !qo.read.asked.has(from.index)) return;
        const step = qo.read.add(from.index, msg);
        if (step.k === 'wait' && wantsEarly(qo, msg)) {
          qo.early = true;
          this.#out.early(qo.op, msg.result);
        }
        this.#queryStep(qo, step);
        return;
      }
      case 'query':
      case 'fetch':
      case 'fetchReply':
      case 'read':
      case 'prepare':
      case 'decide':
      case 'writeback':
      case 'elect':
      case 'decisionFb':
        this.#bad('unexpected-kind');
        return;
    }
  }

  onTimer(id: number): void {
    const target = this.#byTimer.get(id);
    if (target === undefined) return;
    this.#byTimer.delete(id);
    if (target instanceof Finisher) {
      target.onTimer(id);
      this.#forgetIfDone(target);
    } else if (target instanceof Recoveries) {
      target.fire();
    } else if ('spec' in target) {
      if (!this.#queries.has(target.req)) return;
      if (this.#tooOld(target.txn, target.op)) {
        this.#queries.delete(target.req);
        return;
      }
      const step = target.read.onTimeout();
      if (step.k === 'wait') {
        // Not enough replies: once the silent ones lag behind their peers (range-read.ts), ask whoever
        // has not been asked; links are reliable streams, so the silent ones are asked again only now
        // and then (a big scan may just be slow).
        const lagging = target.read.laggingAtTimeout();
        const more = lagging ? target.read.moreTargets() : [];
        if (lagging) this.#queryTargets.blame(target.read.shard, target.read.silentTargets());
        target.timeouts++;
        if (more.length > 0) this.#sendQuery(target, more);
        else if (target.timeouts % (lagging ? 5 : 25) === 0) this.#sendQuery(target, target.read.silentTargets());
        target.timer = this.#timer(this.#queryRoundMs, target);
      } else {
        // A 'more' step here asks for a body (range-read.ts): it gets a round timer of its own.
        if (step.k === 'more') target.timer = this.#timer(this.#queryRoundMs, target);
        this.#queryStep(target, step);
      }
    } else if ('read' in target) {
      if (!this.#reads.has(target.req)) return;
      if (this.#tooOld(target.txn, target.op)) {
        this.#reads.delete(target.req);
        return;
      }
      this.stats.readRetries++;
      // Replicas that still owe a proof are not believed any more: decide without them if possible.
      this.#readStep(target, target.read.retry());
      if (!this.#reads.has(target.req)) return;
      // Ask f replicas not asked yet (enough to replace f silent ones; a slow one answers later anyway);
      // once everyone was, ask again whoever has not answered.
      const more = target.read.moreTargets();
      if (more.length === 0) target.sampled = -1; // asked again: later replies are no clean samples
      this.#sendRead(target, more.length > 0 ? more.slice(0, this.q.f) : target.read.silentTargets());
      target.retries++;
      target.retryTimer = this.#timer(this.#readRetryMs() * 2 ** Math.min(target.retries, 4), target);
    } else {
      this.#recoverRelayed(target);
    }
  }

  // ---- internals ----

  #active(txnId: number, op: number): ActiveTxn | null {
    const txn = this.#txns.get(txnId);
    if (txn === undefined || txn.state !== 'active') {
      this.#out.done(op, { kind: 'failed', reason: 'transaction is not active' });
      return null;
    }
    return txn;
  }

  /**
   * True (and `op` failed with 'too-old', the transaction doomed) when the transaction's timestamp has
   * fallen behind what replicas still serve (ClientCoreOptions.staleAfterMicros).
   */
  #tooOld(txn: ActiveTxn, op: number): boolean {
    const limit = this.opts.staleAfterMicros;
    if (limit === undefined || this.env.nowMicros() - txn.ts.micros <= limit) return false;
    this.stats.tooOld++;
    txn.doomed ??= 'the transaction is older than the replicas\' history window';
    this.#out.done(op, { kind: 'failed', reason: 'too-old' });
    return true;
  }

  #readStep(r: ReadOp, step: ReadStep): void {
    switch (step.k) {
      case 'wait':
        return;
      case 'proofs':
        // The freshest committed version reported lacks f+1 matching reports: ask for its proof.
        this.stats.readProofRequests += step.targets.length;
        this.#sendRead(r, step.targets, true);
        return;
      case 'done': {
        const outcome = step.outcome;
        this.#reads.delete(r.req);
        this.#byTimer.delete(r.retryTimer);
        const txn = r.txn;
        if (txn.state !== 'active') return;
        mergeRead(txn, { key: r.read.key, version: outcome.version }, outcome.value);
        addShardOfRead(txn.shards, r.read.key, this.opts.shardCount);
        if (outcome.dep !== null) txn.deps.set(digestKey(outcome.dep.digest), outcome.dep);
        this.#out.done(r.op, { kind: 'read', value: outcome.value, version: outcome.version });
        return;
      }
    }
  }

  /**
   * A first reply from a replica asked in the first round: its round trip is a sample for the retry
   * timer. Replies of slow reads count too (a retry asks other replicas, so these are unambiguous);
   * leaving them out would teach the timer only the fast ones and make it retry the slow ones.
   */
  #sampleRead(r: ReadOp, index: number): void {
    const at = r.first.indexOf(index);
    if (at < 0 || (r.sampled & (1 << at)) !== 0) return;
    r.sampled |= 1 << at;
    this.#readRtt.sample((this.env.nowMicros() - r.startedUs) / 1000, this.env.nowMicros() / 1000);
  }

  /** The read retry timer: the configured time, or longer when reads have lately taken longer. */
  #readRetryMs(): number {
    return this.#readRtt.timeout(this.opts.readRetryMs, RETRY_CAP_MS);
  }

  #sendRead(r: ReadOp, targets: readonly number[], proof = false): void {
    // One message object for every target: the shell encodes it once.
    const msg: Message = { kind: 'read', req: r.req, key: r.read.key, ts: r.read.ts, proof };
    for (const i of targets) {
      r.read.asked.add(i);
      this.#out.send({ shard: r.read.shard, index: i as ReplicaRef['index'] }, msg);
    }
  }

  get #queryRoundMs(): number {
    return this.opts.queryRoundMs ?? Math.max(200, 4 * this.opts.readRetryMs);
  }

  #sendQuery(qo: QueryOp, targets: readonly number[]): void {
    const { spec, read } = qo;
    const msg: Message = {
      kind: 'query',
      req: qo.req,
      ts: qo.ts,
      sql: spec.sql,
      params: spec.params,
      ownWrites: spec.ownWrites,
      recon: spec.recon,
      retry: read.retry,
      snapshot: qo.snapshot,
      ...(spec.timeZone === undefined ? {} : { timeZone: spec.timeZone }),
    };
    let digestOnly: Message | undefined; // all but the designated replicas answer with digests (decision 0027)
    const digests = read.ask(targets);
    for (let k = 0; k < targets.length; k++) {
      this.#out.send({ shard: read.shard, index: targets[k] as ReplicaRef['index'] }, digests[k] === true ? (digestOnly ??= { ...msg, digestOnly: true }) : msg);
    }
  }

  #queryStep(qo: QueryOp, step: RangeReadStep): void {
    if (step.k === 'sync' || step.k === 'done' || step.k === 'failed') this.#queryTargets.noteRound(qo.read.shard, qo.read.roundOutliers, this.env.nowMicros());
    switch (step.k) {
      case 'wait':
        return;
      case 'more':
        this.#sendQuery(qo, step.targets);
        return;
      case 'sync':
        this.stats.querySyncRounds++;
        qo.snapshot = step.snapshot;
        // The eager round's timer must not cut the sync round short (it would widen it at once).
        this.#byTimer.delete(qo.timer);
        this.#sendQuery(qo, this.#queryTargets.sync(qo.read.shard, step.current, this.#preferred()));
        qo.timer = this.#timer(this.#queryRoundMs, qo);
        return;
      case 'failed':
        this.#queries.delete(qo.req);
        this.stats.queriesFailed++;
        qo.txn.doomed ??= 'a range read found no 3f+1 matching replies';
        this.#out.done(qo.op, { kind: 'failed', reason: 'query-unresolved' });
        return;
      case 'done': {
        this.#queries.delete(qo.req);
        if (step.ok.syncRounds === 0) this.stats.queriesEager++;
        const txn = qo.txn;
        if (txn.state !== 'active') return this.#out.done(qo.op, { kind: 'failed', reason: 'transaction is not active' });
        absorbRangeRead(txn, qo, step.ok, this.opts.shardCount);
        this.#out.done(qo.op, { kind: 'query', result: step.ok.result, syncRounds: step.ok.syncRounds });
        return;
      }
    }
  }

  #finisherTimeouts(): FinisherTimeouts {
    const { fastPathWaitMs, fastPathWaitMaxMs, resendMs } = this.opts;
    return { fastPathWaitMs, fastPathWaitMaxMs, resendMs };
  }

  /** Late replies to a decided transaction are not needed: drop its routes. */
  #forgetIfDone(fin: Finisher): void {
    if (fin.phase !== 'done') return;
    for (const r of fin.reqs) this.#byReq.delete(r);
    fin.reqs.length = 0;
  }

  readonly #router: FinisherRouter = {
    newReq: (fin) => {
      const req = this.#out.req();
      this.#byReq.set(req, fin);
      fin.reqs.push(req);
      return req;
    },
    nowMs: () => this.env.nowMicros() / 1000,
    votedRecently: (shard, index) => this.#votes.votedSince(shard * this.q.n + index, this.env.nowMicros() - RECENT_VOTE_MICROS),
    noteVote: (shard, index, late) => this.#votes.voted(shard * this.q.n + index, this.env.nowMicros(), late),
    oftenLate: (shard, index) => this.#votes.oftenLate(shard * this.q.n + index),
    noteSlowCommit: (cause, late) => {
      if (cause === 'abstain') this.stats.slowByAbstain++;
      else this.stats.slowByLate++;
      if (cause === 'late-short') this.stats.slowAfterShortWait++;
      if (cause === 'late-floor') this.stats.slowAfterFloorWait++;
      for (const r of late) this.#votes.missed(r.shard * this.q.n + r.index, this.stats.lateVoters, cause !== 'abstain', this.env.nowMicros());
    },
    noteReplyMs: (ms) => this.#votes.rtt.sample(ms, this.env.nowMicros() / 1000),
    replyTimeoutMs: (floorMs) => this.#votes.rtt.timeout(floorMs, RETRY_CAP_MS),
    newTimer: (fin, afterMs) => {
      const id = this.#out.timer(afterMs);
      this.#byTimer.set(id, fin);
      return id;
    },
  };

  #timer(afterMs: number, target: ReadOp | QueryOp | ActiveTxn | Recoveries): number {
    const id = this.#out.timer(afterMs);
    this.#byTimer.set(id, target);
    return id;
  }

  #onRelay(req: number, dep: Txn): void {
    const fin = this.#byReq.get(req);
    if (fin === undefined || fin.phase === 'done') return;
    const key = dep.key;
    const txn = this.#ownerOf.get(fin);
    if (txn === undefined) {
      // We are finishing someone else's stalled transaction and it waits for a dependency of its
      // own: finish that one first, at once (chains of abandoned transactions, PROTOCOL §7).
      if (fin.txn.body.deps.some((d) => digestKey(d.digest) === key)) this.#recoveries.now([dep]);
      return;
    }
    if (!txn.deps.has(key) || txn.relayed.has(key)) return;
    txn.relayed.set(key, dep);
    if (txn.relayTimer < 0) txn.relayTimer = this.#timer(this.opts.relayWaitMs, txn);
  }

  /** Our transaction still waits: finish each relayed dependency ourselves. */
  #recoverRelayed(txn: ActiveTxn): void {
    txn.relayTimer = -1;
    if (txn.state === 'done') return;
    this.#recoveries.now(txn.relayed.values());
  }

  #bad(reason: string): void {
    this.stats.badReplies[reason] = (this.stats.badReplies[reason] ?? 0) + 1;
  }
}

/**
 * Whether a reply's result goes to the caller early (QuerySpec.early, decision 0052): the first full reply
 * of the current round with a large result, unless the round is an eager one forced to fail (its result
 * is never the agreed one).
 */
function wantsEarly(qo: QueryOp, msg: QueryReply): boolean {
  if (qo.spec.early !== true || qo.early || msg.bodyDigest !== undefined || msg.result.length < EARLY_RESULT_BYTES) return false;
  return msg.retry === qo.read.retry && !(qo.read.forceSync && msg.retry === 0);
}
