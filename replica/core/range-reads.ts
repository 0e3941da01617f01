/**
 * The replica side of range reads (PROTOCOL §4.2-4.3, artifact notes §4.3-4.7), driven by ReplicaCore.
 *
 * - Eager round (`retry` 0): execute the statement at T over committed and prepared versions, with the
 *   transaction's own writes overlaid, and reply with the result, the active read set (the catalog key
 *   included), predicates with table versions, dependencies and the snapshot vote.
 * - Sync round (`retry` > 0): the query names a snapshot (transactions with the replicas that voted for
 *   them). Named transactions this replica lacks are fetched from their holders (never from itself);
 *   the query waits until all arrived or `fetchTimeoutMs` passed, then executes in snapshot mode.
 *   A named transaction known here but not applied (this replica voted against it, or never validated
 *   it) is validated now if it never was, and force-materialized if the vote is against it: its writes
 *   go to the store's `forced` chains, seen only by snapshot reads that name it.
 * - Fetch: decided transactions are supplied with their certificates, undecided ones as their ST1.
 *   A supply is accepted only from the replica asked, for digests asked (else counted as a bad supply
 *   and ignored); decided supplies go through the writeback path (certificates were verified at the
 *   boundary), prepared ones through normal ST1 validation without a client waiter.
 *
 * Table versions (PROTOCOL §4.3, artifact notes §4.5): a snapshot execution that skipped a prepared
 * version (its transaction was not named) lowers every predicate's table version to just below that
 * version, so SemanticCC checks the skipped write should its transaction commit below T. (The artifact
 * lowers to the skipped timestamp plus the grace period minus one; just below it is grace-independent
 * and checks at most a few more writes.)
 *
 * The catalog a statement runs on is the value of CATALOG_KEY visible at T (eager: the newest committed
 * version below T; snapshot: a named prepared version may win), unless the transaction's own writes
 * carry one. The catalog version read joins the read set and its chain the snapshot vote.
 *
 * Cheap sync rounds (decision 0025, sync-reuse.ts): an eager execution that read no prepared version is
 * kept a few seconds with what it walked; a sync round of the same query is answered from it when the
 * store still shows the snapshot mode of the proposal exactly the versions it read (else executed).
 *
 * Fault injection (`applyFault`, issue 4): committed writebacks are applied for concurrency control and
 * point reads as usual (the replica still votes correctly), but range reads do not see their writes:
 * never (`omit`) or only after a delay (`delay`). A sync round treats such a transaction as missing, and a
 * fetched supply of it makes its writes visible: the right answer still comes through the sync path.
 * Writebacks replayed from the log at a restart are applied normally (the fault starts afresh).
 *
 * Everything here is deterministic: identical state and query give identical reply bytes. Bad input
 * never throws: SQL errors, malformed parameters, rows or catalogs become error outcomes.
 */
import { CLIENT_ID_MAX, digestFromKey, digestKey, type DigestKey, type ShardId, type TxnDigest } from '../../protocol/ids.ts';
import type { Dependency, FetchReply, Fetch, Key, Message, Predicate, Query, QueryReply, ReadEntry, Txn, Writeback } from '../../protocol/messages.ts';
import { tsLess, ZERO_TS, type Timestamp } from '../../protocol/timestamp.ts';
import { lowerBoundKey } from '../../protocol/sorted-entries.ts';
import type { LimitsConfig } from '../../protocol/config.ts';
import type { Catalog } from '../../sql/catalog.ts';
import type { Engine } from '../../sql/engine.ts';
import { SqlState, toSqlError } from '../../sql/errors.ts';
import { CATALOG_KEY, CatalogCache, CatalogDecodeError } from '../../sql/replicated-catalog.ts';
import type { SqlType, SqlValue } from '../../sql/types.ts';
import { decodeTypedParams, encodeOutcome } from '../../sql/wire-values.ts';
import { WriteBuffer } from '../../sql/write-buffer.ts';
import { encodePredicate, zoneSafeFilter } from '../../sql/predicate-codec.ts';
import { fetchedBytes, replyOverLimits } from './reply-limits.ts';
import { executeAt, replyAsAsked, snapshotVote, unionVotes, type QueryExecution, type SnapshotVote } from './query-exec.ts';
import { SyncReuse } from './sync-reuse.ts';
import { visibleVersion, type ReadMode } from './replica-row-source.ts';
import { decodeRow } from '../../sql/row-codec.ts';
import { pkOfRowKey, tableIdOfKey } from '../../sql/row-key.ts';
import { insertVersion, removeByTxn, type KeyState, type Store, type Version } from './store.ts';
import type { TxnRecord } from './txn-record.ts';

