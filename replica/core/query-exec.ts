/**
 * Executes a read-only SQL statement on a replica at a transaction timestamp T and reports what
 * PROTOCOL §4.3 asks of an execution (artifact notes §4.3-4.6):
 *
 * - result: the rows, in the plan's deterministic order;
 * - reads (the active read set): (row key, version) of every row that satisfied its scan predicate,
 *   sorted by key, one entry per key. A scan that pins the full primary key records the key even when
 *   the row is absent (version ZERO_TS) or fails the predicate; a key whose visible version is a
 *   deletion is recorded at the deletion's version, so validation does not mistake the deletion for a
 *   conflicting write (PROTOCOL §5 step 3);
 * - predicates: per scan, the table, the key range, the filter with parameters and outer values bound
 *   to constants, and the table version: the newest committed write to the table below T, raised to the
 *   newest version this execution read from the table and to the table's high-water mark, which the
 *   execution then raises to it (the watermark write monotonicity checks, PROTOCOL §5 step 2). Implicit
 *   point reads and empty ranges record no predicate: the read set covers them;
 * - deps: the prepared versions in the read set (transaction and timestamp);
 * - snapshot vote: for every version chain the execution touched, matching or not, the transaction of
 *   the newest committed version below T and of the newest readable prepared version above it.
 *
 * Invariant (PROTOCOL §9, asserted by the tests): reads and predicates together cover every scanned
 * row: a scanned row either is in the read set at the version scanned, or lies in a predicate's range
 * and fails its filter.
 *
 * Only queries run here: DML and DDL are refused (0A000); writes are computed by clients (§4.2, §9.2
 * of the notes). With `recon`, a DML statement runs only its read part (`plan.source`: for UPDATE and
 * DELETE the old full table rows, hidden columns included, after the FROM (USING) items' columns when
 * the statement has them; for MERGE the source's columns, then the target row or NULLs, as UPDATE ...
 * FROM's; for INSERT ... SELECT the source rows in the
 * target columns' types) and returns those rows, so the client can compute the writes. `ownWrites`
 * (the transaction's buffered writes) overlay the store: the execution sees them and never records
 * them. Expected SQL failures come back as `{ ok: false, error }`; broken invariants throw.
 */
import type { DigestKey } from '../../protocol/ids.ts';
import type { Key, Query, QueryReply, ReadEntry } from '../../protocol/messages.ts';
import { entryOfKey, sortByKey } from '../../protocol/sorted-entries.ts';
import { compareTs, maxTs, tsEquals, tsLess, ZERO_TS, type Timestamp } from '../../protocol/timestamp.ts';
import type { Catalog } from '../../sql/catalog.ts';
import { SqlTimestamp } from '../../sql/datetime.ts';
import { coerceParam, runStatement, type Engine, type ExecResult, type ResultColumn } from '../../sql/engine.ts';
import { evalPredicate, makeEnv } from '../../sql/eval.ts';
import { DEFAULT_CODEC_LIMITS } from '../../protocol/codec-txn.ts';
import { indexEntryPrefix } from '../../sql/memory-store.ts';
import { decodeRow } from '../../sql/row-codec.ts';
import type { PredicateRecord } from '../../sql/exec-context.ts';
import { runPlan } from '../../sql/executor.ts';
import { OverlaySource } from '../../sql/overlay-source.ts';
import type { WriteBuffer } from '../../sql/write-buffer.ts';
import { InvariantError, SqlError, SqlState } from '../../sql/errors.ts';
import { ReadRecorder, type ExecContext } from '../../sql/exec-context.ts';
import type { Expr } from '../../sql/expr.ts';
import { lowerStatement, type LoweredStatement } from '../../sql/lower-statement.ts';
import type { SqlType, SqlValue } from '../../sql/types.ts';
import { currentSessionZone, timeZoneSetting, withSessionZone } from '../../sql/session-zone.ts';
import { newestVisibleBelow, ReplicaRowSource, visibleVersion, type ReadMode, type ReplicaRowVersion } from './replica-row-source.ts';
import { pkOfRowKey, rowKey, tableIdOfKey } from '../../sql/row-key.ts';
import type { KeyState, Store, Version } from './store.ts';

