/**
 * The replica core (DESIGN §2): a pure state machine for one member of a shard. The shell hands it
 * decoded, authenticated and already verified messages (signatures and certificates are checked at
 * the boundary) and drains the effects it returns: messages to send and statements to sign. It
 * never touches sockets, files, clocks or randomness; time comes from the injected environment.
 *
 * Protocol steps (PROTOCOL §4-7):
 * - point reads return the newest committed version below T with its writer's digest (and its commit
 *   proof when asked), and the newest prepared version above it;
 * - ST1 validates once per transaction (validation.ts), prepares the writes as visible prepared
 *   versions, waits for undecided dependencies (telling the client which, §7), then votes; the vote
 *   is signed in a Merkle batch by the shell and stored for every later ST1 of the same transaction;
 * - ST2 adopts the first valid decision and always answers with it; the fallback's views resolve
 *   diverged ones (st2-fallback.ts);
 * - writeback applies a certified outcome: commit turns prepared versions into committed ones,
 *   abort purges them; either wakes dependents (writeback.ts);
 * - range reads (queries), the sync round's fetches between replicas and force materialization are
 *   in range-reads.ts.
 */
import { digestKey, type DigestKey } from '../../protocol/ids.ts';
import { tablePrefix } from '../../sql/row-key.ts';
import type { Key, Message, Prepare, PrepareReply, ReadRequest, SigProof, Txn, VoteDecision } from '../../protocol/messages.ts';
import { voteLeaf } from '../../protocol/statements.ts';
import { tsEquals, tsLess, ZERO_TS, type Timestamp } from '../../protocol/timestamp.ts';
import { assertNever } from '../../protocol/errors.ts';
import type { LogRecord } from '../../protocol/log-record.ts';
import { txnTs } from '../../protocol/stored.ts';
import { MEMO_BYTES_MAX } from './sync-reuse.ts';
import { checkpointOf, checkpointRecords, restoreFrom, type ReplayTarget } from './log-replay.ts';
import { DEFAULT_GRACE, DEFAULT_LIMITS } from '../../protocol/config.ts';
import {
  CatalogLookup,
  dropPredicates,
  graceMicros,
  isNonMonotonic,
  recordPredicates,
  resolvePredicatesLeniently,
  type Grace,
  type ResolvedPredicate,
  type SemanticContext,
} from './semantic-cc.ts';
import { isBulkReadSet } from './bulk-reads.ts';
import { newestBelow, removeByTxn, Store, type KeyState, type TxnKeyStates } from './store.ts';
import { sqlTableOfKey } from './table-writes.ts';
import { appended, NONE, RecordQueue, TxnRecord, type Waiter } from './txn-record.ts';
import { validate, type AbstainReason, type ValidationContext } from './validation.ts';
import { emptyQueryStats, RangeReads } from './range-reads.ts';
import { onDecide, onDecisionFb, onElect, sendDecideReply, type St2Host } from './st2-fallback.ts';
import { onWriteback, type WritebackHost } from './writeback.ts';
import { StorageGc } from './storage-gc.ts';

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

export type { PeerHandle, ReplicaCoreOptions, ReplicaEffect, ReplicaEnv, ReplicaStats, SignRef } from './replica-api.ts';
import type { PeerHandle, ReplicaCoreOptions, ReplicaEffect, ReplicaEnv, ReplicaStats, SignRef } from './replica-api.ts';

const DEFAULT_FETCH_TIMEOUT_MS = 200;
/** Keys the storage collector drops per tick (the shell runs further slices between other work). */
export const STORAGE_GC_SLICE_KEYS = 4096;

export class ReplicaCore {
  readonly store = new Store();
  readonly stats: ReplicaStats = {
    reads: 0,
    readsRefused: 0,
    prepares: 0,
    votes: { commit: 0, abstain: 0, abort: 0 },
    abstainReasons: {},
    abortReasons: {},
    commits: 0,
    aborts: 0,
    st2Adopted: 0,
    rejected: {},
    ...emptyQueryStats(),
  };
  readonly #txns = new Map<DigestKey, TxnRecord>();
  /** Every record of `#txns` in the order made (onTick looks at those older than the window). */
  readonly #made = new RecordQueue();
  /** Records older than the window that could not be dropped yet (undecided, or T not below it). */
  #stragglers: TxnRecord[] = [];
  /** SemanticCC (semantic-cc.ts): decoded catalogs, and the grace periods in microseconds (set on first use). */
  readonly #catalogs = new CatalogLookup();
  #graceUs: Grace | null = null;
  #out: ReplicaEffect[] = [];
  #restoring = false;
  readonly #timers = new Map<number, () => void>();
  #nextTimer = 1;
  readonly range: RangeReads;
  /** Collects retired and abandoned storages (storage-gc.ts); the shell runs its further slices. */
  readonly storageGc: StorageGc;