/** Fault injection: committed writes that range reads never see, or see only after `ms`. */
export type ApplyFault = { readonly kind: 'omit' } | { readonly kind: 'delay'; readonly ms: number };

/**
 * The fault of replica s<shard>r<index> from a spec `omit` or `delay:<ms>`, optionally followed by
 * `@s<shard>r<index>,...` (only those replicas are faulty). Throws on a malformed spec.
 */
export function parseApplyFault(spec: string | undefined, shard: number, index: number): ApplyFault | undefined {
  if (spec === undefined || spec === '' || spec === 'none') return undefined;
  const m = /^(omit|delay:(\d+))(?:@(s\d+r\d+(?:,s\d+r\d+)*))?$/.exec(spec);
  if (m === null) throw new Error(`an apply fault is omit or delay:<ms>, optionally followed by @s<shard>r<index>,...; got ${spec}`);
  if (m[3] !== undefined && !m[3].split(',').includes(`s${shard}r${index}`)) return undefined;
  return m[1] === 'omit' ? { kind: 'omit' } : { kind: 'delay', ms: Number(m[2]) };
}

export interface QueryStats {
  /** Eager rounds answered. */
  queriesEager: number;
  /** Sync rounds received (answered once their fetches are in or timed out). */
  queriesSnapshot: number;
  /** Queries refused: T below the low watermark or too far ahead of the clock. */
  queriesRefused: number;
  /** Queries answered with an error outcome. */
  queryErrors: number;
  /** Fetch messages sent to other replicas. */
  fetchesSent: number;
  /** Fetch messages answered. */
  fetchesServed: number;
  /** Fetched transactions applied (decided ones through writeback, prepared ones through validation). */
  fetchSupplies: number;
  /** Supplies that do not match what was asked (Byzantine suppliers), ignored. */
  badSupplies: number;
  /** Sync rounds answered from the eager execution of the same query (sync-reuse.ts), not executed. */
  queriesSnapshotReused: number;
}

export const emptyQueryStats = (): QueryStats => ({
  queriesEager: 0,
  queriesSnapshot: 0,
  queriesRefused: 0,
  queryErrors: 0,
  fetchesSent: 0,
  fetchesServed: 0,
  fetchSupplies: 0,
  badSupplies: 0,
  queriesSnapshotReused: 0,
});

/** What range reads need from the replica core. */
export interface RangeReadHost {
  readonly store: Store;
  readonly shard: ShardId;
  readonly index: number;
  /** Replicas in the shard. */
  readonly n: number;
  readonly engine: Engine | undefined;
  readonly fetchTimeoutMs: number;
  /** Bytes the kept eager executions may retain (sync-reuse.ts). */
  readonly syncReuseBytesMax: number;
  readonly applyFault: ApplyFault | null;
  readonly limits: Pick<LimitsConfig, 'txnKeysMax' | 'messageBytesMax'>;
  readonly clockSkewMaxMicros: number;
  readonly stats: QueryStats;
  owns(key: Key): boolean;
  /** Whether this shard stores a table's rows; undefined with one shard (it stores them all). */
  readonly ownsTable: ((tableId: number) => boolean) | undefined;
  nowMicros(): number;
  lowWatermark(): Timestamp;
  record(key: DigestKey): TxnRecord | undefined;
  /** ST1 validation (and prepare) of `txn` without a client waiting for the vote. */
  prepare(txn: Txn): void;
  /** Applies a certified outcome (the writeback path). */
  writeback(wb: Writeback): void;
  send(to: number, msg: Message): void;
  sendReplica(index: number, msg: Message): void;
  setTimer(afterMs: number, fire: () => void): void;
  reject(reason: string): void;
}