export interface QueryPredicate {
  readonly tableId: number;
  /** null: a primary-key range; otherwise the secondary index id. */
  readonly indexId: number | null;
  /** The scanned range `[lo, hi)` over the key's encoding (without the table prefix; hi null = end). */
  readonly lo: string;
  readonly hi: string | null;
  /** Bound filter over table rows; null = every row in the range. */
  readonly predicate: Expr | null;
  readonly tableVersion: Timestamp;
}

export interface QueryDependency {
  readonly txn: DigestKey;
  readonly ts: Timestamp;
}

/** Transactions behind the versions the execution touched, each list distinct (in no particular order: a set). */
export interface SnapshotVote {
  readonly committed: readonly DigestKey[];
  readonly prepared: readonly DigestKey[];
}

export type QueryExecution =
  | {
      readonly ok: true;
      readonly columns: readonly ResultColumn[];
      readonly rows: SqlValue[][];
      /** Sorted by key, distinct keys. */
      readonly reads: readonly ReadEntry[];
      readonly predicates: readonly QueryPredicate[];
      readonly deps: readonly QueryDependency[];
      readonly snapshot: SnapshotVote;
      /** Snapshot mode: the oldest prepared version skipped (its transaction was not proposed). */
      readonly lowestSkippedPrepared: Timestamp | null;
      /** What the executor recorded, for checking the coverage invariant. */
      readonly recorder: ReadRecorder;
      /** The row source it read through (its walks with `recordWalks`, its point lookups). */
      readonly source: ReplicaRowSource;
    }
  | { readonly ok: false; readonly error: SqlError };

export interface ExecuteAtOptions {
  /** Default eager. */
  readonly mode?: ReadMode;
  /**
   * Types to lower the statement's parameters with ('unknown': infer from the text): the client's
   * statement's, sent with the parameters (sql/wire-values.ts's decodeTypedParams). Default: all inferred.
   */
  readonly paramHints?: readonly SqlType[];
  /** Whether this shard stores a table's rows (default every table; replica-row-source.ts). */
  readonly ownsTable?: (tableId: number) => boolean;
  /** Eager mode: which prepared versions may be read (default all). */
  readonly readable?: (v: Version) => boolean;
  /** Raise tables' high-water marks to the reported table versions (default true). */
  readonly observeTableVersions?: boolean;
  /** Which committed versions the execution may see (default all; the apply-omission fault hides some). */
  readonly committedVisible?: (v: Version) => boolean;
  /** The transaction's own buffered writes, seen by the execution and never recorded. */
  readonly ownWrites?: WriteBuffer;
  /** A DML statement runs only its read part and returns those rows (module comment). */
  readonly recon?: boolean;
  /** Keep every scanned row version in `recorder.scanned` (default true; tests check coverage with it). */
  readonly keepScanned?: boolean;
  /** Have the row source record its scans' walks (replica-row-source.ts `ScanWalk`; default false). */
  readonly recordWalks?: boolean;
  /** The client session's TimeZone setting the statement runs in (sql/session-zone.ts; default UTC). */
  readonly timeZone?: string | undefined;
}

const lowered = new WeakMap<Catalog, Map<string, { version: number; l: LoweredStatement }>>();

/**
 * Parses (through the engine's parse cache) and lowers against `catalog` with the parameter types
 * `hints` (sql/wire-values.ts's decodeTypedParams: the client's statement's), cached per catalog version.
 */
export function lowerQuery(engine: Engine, catalog: Catalog, sql: string, hints: readonly SqlType[] = []): LoweredStatement {
  let byText = lowered.get(catalog);
  if (byText === undefined) {
    byText = new Map();
    lowered.set(catalog, byText);
  }
  // Constants are folded in the session's zone ('2020-01-01'::timestamptz): the zone is part of the key.
  const zone = currentSessionZone().name;
  const key = hints.length === 0 && zone === 'UTC' ? sql : `${sql}\u0000${hints.join(',')}\u0000${zone}`;
  const hit = byText.get(key);
  if (hit !== undefined && hit.version === catalog.version) return hit.l;
  const stmts = engine.parse(sql).stmts;
  if (stmts.length !== 1) throw new SqlError(SqlState.syntaxError, 'a query must be exactly one statement');
  const l = lowerStatement(catalog, stmts[0]!, hints);
  if (byText.size > 2000) byText.clear();
  byText.set(key, { version: catalog.version, l });
  return l;
}