  constructor(
    readonly opts: ReplicaCoreOptions,
    readonly env: ReplicaEnv,
  ) {
    this.storageGc = new StorageGc(this.store, opts.gcWindowMicros);
    this.range = new RangeReads({
      store: this.store,
      shard: opts.shard,
      index: opts.index,
      n: 5 * opts.f + 1,
      engine: opts.engine,
      fetchTimeoutMs: opts.fetchTimeoutMs ?? DEFAULT_FETCH_TIMEOUT_MS,
      applyFault: opts.applyFault ?? null,
      syncReuseBytesMax: opts.syncReuseBytesMax ?? MEMO_BYTES_MAX,
      limits: opts.limits ?? DEFAULT_LIMITS,
      clockSkewMaxMicros: opts.clockSkewMaxMicros,
      stats: this.stats,
      owns: opts.owns,
      ownsTable: (opts.shardCount ?? 1) > 1 ? (id) => opts.owns(tablePrefix(id)) : undefined,
      nowMicros: () => env.nowMicros(),
      lowWatermark: () => this.#lowWatermark(),
      record: (key) => this.#txns.get(key),
      prepare: (txn) => {
        this.#prepareTxn(txn, null);
        this.range.txnChanged(txn.key);
      },
      writeback: (wb) => onWriteback(this.#decisions, wb),
      send: (to, msg) => this.#send(to, msg),
      sendReplica: (index, msg) => this.#out.push({ kind: 'sendReplica', shard: opts.shard, index, msg }),
      setTimer: (afterMs, fire) => {
        if (this.#restoring) return;
        const id = this.#nextTimer++;
        this.#timers.set(id, fire);
        this.#out.push({ kind: 'timer', id, afterMs });
      },
      reject: (reason) => this.#reject(reason),
    });
  }

  /** Effects produced since the last call, in order. */
  takeEffects(): ReplicaEffect[] {
    const out = this.#out;
    this.#out = [];
    return out;
  }

  /** The transaction with this digest, if this replica has its body. */
  knownTxn(key: DigestKey): Txn | null {
    return this.#txns.get(key)?.txn ?? null;
  }

  txnState(key: DigestKey): TxnRecord['state'] | 'unknown' {
    return this.#txns.get(key)?.state ?? 'unknown';
  }

  get txnCount(): number {
    return this.#txns.size;
  }

  /**
   * One message from link `from`. `replica`: the sender's index when the link is authenticated as a
   * replica of this shard (the shell knows; only such links may fetch or supply transactions).
   */
  handle(from: PeerHandle, msg: Message, replica?: number): void {
    switch (msg.kind) {
      case 'read':
        return this.#onRead(from, msg);
      case 'prepare':
        return this.#onPrepare(from, msg);
      case 'decide':
        return onDecide(this.#decisions, from, msg);
      case 'elect':
        return onElect(this.#decisions, from, msg);
      case 'decisionFb':
        return onDecisionFb(this.#decisions, from, msg);
      case 'writeback':
        return onWriteback(this.#decisions, msg);
      case 'readReply':
      case 'prepareReply':
      case 'decideReply':
      case 'relay':
      case 'electReply':
      case 'queryReply':
        this.#reject('unexpected-kind');
        return;
      case 'query':
        return this.range.onQuery(from, msg);
      case 'fetch':
        if (replica === undefined || replica === this.opts.index) return this.#reject('fetch-not-from-replica');
        return this.range.onFetch(from, msg);
      case 'fetchReply':
        if (replica === undefined || replica === this.opts.index) return this.#reject('fetch-not-from-replica');
        return this.range.onFetchReply(msg, replica);
      default:
        assertNever(msg, 'message');
    }
  }

  onSigned(ref: SignRef, sig: SigProof): void {
    const rec = this.#txns.get(ref.txn);
    if (rec === undefined) return;
    if (ref.kind === 'vote') {
      rec.voteSig = sig;
      this.#flushVoteWaiters(rec);
    } else if (ref.kind === 'elect') {
      this.#send(ref.peer, { kind: 'electReply', req: ref.req, digest: rec.txn!.digest, decision: ref.decision, view: ref.view, logShard: rec.st2!.logShard, sig });
    } else if (rec.st2 !== null && rec.st2.view === ref.view) {
      rec.st2.sig = sig;
      const waiters = rec.st2Waiters;
      rec.st2Waiters = NONE;
      for (const w of waiters) sendDecideReply(this.#decisions, rec, w);
    }
  }

  /**
   * Rebuilds state from the log after a restart (log-replay.ts). Nothing is re-logged; votes and
   * decisions are signed again when someone asks for them.
   */
  restore(records: Iterable<LogRecord>): void {
    this.#restoring = true;
    try {
      restoreFrom(records, this.#replay);
      // What the log brings back of collected storages goes again before the replica serves.
      this.storageGc.collectAll(this.env.nowMicros());
    } finally {
      this.#restoring = false;
      this.#out = [];
    }
  }

  /** The log records that recreate what this replica must keep, for log compaction (log-replay.ts). */
  checkpoint(): LogRecord[] {
    return checkpointOf(this.#replay);
  }

  /** The same records one at a time, with pause points (`null`), for an incremental compaction. */
  checkpointRecords(): Generator<LogRecord | null, void, undefined> {
    return checkpointRecords(this.#replay);
  }

  readonly #replay: ReplayTarget = {
    store: this.store,
    record: (key) => this.#record(key),
    records: () => this.#txns,
    applyPrepared: (rec, txn) => this.#applyPrepared(rec, txn),
    writeback: (wb) => onWriteback(this.#decisions, wb),
    lowWatermark: () => this.#lowWatermark(),
  };

  /**
   * Periodic housekeeping: drops decided transactions older than the low watermark. Only records made
   * before the watermark's time are looked at (a transaction's T is almost always below the time its
   * record was made); those that cannot go yet wait among the stragglers, looked at every tick, so
   * a record goes at most one window later than when its T fell below the watermark.
   */
  onTick(): void {
    const wm = this.#lowWatermark();
    const stay: TxnRecord[] = [];
    const consider = (rec: TxnRecord): void => {
      if (this.#txns.get(rec.key) !== rec) return;
      if (rec.isDecided && rec.txn !== null && tsLess(txnTs(rec.txn), wm)) this.#txns.delete(rec.key);
      else stay.push(rec);
    };
    for (const rec of this.#stragglers) consider(rec);
    this.#made.takeBefore(wm.micros, consider);
    this.#stragglers = stay;
    this.range.onTick();
    this.storageGc.plan(this.env.nowMicros());
    this.storageGc.step(STORAGE_GC_SLICE_KEYS, this.env.nowMicros());
  }

  /** A timer asked for by a `timer` effect fired. */
  onTimer(id: number): void {
    const fire = this.#timers.get(id);
    if (fire === undefined) return;
    this.#timers.delete(id);
    fire();
  }

  // ---- point reads (PROTOCOL §4.1) ----

  #onRead(from: PeerHandle, msg: ReadRequest): void {
    if (tsLess(msg.ts, this.#lowWatermark()) || msg.ts.micros > this.env.nowMicros() + this.opts.clockSkewMaxMicros) {
      this.stats.readsRefused++;
      return;
    }
    this.stats.reads++;
    const ks = this.store.get(msg.key);
    const c = ks === undefined ? undefined : newestBelow(ks.committed, msg.ts);
    let p = ks === undefined ? undefined : newestBelow(ks.prepared, msg.ts);
    if (p !== undefined && c !== undefined && !tsLess(c.ts, p.ts)) p = undefined;
    this.#send(from, {
      kind: 'readReply',
      req: msg.req,
      key: msg.key,
      // The writer's proof only when asked (decision 0010): clients accept f+1 matching reports without it.
      committed: c === undefined || c.proof === null ? null : { version: c.ts, value: c.value, digest: c.proof.txn.digest, proof: msg.proof ? c.proof : null },
      prepared: p === undefined ? null : { version: p.ts, value: p.value, digest: this.#txns.get(p.txn)!.txn!.digest },
    });
  }

  // ---- ST1 (PROTOCOL §5) ----

  #onPrepare(from: PeerHandle, msg: Prepare): void {
    this.#prepareTxn(msg.txn, { peer: from, req: msg.req });
    this.range.txnChanged(msg.txn.key);
  }

  /**
   * Validates `txn` once and prepares it (PROTOCOL §5). `waiter`: the client to answer with the vote;
   * null for a transaction a sync round fetched or named (the vote is stored, signed, sent to nobody).
   */
  #prepareTxn(txn: Txn, waiter: Waiter | null): void {
    const rec = this.#record(txn.key);
    rec.txn ??= txn;
    if (rec.decided !== null) {
      if (waiter !== null) this.#sendPrepareReply(rec, waiter);
      return;
    }
    if (rec.vote !== null) {
      if (waiter === null) return;
      if (rec.vote === 'abort' || rec.voteSig !== null) this.#sendPrepareReply(rec, waiter);
      else {
        rec.voteWaiters = appended(rec.voteWaiters, waiter);
        if (!rec.voteSigning) this.#signVote(rec, rec.vote);
      }
      return;
    }
    if (waiter !== null) rec.voteWaiters = appended(rec.voteWaiters, waiter);
    if (rec.state === 'waiting') {
      if (waiter !== null) this.#relayUndecidedDeps(rec, waiter);
      return;
    }
    this.stats.prepares++;
    const body = txn.body;
    const depKeys: readonly DigestKey[] = body.deps.length === 0 ? NONE : body.deps.map((d) => digestKey(d.digest));
    // One context object for every validation (validate is synchronous): only these fields change.
    const ctx = (this.#validation ??= { ...this.#semantic(), shard: this.opts.shard, shardCount: this.opts.shardCount ?? 1, txnStatus: this.#txnStatus, nowMicros: 0, clockSkewMaxMicros: this.opts.clockSkewMaxMicros, lowWatermark: ZERO_TS, self: rec.key });
    ctx.nowMicros = this.env.nowMicros();
    ctx.lowWatermark = this.#lowWatermark();
    ctx.self = rec.key;
    const verdict = validate(ctx, body, depKeys);
    switch (verdict.kind) {
      case 'abort':
        this.stats.abortReasons[verdict.reason] = (this.stats.abortReasons[verdict.reason] ?? 0) + 1;
        rec.conflict = verdict.conflict;
        this.#finalizeVote(rec, 'abort');
        return;
      case 'abstain':
        rec.abstainedFor = verdict.prepared ?? null;
        this.#abstain(rec, verdict.reason);
        return;
      case 'ok':
        break;
      default:
        assertNever(verdict, 'verdict');
    }
    this.#applyPrepared(rec, txn, verdict.predicates ?? [], verdict.states);
    // Step 10: wait for dependencies of this shard that are not decided yet.
    for (let i = 0; i < body.deps.length; i++) {
      const d = body.deps[i]!;
      if (d.shard !== this.opts.shard) continue;
      const dep = this.#txns.get(depKeys[i]!)!;
      if (dep.state === 'committed') {
        if (!tsEquals(txnTs(dep.txn!), d.ts)) return this.#abstain(rec, 'dependency-late');
        continue;
      }
      rec.undecidedDeps++;
      dep.dependents = appended(dep.dependents, rec.key);
    }
    if (rec.undecidedDeps === 0) {
      this.#finalizeVote(rec, 'commit');
    } else {
      rec.state = 'waiting';
      if (waiter !== null) this.#relayUndecidedDeps(rec, waiter);
    }
  }

  #validation: Mutable<ValidationContext> | null = null;

  /** A dependency's state for validation step 6: decided, prepared here, or unknown. */
  readonly #txnStatus = (k: DigestKey): 'prepared' | 'committed' | 'aborted' | 'unknown' => {
    const r = this.#txns.get(k);
    if (r === undefined) return 'unknown';
    if (r.state === 'committed' || r.state === 'aborted') return r.state;
    return r.prepared ? 'prepared' : 'unknown';
  };

  #abstain(rec: TxnRecord, reason: AbstainReason): void {
    this.stats.abstainReasons[reason] = (this.stats.abstainReasons[reason] ?? 0) + 1;
    this.#finalizeVote(rec, 'abstain');
  }

  #finalizeVote(rec: TxnRecord, decision: VoteDecision): void {
    rec.vote = decision;
    rec.state = 'voted';
    this.stats.votes[decision]++;
    this.#persist({ kind: 'vote', txn: rec.txn!, decision, conflict: decision === 'abort' ? rec.conflict : null });
    if (decision === 'abort') {
      this.#flushVoteWaiters(rec);
      return;
    }
    this.#signVote(rec, decision);
  }

  #signVote(rec: TxnRecord, decision: 'commit' | 'abstain'): void {
    rec.voteSigning = true;
    this.#out.push({ kind: 'sign', leaf: voteLeaf(rec.txn!.digest, this.opts.shard, decision), ref: { kind: 'vote', txn: rec.key } });
  }

  #persist(record: LogRecord): void {
    if (!this.#restoring) this.#out.push({ kind: 'persist', record });
  }

  #flushVoteWaiters(rec: TxnRecord): void {
    const waiters = rec.voteWaiters;
    rec.voteWaiters = NONE;
    for (const w of waiters) this.#sendPrepareReply(rec, w);
  }

  #sendPrepareReply(rec: TxnRecord, w: Waiter): void {
    const txn = rec.txn!;
    const reply: PrepareReply =
      rec.decided !== null
        ? { kind: 'prepareReply', req: w.req, digest: txn.digest, shard: this.opts.shard, decision: rec.vote ?? 'abstain', sig: null, conflict: null, decided: rec.decided, conflictPrepared: null }
        : {
            kind: 'prepareReply',
            req: w.req,
            digest: txn.digest,
            shard: this.opts.shard,
            decision: rec.vote!,
            sig: rec.vote === 'abort' ? null : rec.voteSig,
            conflict: rec.vote === 'abort' ? rec.conflict : null,
            decided: null,
            conflictPrepared: rec.vote === 'abstain' ? this.#undecidedTxn(rec.abstainedFor) : null,
          };
    this.#send(w.peer, reply);
  }

  #relayUndecidedDeps(rec: TxnRecord, w: Waiter): void {
    const body = rec.txn!.body;
    for (const d of body.deps) {
      if (d.shard !== this.opts.shard) continue;
      const dep = this.#txns.get(digestKey(d.digest));
      if (dep === undefined || dep.isDecided || dep.txn === null) continue;
      this.#send(w.peer, { kind: 'relay', req: w.req, waitingDigest: rec.txn!.digest, txn: dep.txn });
    }
  }

  /**
   * Step 9: the transaction's owned writes become prepared versions (noted in their tables' histories,
   * flagged non-monotonic per step 2), its owned reads prepared reads, its predicates are recorded.
   * `predicates` and `states`: as validation decoded and found them; absent when replaying the log,
   * where predicates are decoded again, unresolvable ones kept as covering their whole table. The keys'
   * states are kept on the record for the commit or abort (store.ts TxnKeyStates).
   */
  #applyPrepared(rec: TxnRecord, txn: Txn, predicates?: readonly ResolvedPredicate[], states?: TxnKeyStates): void {
    const { owns } = this.opts;
    const body = txn.body;
    const writes = body.writes;
    const writeStates = states?.writes ?? new Array<KeyState | undefined>(writes.length);
    for (let i = 0; i < writes.length; i++) {
      const w = writes[i]!;
      if (!owns(w.key)) continue;
      writeStates[i] = this.store.prepareWrite(w.key, { ts: body.ts, value: w.value, txn: rec.key, proof: null }, this.#nonMonotonic(w.key, body.ts), writeStates[i]);
    }
    let readStates: (KeyState | undefined)[] | null = null;
    if (isBulkReadSet(body)) this.store.bulkReads.addPrepared(rec.key, body);
    else {
      const reads = body.reads;
      readStates = states?.reads ?? new Array<KeyState | undefined>(reads.length);
      for (let i = 0; i < reads.length; i++) {
        const r = reads[i]!;
        if (!owns(r.key)) continue;
        const ks = (readStates[i] ??= this.store.getOrCreate(r.key));
        ks.addPreparedRead({ readerTs: body.ts, version: r.version, txn: rec.key, proof: null });
      }
    }
    const preds = predicates ?? resolvePredicatesLeniently(this.#semantic(), body);
    recordPredicates(this.store, rec.key, body, preds, false, this.#lowWatermark());
    rec.keyStates = { reads: readStates, writes: writeStates };
    rec.prepared = true;
  }

  /** Purges an undecided or aborted transaction's prepared writes, reads and predicates. */
  #removePrepared(rec: TxnRecord): void {
    if (!rec.prepared) return;
    const { owns } = this.opts;
    const body = rec.txn!.body;
    const states = rec.keyStates;
    const writes = body.writes;
    for (let i = 0; i < writes.length; i++) {
      const w = writes[i]!;
      if (owns(w.key)) this.store.abortWrite(w.key, rec.key, body.ts, states?.writes[i]);
    }
    this.#removePreparedReads(rec.key, body, states);
    dropPredicates(this.store, rec.key, body, owns);
    rec.keyStates = null;
    rec.prepared = false;
  }

  /** `states`: the transaction's key states kept at prepare (TxnRecord.keyStates), else looked up. */
  #removePreparedReads(txn: DigestKey, body: Txn['body'], states: TxnKeyStates | null): void {
    if (isBulkReadSet(body)) {
      this.store.bulkReads.removePrepared(txn);
      return;
    }
    const { owns } = this.opts;
    const reads = body.reads;
    const readStates = states?.reads ?? null;
    for (let i = 0; i < reads.length; i++) {
      const r = reads[i]!;
      if (!owns(r.key)) continue;
      const ks = readStates?.[i] ?? this.store.get(r.key);
      if (ks !== undefined) removeByTxn(ks.preparedReads, txn);
    }
  }

  /**
   * Step 2's flag for a write entering a table's history: older than the table's high-water mark minus
   * grace1. Everything replayed from the log is flagged (the marks restart at zero), which only makes
   * readers look further back.
   */
  #nonMonotonic(key: Key, at: Timestamp): boolean {
    const id = sqlTableOfKey(key);
    if (id === null) return false;
    return this.#restoring || isNonMonotonic(at, this.store.table(id).high, this.#grace());
  }

  #grace(): Grace {
    return (this.#graceUs ??= graceMicros(this.opts.grace ?? DEFAULT_GRACE));
  }

  /** What SemanticCC reads (validation and recording predicates). */
  #semantic(): SemanticContext {
    return { store: this.store, owns: this.opts.owns, grace: this.#grace(), catalogs: this.#catalogs };
  }

  /** What ST2, the fallback (st2-fallback.ts) and writeback (writeback.ts) use of this replica. */
  readonly #decisions: St2Host & WritebackHost = {
    store: this.store,
    stats: this.stats,
    owns: (key) => this.opts.owns(key),
    restoring: () => this.#restoring,
    lowWatermark: () => this.#lowWatermark(),
    txn: (key) => this.#txns.get(key),
    record: (key) => this.#record(key),
    reject: (reason) => this.#reject(reason),
    persist: (record) => this.#persist(record),
    sign: (leaf, ref) => this.#out.push({ kind: 'sign', leaf, ref }),
    send: (to, msg) => this.#send(to, msg),
    semantic: () => this.#semantic(),
    nonMonotonic: (key, at) => this.#nonMonotonic(key, at),
    removePrepared: (rec) => this.#removePrepared(rec),
    removePreparedReads: (txn, body, states) => this.#removePreparedReads(txn, body, states),
    sendPrepareReply: (rec, w) => this.#sendPrepareReply(rec, w),
    flushVoteWaiters: (rec) => this.#flushVoteWaiters(rec),
    abstain: (rec, reason) => this.#abstain(rec, reason),
    finalizeVote: (rec, decision) => this.#finalizeVote(rec, decision),
    rangeDecided: (key, committed) => this.range.decided(key, committed),
  };

  // ---- helpers ----

  #undecidedTxn(key: DigestKey | null): Txn | null {
    if (key === null) return null;
    const r = this.#txns.get(key);
    return r === undefined || r.isDecided ? null : r.txn;
  }

  #record(key: DigestKey): TxnRecord {
    let rec = this.#txns.get(key);
    if (rec === undefined) {
      rec = new TxnRecord(key);
      this.#txns.set(key, rec);
      this.#made.push(rec, this.env.nowMicros());
    }
    return rec;
  }

  #lowWatermark(): Timestamp {
    return { micros: Math.max(0, this.env.nowMicros() - this.opts.gcWindowMicros), clientId: 0 };
  }

  #send(to: PeerHandle, msg: Message): void {
    this.#out.push({ kind: 'send', to, msg });
  }

  #reject(reason: string): void {
    this.stats.rejected[reason] = (this.stats.rejected[reason] ?? 0) + 1;
  }
}