interface Parked {
  readonly from: number;
  readonly msg: Query;
  /** Named transactions not yet usable here. */
  readonly missing: Set<DigestKey>;
  done: boolean;
}

interface FetchRequest {
  readonly holder: number;
  readonly digests: ReadonlySet<DigestKey>;
  readonly expiresMicros: number;
}

const EAGER: ReadMode = { kind: 'eager' };
const COMMITTED: ReadMode = { kind: 'committed' };
const allReadable = (): boolean => true;
/** SQLSTATE data_corrupted: the stored catalog does not replay. */
const DATA_CORRUPTED = 'XX001';
/** SQLSTATE invalid_binary_representation: an own write's row bytes do not decode. */
const INVALID_BINARY = '22P03';
/** Fetch requests are remembered this many fetch timeouts (late honest replies are not bad supplies). */
const FETCH_MEMORY = 4;

type Status = 'ready' | 'missing';

export class RangeReads {
  readonly #catalogs = new CatalogCache();
  /** Force-materialized transactions and the keys they wrote here. */
  readonly #forced = new Map<DigestKey, Key[]>();
  /** Apply fault: committed transactions whose writes range reads do not see (yet). */
  readonly #hidden = new Set<DigestKey>();
  #fault: ApplyFault | null;
  /** Parked sync queries by the transactions they wait for. */
  readonly #waiting = new Map<DigestKey, Set<Parked>>();
  /** Outstanding fetches by request id. */
  readonly #fetches = new Map<number, FetchRequest>();
  #nextFetch = 1;
  readonly #committedVisible = (v: Version): boolean => !this.#hidden.has(v.txn);
  /** Eager executions kept for the sync rounds of the same queries. */
  readonly #reuse: SyncReuse;

  constructor(private readonly host: RangeReadHost) {
    this.#reuse = new SyncReuse(host.store, host.syncReuseBytesMax);
    this.#fault = host.applyFault;
  }