export function executeAt(
  engine: Engine,
  statement: string | LoweredStatement,
  params: readonly SqlValue[],
  at: Timestamp,
  store: Store,
  catalog: Catalog,
  options: ExecuteAtOptions = {},
): QueryExecution {
  const mode = options.mode ?? { kind: 'eager' };
  const readable = options.readable ?? ((): boolean => true);
  const committedVisible = options.committedVisible;
  const source = new ReplicaRowSource({
    store,
    at,
    mode,
    readable,
    recordWalks: options.recordWalks === true,
    ...(committedVisible === undefined ? {} : { committedVisible }),
    ...(options.ownsTable === undefined ? {} : { ownsTable: options.ownsTable }),
  });
  const recorder = new ReadRecorder(options.keepScanned !== false);
  let result: ExecResult;
  // Every replica resolves the client's setting the same way (the same Node build: sql/time-zones.ts).
  const zone = timeZoneSetting(options.timeZone ?? 'UTC');
  if (!('zone' in zone)) return { ok: false, error: new SqlError(SqlState.invalidParameterValue, zone.error, zone.detail) };
  try {
    result = withSessionZone(zone, () => {
      const l = typeof statement === 'string' ? lowerQuery(engine, catalog, statement, options.paramHints) : statement;
      const recon = options.recon === true && l.stmt.k === 'dml';
      if (l.stmt.k !== 'query' && !recon) throw new SqlError(SqlState.featureNotSupported, `only queries execute on replicas (got ${l.stmt.k})`);
      const ctx: ExecContext = {
        source: options.ownWrites === undefined || options.ownWrites.isEmpty ? source : new OverlaySource(source, [options.ownWrites]),
        writes: null,
        recorder,
        now: new SqlTimestamp(BigInt(at.micros)),
        nextRowId: () => {
          throw new SqlError(SqlState.featureNotSupported, 'row ids are not available to queries');
        },
        sequences: undefined,
      };
      return recon ? runRecon(l, params, ctx) : runStatement(l, params, ctx);
    }, BigInt(at.micros));
  } catch (e) {
    if (e instanceof SqlError) return { ok: false, error: e };
    throw e;
  }
  if (!result.ok) return result;

  // Active read set and dependencies. A scan records its reads in ascending key order: then the read
  // set is that list as it is, and the map (for repeats and other orders) is built only when needed.
  let readsByKey: Map<Key, Timestamp> | null = null;
  let reads: ReadEntry[] = [];
  const deps = new Map<DigestKey, Timestamp>();
  const readTop = new Map<number, Timestamp>();
  let topTable = -1;
  let top = ZERO_TS;
  for (const r of recorder.reads) {
    // The version carries its store key (a flat, already hashed string); only absent rows need rowKey.
    const key = r.version === null ? rowKey(r.tableId, r.key) : (r.version as ReplicaRowVersion).key;
    const v = r.version === null ? source.pointVersions.get(key) ?? null : (r.version as ReplicaRowVersion);
    // A key longer than any message may carry is never written (replicas refuse such a transaction
    // undecoded), so its absence needs no validation, and a reply naming it would not decode.
    if (v === null && key.length > DEFAULT_CODEC_LIMITS.keyBytesMax) continue;
    const version = v === null ? ZERO_TS : v.version.ts;
    if (readsByKey === null && (reads.length === 0 || reads[reads.length - 1]!.key < key)) {
      reads.push(v === null ? { key, version } : v.read);
    } else {
      readsByKey ??= new Map(reads.map((e) => [e.key, e.version]));
      const prev = readsByKey.get(key);
      if (prev !== undefined && !tsEquals(prev, version)) throw new InvariantError('one execution read two versions of a key');
      readsByKey.set(key, version);
    }
    if (v !== null && v.prepared) deps.set(v.version.txn, v.version.ts);
    if (r.tableId !== topTable) {
      if (topTable !== -1) readTop.set(topTable, maxTs(readTop.get(topTable) ?? ZERO_TS, top));
      topTable = r.tableId;
      top = readTop.get(topTable) ?? ZERO_TS;
    }
    if (tsLess(top, version)) top = version;
  }
  if (topTable !== -1) readTop.set(topTable, maxTs(readTop.get(topTable) ?? ZERO_TS, top));
  if (readsByKey !== null) {
    reads = [...readsByKey].map(([key, version]) => ({ key, version }));
    sortByKey(reads);
  }
  const wasRead = (key: Key): boolean => (readsByKey !== null ? readsByKey.has(key) : entryOfKey(reads, key) !== undefined);
  // Shadowing prepared versions (PROTOCOL §5 step 7, at query time; the row source lists only the touched
  // chains holding prepared or force-materialized versions: the others hide nothing): a prepared version
  // the execution saw but did not record (a deletion, or a row the filter rejected) that hides an older version which
  // satisfies a scan. The result holds only if that writer commits, so it is a dependency: should the
  // writer abort before the reader validates, validation could no longer find the hidden row (the
  // writer's table-write entry is gone, and the row's own write may be older than the predicate's table
  // version minus the grace period).
  if (recorder.predicates.length > 0) {
    for (let i = 0; i < source.touchedKeys.length; i++) {
      const ks = source.touchedStates[i]!;
      if (ks.prepared.length === 0 && ks.forced === null) continue; // nothing prepared to hide behind
      const key = source.touchedKeys[i]!;
      if (wasRead(key)) continue;
      const v = visibleVersion(ks, at, mode, readable, undefined, committedVisible);
      if (v === undefined || !v.prepared) continue;
      if (hidesMatch(ks, v.version, key, at, committedVisible, recorder.predicates, catalog)) deps.set(v.version.txn, v.version.ts);
    }
  }

  // Predicates with table versions.
  const tableVersions = new Map<number, Timestamp>();
  const tableVersion = (tableId: number): Timestamp => {
    let tv = tableVersions.get(tableId);
    if (tv === undefined) {
      tv = tableVersionAt(store, tableId, at, readTop.get(tableId) ?? ZERO_TS, options.observeTableVersions !== false);
      tableVersions.set(tableId, tv);
    }
    return tv;
  };
  const predicates: QueryPredicate[] = [];
  for (const p of recorder.predicates) {
    if (p.hi === '' || (p.hi !== null && p.lo >= p.hi)) continue; // empty range: nothing to protect
    if (p.indexId === null && p.hi === p.lo + '\xff' && wasRead(rowKey(p.tableId, p.lo))) continue; // implicit point read
    predicates.push({ tableId: p.tableId, indexId: p.indexId, lo: p.lo, hi: p.hi, predicate: p.predicate, tableVersion: tableVersion(p.tableId) });
  }

  return {
    ok: true,
    columns: result.columns,
    rows: result.rows,
    reads,
    predicates,
    deps: [...deps].map(([txn, ts]) => ({ txn, ts })).sort((a, b) => compareTs(a.ts, b.ts) || (a.txn < b.txn ? -1 : a.txn > b.txn ? 1 : 0)),
    snapshot: snapshotVote(source.touchedStates, at, readable, committedVisible, source.committedVote),
    lowestSkippedPrepared: source.lowestSkippedPrepared,
    recorder,
    source,
  };
}

/**
 * A predicate's table version (module comment): the newest committed write to the table below `at`,
 * raised to `readTop` (the newest version the execution read from the table) and to the table's
 * high-water mark, which is then raised to it when `observe`.
 */
export function tableVersionAt(store: Store, tableId: number, at: Timestamp, readTop: Timestamp, observe: boolean): Timestamp {
  const t = store.table(tableId);
  const tv = maxTs(maxTs(t.committedVersionBelow(at), readTop), t.high);
  if (observe) t.observe(tv);
  return tv;
}

/**
 * Whether a version below `top` in its chain (older prepared ones above the newest committed one, and
 * that committed one) is a row some recorded scan of its table would return. Rows that do not decode or
 * filters that throw count as matching (the dependency is then merely conservative).
 */
function hidesMatch(
  ks: KeyState,
  top: Version,
  key: Key,
  at: Timestamp,
  committedVisible: ((v: Version) => boolean) | undefined,
  scans: readonly PredicateRecord[],
  catalog: Catalog,
): boolean {
  const tableId = tableIdOfKey(key);
  const def = tableId === null ? undefined : catalog.getById(tableId);
  if (def === undefined) return false;
  const c = newestVisibleBelow(ks.committed, at, committedVisible);
  const hidden: Version[] = ks.prepared.filter((p) => tsLess(p.ts, top.ts) && (c === undefined || tsLess(c.ts, p.ts)));
  if (c !== undefined) hidden.push(c);
  const pk = pkOfRowKey(key);
  for (const v of hidden) {
    if (v.value === null) continue;
    try {
      const row = decodeRow(def, v.value);
      for (const p of scans) {
        if (p.tableId !== def.id) continue;
        const index = p.indexId === null ? null : def.indexes.find((i) => i.id === p.indexId);
        if (index === undefined) return true;
        const k = index === null ? pk : indexEntryPrefix(index, row) + pk;
        if (k < p.lo || (p.hi !== null && k >= p.hi)) continue;
        if (evalPredicate(p.predicate, row)) return true;
      }
    } catch {
      return true;
    }
  }
  return false;
}