  /** Eager executions kept for sync rounds, and the bytes they retain (tests, metrics). */
  get reuseKept(): { readonly records: number; readonly bytes: number } {
    return { records: this.#reuse.size, bytes: this.#reuse.weight };
  }

  /** Transactions force-materialized here (tests, metrics). */
  get forcedCount(): number {
    return this.#forced.size;
  }

  /** The apply fault in force (null: none). */
  get applyFault(): ApplyFault | null {
    return this.#fault;
  }

  /**
   * Turns the apply fault on or off at run time (a benchmark runs its fault-free and faulty modes on one
   * cluster). Turning it off makes every withheld write visible at once, as a fetch of each would.
   */
  setApplyFault(fault: ApplyFault | null): void {
    this.#fault = fault;
    if (fault !== null) return;
    const hidden = [...this.#hidden];
    this.#hidden.clear();
    for (const key of hidden) this.txnChanged(key);
  }

  /** Committed transactions range reads do not see because of the apply fault. */
  get hiddenCount(): number {
    return this.#hidden.size;
  }

  /** Sync queries waiting for fetched transactions. */
  get parkedCount(): number {
    const all = new Set<Parked>();
    for (const s of this.#waiting.values()) for (const p of s) all.add(p);
    return all.size;
  }

  onQuery(from: number, msg: Query): void {
    const h = this.host;
    if (tsLess(msg.ts, h.lowWatermark()) || msg.ts.micros > h.nowMicros() + h.clockSkewMaxMicros) {
      h.stats.queriesRefused++;
      return;
    }
    if (msg.retry === 0) {
      h.stats.queriesEager++;
      h.send(from, replyAsAsked(msg, this.#execute(from, msg, EAGER)));
      return;
    }
    for (const e of msg.snapshot) {
      for (const x of e.holders) {
        if (!Number.isInteger(x) || x < 0 || x >= h.n) {
          h.reject('query-bad-holder');
          return;
        }
      }
    }
    h.stats.queriesSnapshot++;
    const parked: Parked = { from, msg, missing: new Set(), done: false };
    const asks = new Map<number, Set<DigestKey>>();
    for (const e of msg.snapshot) {
      const key = digestKey(e.digest);
      if (parked.missing.has(key) || this.#status(key, true) === 'ready') continue;
      parked.missing.add(key);
      for (const x of e.holders) {
        if (x === h.index) continue;
        let s = asks.get(x);
        if (s === undefined) asks.set(x, (s = new Set()));
        s.add(key);
      }
    }
    if (parked.missing.size === 0) {
      h.send(from, replyAsAsked(msg, this.#sync(from, msg)));
      return;
    }
    for (const key of parked.missing) {
      let s = this.#waiting.get(key);
      if (s === undefined) this.#waiting.set(key, (s = new Set()));
      s.add(parked);
    }
    const expiresMicros = h.nowMicros() + FETCH_MEMORY * h.fetchTimeoutMs * 1000;
    for (const [holder, keys] of [...asks].sort((a, b) => a[0] - b[0])) {
      const req = this.#nextFetch++;
      this.#fetches.set(req, { holder, digests: keys, expiresMicros });
      h.stats.fetchesSent++;
      h.sendReplica(holder, { kind: 'fetch', req, digests: [...keys].sort().map(digestFromKey) });
    }
    h.setTimer(h.fetchTimeoutMs, () => this.#finish(parked));
  }

  /**
   * A replica of this shard asks for transactions: decided ones with certificates, undecided ones as ST1,
   * as many as fit one message (at least one; the next sync round fetches the rest: reply-limits.ts).
   */
  onFetch(from: number, msg: Fetch): void {
    const h = this.host;
    h.stats.fetchesServed++;
    const decided: Writeback[] = [];
    const prepared: Txn[] = [];
    const seen = new Set<DigestKey>();
    let room = h.limits.messageBytesMax;
    for (const d of msg.digests) {
      const key = digestKey(d);
      if (seen.has(key)) continue;
      seen.add(key);
      const rec = h.record(key);
      if (rec === undefined || rec.txn === null) continue;
      room -= fetchedBytes(rec.txn);
      if (room < 0 && decided.length + prepared.length > 0) break;
      if (rec.decided !== null) decided.push({ kind: 'writeback', digest: rec.decided.digest, cert: rec.decided.cert, txn: rec.txn });
      else prepared.push(rec.txn);
    }
    h.send(from, { kind: 'fetchReply', req: msg.req, decided, prepared });
  }

  /** What replica `sender` supplied for one of our fetches. */
  onFetchReply(msg: FetchReply, sender: number): void {
    const h = this.host;
    const req = this.#fetches.get(msg.req);
    const asked = req !== undefined && req.holder === sender ? req.digests : null;
    if (asked === null || !msg.decided.every((wb) => asked.has(digestKey(wb.digest))) || !msg.prepared.every((t) => asked.has(t.key))) {
      h.stats.badSupplies++;
      return;
    }
    this.#fetches.delete(msg.req);
    for (const wb of msg.decided) {
      h.stats.fetchSupplies++;
      const key = digestKey(wb.digest);
      // The apply fault: a fetched copy of a transaction whose writes were withheld makes them visible.
      if (this.#hidden.delete(key)) this.txnChanged(key);
      else h.writeback(wb);
    }
    for (const txn of msg.prepared) {
      h.stats.fetchSupplies++;
      h.prepare(txn);
    }
  }

  /** The core changed what it knows of a transaction (prepared, voted, decided): wake queries waiting for it. */
  txnChanged(key: DigestKey): void {
    const parked = this.#waiting.get(key);
    if (parked === undefined || this.#status(key, false) === 'missing') return;
    this.#waiting.delete(key);
    for (const p of parked) {
      p.missing.delete(key);
      if (p.missing.size === 0) this.#finish(p);
    }
  }

  /** A certified outcome was applied: drop forced versions; with the apply fault, withhold committed writes. */
  decided(key: DigestKey, committed: boolean): void {
    this.#dropForced(key);
    const fault = this.#fault;
    if (committed && fault !== null) {
      this.#hidden.add(key);
      if (fault.kind === 'delay') {
        this.host.setTimer(fault.ms, () => {
          if (this.#hidden.delete(key)) this.txnChanged(key);
        });
      }
    }
    this.txnChanged(key);
  }

  /** Housekeeping: forget expired fetches and state of transactions the core no longer keeps. */
  onTick(): void {
    const now = this.host.nowMicros();
    this.#reuse.expire(now);
    for (const [req, f] of this.#fetches) if (f.expiresMicros < now) this.#fetches.delete(req);
    for (const key of this.#hidden) if (this.host.record(key) === undefined) this.#hidden.delete(key);
    for (const key of this.#forced.keys()) {
      const rec = this.host.record(key);
      if (rec === undefined || rec.isDecided) this.#dropForced(key);
    }
  }

  /**
   * Whether a named transaction is usable here: committed (and not withheld by the fault), aborted
   * (nothing to read), prepared, or force-materialized. A known transaction that is none of these is
   * validated now if it never was (`validate`) and force-materialized if this replica voted against it.
   */
  #status(key: DigestKey, validate: boolean): Status {
    const rec = this.host.record(key);
    if (rec === undefined || rec.txn === null) return 'missing';
    if (rec.state === 'aborted') return 'ready';
    if (rec.state === 'committed') return this.#hidden.has(key) ? 'missing' : 'ready';
    if (rec.prepared || this.#forced.has(key)) return 'ready';
    if (rec.vote === null) {
      if (!validate || rec.state !== 'new') return 'missing';
      this.host.prepare(rec.txn);
      if (rec.prepared || rec.isDecided) return 'ready';
    }
    this.#force(rec);
    return 'ready';
  }

  #force(rec: TxnRecord): void {
    const body = rec.txn!.body;
    const keys: Key[] = [];
    for (const w of body.writes) {
      if (!this.host.owns(w.key)) continue;
      const ks = this.host.store.getOrCreate(w.key);
      insertVersion((ks.forced ??= []), { ts: body.ts, value: w.value, txn: rec.key, proof: null });
      keys.push(w.key);
    }
    this.#forced.set(rec.key, keys);
  }

  #dropForced(key: DigestKey): void {
    const keys = this.#forced.get(key);
    if (keys === undefined) return;
    this.#forced.delete(key);
    for (const k of keys) {
      const ks = this.host.store.get(k);
      if (ks?.forced == null) continue;
      removeByTxn(ks.forced, key);
      if (ks.forced.length === 0) ks.forced = null;
    }
  }

  #finish(p: Parked): void {
    if (p.done) return;
    p.done = true;
    for (const key of p.missing) {
      const s = this.#waiting.get(key);
      s?.delete(p);
      if (s?.size === 0) this.#waiting.delete(key);
    }
    this.host.send(p.from, replyAsAsked(p.msg, this.#sync(p.from, p.msg)));
  }

  // ---- execution ----

  /** A sync round's reply: from the eager execution of the same query when provably equal, else executed. */
  #sync(from: number, msg: Query): QueryReply {
    const mode = snapshotMode(msg);
    const reused = this.#reuse.answer(from, msg, mode, this.#hidden.size === 0 ? undefined : this.#committedVisible);
    if (reused === null) return this.#execute(from, msg, mode);
    this.host.stats.queriesSnapshotReused++;
    const { snapshotCommitted, snapshotPrepared } = this.#voteDigests(reused.vote.committed, reused.vote.prepared);
    return { kind: 'queryReply', req: msg.req, retry: msg.retry, result: reused.result, reads: reused.reads, predicates: reused.predicates, deps: [], snapshotCommitted, snapshotPrepared };
  }

  #execute(from: number, msg: Query, mode: ReadMode): QueryReply {
    const h = this.host;
    const engine = h.engine;
    if (engine === undefined) return this.#error(msg, SqlState.featureNotSupported, 'this replica runs no SQL engine');
    const committedVisible = this.#hidden.size === 0 ? undefined : this.#committedVisible;

    // The catalog at T, or the transaction's own.
    let catalog: Catalog;
    let catalogRead: ReadEntry | null = null;
    let catalogDep: { txn: DigestKey; ts: Timestamp } | null = null;
    let catalogChain: KeyState | undefined;
    let catalogVersion: Version | null | undefined;
    const own = msg.ownWrites.find((w) => w.key === CATALOG_KEY);
    try {
      if (own !== undefined) {
        catalog = this.#catalogs.of(own.value).catalog;
      } else {
        catalogChain = h.store.get(CATALOG_KEY);
        const v = catalogChain === undefined ? undefined : visibleVersion(catalogChain, msg.ts, mode.kind === 'eager' ? COMMITTED : mode, allReadable, undefined, committedVisible);
        catalog = this.#catalogs.ofStored(v?.version.value ?? null).catalog;
        catalogVersion = v?.version ?? null;
        catalogRead = { key: CATALOG_KEY, version: v?.version.ts ?? ZERO_TS };
        if (v !== undefined && v.prepared) catalogDep = { txn: v.version.txn, ts: v.version.ts };
      }
    } catch (e) {
      if (e instanceof CatalogDecodeError) return this.#error(msg, DATA_CORRUPTED, `the catalog does not decode: ${e.message}`);
      throw e;
    }

    let params: SqlValue[];
    let paramHints: SqlType[];
    try {
      ({ values: params, hints: paramHints } = decodeTypedParams(msg.params));
    } catch (e) {
      return this.#error(msg, SqlState.protocolViolation, `malformed parameters: ${e instanceof Error ? e.message : String(e)}`);
    }

    // The transaction's own writes (rows of tables this catalog knows; others cannot be read anyway).
    let ownWrites: WriteBuffer | undefined;
    for (const w of msg.ownWrites) {
      if (w.key === CATALOG_KEY) continue;
      const id = tableIdOfKey(w.key);
      const table = id === null ? undefined : catalog.getById(id);
      if (table === undefined) continue;
      ownWrites ??= new WriteBuffer();
      const pk = pkOfRowKey(w.key);
      if (w.value === null) {
        ownWrites.delete(table, pk);
        continue;
      }
      try {
        ownWrites.put(table, pk, decodeRow(table, w.value));
      } catch (e) {
        return this.#error(msg, INVALID_BINARY, `malformed own write of table ${table.name}: ${e instanceof Error ? e.message : String(e)}`);
      }
    }

    let exec: QueryExecution;
    try {
      exec = executeAt(engine, msg.sql, params, msg.ts, h.store, catalog, {
        mode,
        recon: msg.recon, timeZone: msg.timeZone,
        paramHints,
        keepScanned: false,
        recordWalks: mode.kind === 'eager',
        ...(h.ownsTable === undefined ? {} : { ownsTable: h.ownsTable }),
        ...(ownWrites === undefined ? {} : { ownWrites }),
        ...(committedVisible === undefined ? {} : { committedVisible }),
      });
    } catch (e) {
      exec = { ok: false, error: toSqlError(e) };
    }
    const catalogVote = catalogChain === undefined ? null : snapshotVote([catalogChain], msg.ts, allReadable, committedVisible);
    // A statement that failed on the catalog this replica shows at T (a table it does not know yet, say)
    // still votes the catalog's chain, so a sync round can name a catalog version this replica lacks.
    if (!exec.ok) return this.#error(msg, exec.error.code, exec.error.message, exec.error.detail, catalogVote);

    let result: Uint8Array;
    try {
      result = encodeOutcome({ ok: true, columns: exec.columns, rows: exec.rows });
    } catch (e) {
      return this.#error(msg, SqlState.internalError, `result does not encode: ${e instanceof Error ? e.message : String(e)}`);
    }
    const reads = catalogRead === null ? exec.reads : withRead(exec.reads, catalogRead);
    // What does not fit a transaction (its read set) or a message fails here alike at every correct replica.
    const over = replyOverLimits(reads, exec.predicates.length, result.length, h.limits);
    if (over !== null) return this.#error(msg, SqlState.programLimitExceeded, over.message, over.hint);
    const skipped = mode.kind === 'snapshot' && exec.lowestSkippedPrepared !== null ? justBelow(exec.lowestSkippedPrepared) : null;
    // Predicates go out without the rows they excuse: the client names them from the matched read set
    // and its own writes (sql/predicate-codec.ts `excusedKeys`, decision 0019).
    const predicates: Predicate[] = exec.predicates.map((p) => ({
      table: p.tableId,
      tableVersion: skipped !== null && tsLess(skipped, p.tableVersion) ? skipped : p.tableVersion,
      expr: encodePredicate({ indexId: p.indexId, lo: p.lo, hi: p.hi, filter: zoneSafeFilter(p.predicate, msg.timeZone), keys: null }),
    }));
    const depList = catalogDep === null ? exec.deps : [catalogDep, ...exec.deps];
    const deps: Dependency[] = depList.map((d) => ({ digest: digestFromKey(d.txn), shard: h.shard, ts: d.ts }));
    const committed = catalogVote === null ? exec.snapshot.committed : unionVotes(exec.snapshot.committed, catalogVote.committed);
    const prepared = catalogVote === null ? exec.snapshot.prepared : unionVotes(exec.snapshot.prepared, catalogVote.prepared);
    if (mode.kind === 'eager' && catalogDep === null) this.#reuse.remember(from, msg, h.nowMicros(), exec, catalogVersion, { result, reads, predicates });
    const { snapshotCommitted, snapshotPrepared } = this.#voteDigests(committed, prepared);
    return {
      kind: 'queryReply',
      req: msg.req,
      retry: msg.retry,
      result,
      reads,
      predicates,
      deps,
      snapshotCommitted,
      snapshotPrepared,
    };
  }

  /** A snapshot vote's transactions as digests. */
  #voteDigests(committed: readonly DigestKey[], prepared: readonly DigestKey[]): { snapshotCommitted: TxnDigest[]; snapshotPrepared: TxnDigest[] } {
    const h = this.host;
    // Committed transactions whose records were collected (older than the history window) are settled
    // everywhere: naming them would only send sync rounds fetching what nobody keeps, then waiting out
    // the fetch timeout. Snapshot executions read committed versions whether named or not.
    // A record's transaction carries its digest bytes: no hex conversion per named transaction (a
    // 10,000-row scan names about 1,000).
    const snapshotCommitted: TxnDigest[] = [];
    for (const k of committed) {
      const rec = h.record(k);
      if (rec !== undefined) snapshotCommitted.push(rec.txn?.digest ?? digestFromKey(k));
    }
    const snapshotPrepared = prepared.map((k) => h.record(k)?.txn?.digest ?? digestFromKey(k));
    return { snapshotCommitted, snapshotPrepared };
  }

  /** An error outcome; `vote`: the snapshot vote of what the statement read before it failed (its catalog). */
  #error(msg: Query, code: string, message: string, detail?: string, vote: SnapshotVote | null = null): QueryReply {
    this.host.stats.queryErrors++;
    return {
      kind: 'queryReply',
      req: msg.req,
      retry: msg.retry,
      result: encodeOutcome({ ok: false, code, message, detail }),
      reads: [],
      predicates: [],
      deps: [],
      ...(vote === null ? { snapshotCommitted: [], snapshotPrepared: [] } : this.#voteDigests(vote.committed, vote.prepared)),
    };
  }
}

/** The greatest timestamp below `t` (ZERO_TS stays). */
function justBelow(t: Timestamp): Timestamp {
  if (t.clientId > 0) return { micros: t.micros, clientId: t.clientId - 1 };
  return t.micros > 0 ? { micros: t.micros - 1, clientId: CLIENT_ID_MAX } : ZERO_TS;
}

function snapshotMode(msg: Query): ReadMode {
  return { kind: 'snapshot', txns: new Set(msg.snapshot.map((e) => digestKey(e.digest))) };
}

/** `reads` (sorted by key, distinct) with `extra` in its place, unless its key is already there. */
function withRead(reads: readonly ReadEntry[], extra: ReadEntry): ReadEntry[] {
  const i = lowerBoundKey(reads, extra.key);
  if (i < reads.length && reads[i]!.key === extra.key) return reads.slice();
  // One array of the final size (a 10,000-row read set was copied three times).
  const out = new Array<ReadEntry>(reads.length + 1);
  for (let j = 0; j < i; j++) out[j] = reads[j]!;
  out[i] = extra;
  for (let j = i; j < reads.length; j++) out[j + 1] = reads[j]!;
  return out;
}