/** The read part of a DML statement (its reconnaissance read): the rows and their columns. */
function runRecon(l: LoweredStatement, rawParams: readonly SqlValue[], ctx: ExecContext): ExecResult {
  const stmt = l.stmt;
  if (stmt.k !== 'dml') throw new InvariantError('recon of a statement that is not DML');
  if (rawParams.length < l.paramTypes.length) {
    throw new SqlError(SqlState.protocolViolation, `bind message supplies ${rawParams.length} parameters, but prepared statement requires ${l.paramTypes.length}`);
  }
  const params = rawParams.map((v, i) => coerceParam(v, l.paramTypes[i] ?? 'unknown', l.paramEnums?.[i]));
  const plan = stmt.plan;
  const rows = runPlan(plan.source, makeEnv(params, ctx));
  const cols = plan.k === 'insert' ? plan.columns.map((i) => plan.table.columns[i]!) : plan.from?.columns ?? plan.table.columns;
  const columns = cols.map((c) => ({ name: c.name, type: c.type, typmod: c.typmod }));
  return { ok: true, command: 'SELECT', rowCount: rows.length, columns, rows, tag: `SELECT ${rows.length}` };
}

/**
 * For each touched chain: the newest committed version below `at` and the newest readable prepared one
 * above it. `committedAlso`: committed transactions voted for chains counted elsewhere (the row source's
 * chains of committed versions only).
 */
export function snapshotVote(
  touched: Iterable<KeyState>,
  at: Timestamp,
  readable: (v: Version) => boolean,
  committedVisible?: (v: Version) => boolean,
  committedAlso?: ReadonlySet<DigestKey>,
): SnapshotVote {
  const committed = new Set<DigestKey>(committedAlso);
  const prepared = new Set<DigestKey>();
  for (const ks of touched) {
    const c = newestVisibleBelow(ks.committed, at, committedVisible);
    if (c !== undefined) committed.add(c.txn);
    for (let i = ks.prepared.length - 1; i >= 0; i--) {
      const p = ks.prepared[i]!;
      if (!tsLess(p.ts, at)) continue;
      if (c !== undefined && !tsLess(c.ts, p.ts)) break;
      if (readable(p)) {
        prepared.add(p.txn);
        break;
      }
    }
  }
  return { committed: [...committed], prepared: [...prepared] };
}

/**
 * Distinct union of two distinct lists: `a`, then what of `b` it lacks (an execution's snapshot vote
 * and its catalog vote, which names one or two transactions; range-reads.ts). Votes are sets: their
 * order means nothing to the client (client/core/range-read.ts counts them through a set), so none is
 * kept (sorting a 10,000-row scan's ~1,000 writers took a quarter of a millisecond per execution).
 */
export function unionVotes(a: readonly DigestKey[], b: readonly DigestKey[]): readonly DigestKey[] {
  if (b.length === 0) return a;
  if (a.length === 0) return b;
  const out = [...a];
  // `b` names one or two transactions: a scan of `a` each, no set of `a` built.
  for (const x of b) if (!out.includes(x)) out.push(x);
  return out;
}

/**
 * A body (result and read set, estimated at 24 bytes a read entry) at least this large goes out as its
 * digest when the query asks for a digest-only reply (decision 0027). Below it a digest saves nothing
 * measurable (a 10,000-row read at 1% selectivity, a 7 KB body, encoded in the same time either way and
 * its reply stayed 34 KB of snapshot vote) while the client pays for hashing the full body.
 */
export const DIGEST_REPLY_BYTES_MIN = 16 * 1024;

/**
 * The reply in the form the query asked for: marked digest-only (the encoder then sends the digest of
 * its result and read set in their place, protocol/query-digest.ts) when `digestOnly` was asked and the
 * body is large enough to be worth it; else full.
 */
export function replyAsAsked(msg: Query, reply: QueryReply): QueryReply {
  if (msg.digestOnly !== true || reply.result.length + 24 * reply.reads.length < DIGEST_REPLY_BYTES_MIN) return reply;
  return { ...reply, digestOnly: true };
}
