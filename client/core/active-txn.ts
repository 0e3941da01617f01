/**
 * A transaction's state inside the client core while it runs (ActiveTxn), the point and range reads
 * it has in flight (ReadOp, QueryOp), and the rules for its read set: which keys are private to it,
 * how a moved timestamp caps a predicate's table version, and how a second read of a key is merged.
 */
import { digestKey, type DigestKey, type ShardId } from '../../protocol/ids.ts';
import type { Dependency, Key, Message, Predicate, ReadEntry, Txn, TxnBody, WriteEntry } from '../../protocol/messages.ts';
import { tsEquals, tsLess, type Timestamp } from '../../protocol/timestamp.ts';
import { readEntryBytesMax } from '../../protocol/codec-fast-txn.ts';
import { addShardOfRead } from '../../protocol/sharding.ts';
import { lowerBoundKey, sortByKey } from '../../protocol/sorted-entries.ts';
import { TABLE_PREFIX_BYTES, tableKeyRange, tablePrefix } from '../../sql/row-key.ts';
import { excusedKeys, withExcusedKeys, withoutExcusedKeys } from '../../sql/predicate-codec.ts';
import type { Finisher } from './finisher.ts';
import type { PointRead } from './point-read.ts';
import type { RangeRead, RangeReadSuccess } from './range-read.ts';
import type { QuerySpec, TxnLimits } from './client-options.ts';
import { QUERY_SQL_CHARS_MAX } from '../../protocol/codec-query.ts';

export interface ActiveTxn {
  readonly id: number;
  /** T; moved later by `advance` (decision 0012). */
  ts: Timestamp;
  /**
   * Key prefixes of storage only this transaction can name (a fresh storage id its catalog write
   * introduces, decision 0012): reads and predicates there are not recorded and need no validation.
   */
  readonly private: Set<string>;
  /**
   * Where this transaction's point reads start in each shard's replica list: one random draw per
   * transaction, so its concurrent reads ask the same f+1 replicas and travel in the same stream
   * writes (load still spreads across transactions).
   */
  readonly readStart: number;
  /** Point reads and noted reads; `value` undefined: noted without a value (e.g. a cached catalog version). */
  readonly reads: Map<Key, ReadEntry & { readonly value: Uint8Array | null | undefined }>;
  /**
   * Range reads' read sets as their replies listed them (sorted by key, keys distinct), joined with
   * `reads` and each other only at commit (`finalReads`): entered into `reads` one by one, a 10,000-row
   * read cost the client ~3 ms of map inserts inside the read (decision 0048).
   */
  readonly readRuns: (readonly ReadEntry[])[];
  /**
   * Entries of `readRuns` (keys two runs share counted twice until `compactReadRuns`) and a bound on their
   * ST1 bytes (`entryBytes`).
   */
  runEntries: number;
  runBytes: number;
  /** A bound on the ST1 bytes of the entries of `reads`. */
  pointBytes: number;
  readonly predicates: HeldPredicate[];
  /** Set when two reads of the transaction saw different versions of a key: it cannot commit. */
  doomed: string | null;
  readonly writes: Map<Key, Uint8Array | null>;
  readonly deps: Map<DigestKey, Dependency>;
  readonly shards: Set<ShardId>;
  state: 'active' | 'committing' | 'done';
  finisher: Finisher | null;
  /** Dependencies replicas told us about, finished by us if we are still waiting later. */
  readonly relayed: Map<DigestKey, Txn>;
  relayTimer: number;
}

/**
 * A predicate of the transaction with the rows it excuses from SemanticCC (decision 0019); its bytes for
 * ST1 are written at commit, over the final read set (`predicatesToSend`).
 */
export interface HeldPredicate extends Predicate {
  readonly excused: ExcusedRows;
}

/**
 * The rows a held predicate excuses (decision 0019): its table's rows among its query's matched reads
 * and among the own writes shipped with the query. Kept as those lists and named only when a commit has
 * to list them: mostly a predicate excuses every read-set row of its table and goes without a list
 * (decision 0028), and naming the rows when the read succeeded cost a 10,000-row read a fresh string per
 * row before its rows reached the caller (decision 0051).
 */
export class ExcusedRows {
  #named: readonly string[] | null = null;
  #own: ReadonlySet<Key> | null = null;

  constructor(
    readonly table: number,
    /** The query's matched reads: sorted by key, distinct. */
    private readonly reads: readonly ReadEntry[],
    private readonly ownWrites: readonly { readonly key: Key }[],
  ) {}

  /** Their primary keys (row keys without the table prefix), sorted and distinct: what a predicate names. */
  get named(): readonly string[] {
    return (this.#named ??= excusedKeys(new Set([this.table]), this.reads, this.ownWrites).get(this.table) ?? []);
  }

  /**
   * Whether every key of `reads` (sorted by key) in this table is one of these rows: a walk beside the
   * query's own sorted reads, comparing whole keys (same table prefix, so the same rows as `named`).
   */
  coverAll(reads: readonly ReadEntry[]): boolean {
    const mine = this.reads;
    const { lo, hi } = tableKeyRange(this.table, '', null);
    let j = lowerBoundKey(mine, lo);
    for (let i = lowerBoundKey(reads, lo); i < reads.length; i++) {
      const k = reads[i]!.key;
      if (hi !== null && k >= hi) break;
      while (j < mine.length && mine[j]!.key < k) j++;
      if (j < mine.length && mine[j]!.key === k) continue;
      this.#own ??= new Set(this.ownWrites.map((w) => w.key));
      if (!this.#own.has(k)) return false;
    }
    return true;
  }
}

export interface QueryOp {
  readonly op: number;
  readonly txn: ActiveTxn;
  /** The timestamp the statement executes at (the transaction's T when it started). */
  readonly ts: Timestamp;
  readonly spec: QuerySpec;
  readonly read: RangeRead;
  readonly req: number;
  snapshot: QueryMessageSnapshot;
  timer: number;
  timeouts: number;
  /** A result was handed out early (QuerySpec.early): at most once per range read. */
  early: boolean;
}

export type QueryMessageSnapshot = Extract<Message, { kind: 'query' }>['snapshot'];

export interface ReadOp {
  readonly op: number;
  readonly txn: ActiveTxn;
  readonly read: PointRead;
  readonly req: number;
  retryTimer: number;
  /** Timeouts so far: the next wait doubles, up to 16x (a busy machine is no reason to flood it). */
  retries: number;
  /** When the first requests left (µs), to whom, and which of those answered already. */
  readonly startedUs: number;
  first: readonly number[];
  sampled: number;
}

export function isPrivate(txn: ActiveTxn, key: Key): boolean {
  return txn.private.size > 0 && txn.private.has(key.slice(0, TABLE_PREFIX_BYTES));
}

/** The predicate with its table version at most `ts` (see ClientCore.advance). */
export function capTableVersion<P extends Predicate>(p: P, ts: Timestamp): P {
  return tsLess(ts, p.tableVersion) ? { ...p, tableVersion: ts } : p;
}

/** Records a read; a second read of a key at another version dooms the transaction (it cannot be serialized). */
export function mergeRead(txn: ActiveTxn, e: ReadEntry, value: Uint8Array | null | undefined): void {
  const prior = txn.reads.get(e.key);
  if (prior !== undefined) {
    if (!tsEquals(prior.version, e.version)) txn.doomed ??= 'two reads saw different versions of a key';
    else if (prior.value === undefined && value !== undefined) txn.reads.set(e.key, { key: e.key, version: e.version, value });
    return;
  }
  txn.reads.set(e.key, { key: e.key, version: e.version, value });
  txn.pointBytes += readEntryBytesMax(e);
}

/**
 * What the transaction's reads add to its ST1: entries (point reads' and range reads' keys, a key both
 * read counted twice) and bytes (a bound, `readEntryBytesMax`). `exact`: the range reads' runs are merged
 * first, so a key several statements read counts once (one sort; the merged run replaces them).
 */
export function readFootprint(txn: ActiveTxn, exact: boolean): { entries: number; bytes: number } {
  if (exact && txn.readRuns.length > 1) compactReadRuns(txn);
  return { entries: txn.runEntries + txn.reads.size, bytes: txn.runBytes + txn.pointBytes };
}

/** The range reads' runs merged into one sorted run, each key once (two versions of a key doom the transaction). */
function compactReadRuns(txn: ActiveTxn): void {
  const all: ReadEntry[] = [];
  for (const run of txn.readRuns) for (const e of run) all.push(e);
  if (!sortDistinct(all, null)) txn.doomed ??= 'two reads saw different versions of a key';
  let bytes = 0;
  for (const e of all) bytes += readEntryBytesMax(e);
  txn.readRuns.length = 0;
  txn.readRuns.push(all);
  txn.runEntries = all.length;
  txn.runBytes = bytes;
}

/**
 * Sorts `all` by key in place and keeps each key once, leaving out the entries `skip` names; false when
 * two entries of a key name different versions (the first stays).
 */
function sortDistinct(all: ReadEntry[], skip: ((e: ReadEntry) => boolean) | null): boolean {
  sortByKey(all);
  let w = 0;
  let distinct = true;
  for (const e of all) {
    if (skip !== null && skip(e)) continue;
    if (w > 0 && all[w - 1]!.key === e.key) {
      if (!tsEquals(all[w - 1]!.version, e.version)) distinct = false;
      continue;
    }
    all[w++] = e;
  }
  all.length = w;
  return distinct;
}

/**
 * The read set a transaction commits with: its point reads and its range reads' runs, sorted by key,
 * each key once, private storage left out; null when two reads of a key saw different versions (the
 * transaction cannot be serialized). One sort of the runs laid end to end: V8's sort merges sorted runs
 * it finds, so a single range read's list costs one comparison per entry.
 */
export function finalReads(txn: ActiveTxn): ReadEntry[] | null {
  const all: ReadEntry[] = [];
  for (const run of txn.readRuns) for (const e of run) all.push(e);
  for (const r of txn.reads.values()) all.push({ key: r.key, version: r.version });
  return sortDistinct(all, txn.private.size > 0 ? (e) => isPrivate(txn, e.key) : null) ? all : null;
}

/**
 * What a finished range read adds to its transaction: its read set (rows in private storage left out,
 * and with `readsAsPredicates` those read further below the predicates' table version than its window,
 * which the predicates protect), its predicates with the keys they excuse named here (replicas do not
 * send them, decision 0019; capped when T moved since the read), its dependencies and its shard.
 */
export function absorbRangeRead(txn: ActiveTxn, qo: QueryOp, ok: RangeReadSuccess, shardCount: number): void {
  const window = qo.spec.readsAsPredicates;
  let floorMicros = -Infinity;
  if (window !== undefined && ok.predicates.length > 0) {
    let v = qo.ts;
    for (const p of ok.predicates) if (tsLess(p.tableVersion, v)) v = p.tableVersion;
    floorMicros = v.micros - window;
  }
  const reads = ok.reads;
  // The reply's list as it is, unless some entries stay out (then a copy of the rest).
  let kept: ReadEntry[] | null = null;
  for (let i = 0; i < reads.length; i++) {
    const e = reads[i]!;
    if (isPrivate(txn, e.key) || e.version.micros < floorMicros) {
      kept ??= reads.slice(0, i);
      continue;
    }
    kept?.push(e);
    if (shardCount > 1) addShardOfRead(txn.shards, e.key, shardCount);
  }
  const run = kept ?? reads;
  if (run.length > 0) {
    txn.readRuns.push(run);
    txn.runEntries += run.length;
    for (let i = 0; i < run.length; i++) txn.runBytes += readEntryBytesMax(run[i]!);
  }
  const moved = tsLess(qo.ts, txn.ts);
  // Replicas send predicates without the rows they excuse: the client names them (decision 0019), at commit.
  for (const sent of ok.predicates) {
    if (txn.private.size > 0 && txn.private.has(tablePrefix(sent.table))) continue;
    const p: HeldPredicate = { ...sent, excused: new ExcusedRows(sent.table, ok.reads, qo.spec.ownWrites) };
    txn.predicates.push(moved ? capTableVersion(p, qo.ts) : p);
  }
  for (const d of ok.deps) txn.deps.set(digestKey(d.digest), d);
  txn.shards.add(qo.read.shard);
}

/**
 * The predicates as ST1 carries them, over the transaction's final read set `reads` (sorted by key).
 * SemanticCC excuses a read-set row of a predicate's table when the predicate names it, or when the
 * predicate names no rows at all (PROTOCOL §4.3, sql/predicate-codec.ts `keys` null), so only the named
 * rows that are in the read set count. A predicate that names every read-set row of its table therefore
 * goes without its list: it excuses the same rows, and a 10,000-row read's transaction is ~210 KB
 * smaller at every replica (decision 0028). Otherwise it names its rows in hex as before.
 */
export function predicatesToSend(preds: readonly HeldPredicate[], reads: readonly ReadEntry[]): Predicate[] {
  return preds.map((p) => {
    const expr = p.excused.coverAll(reads) ? withoutExcusedKeys(p.expr) : withExcusedKeys(p.expr, p.excused.named);
    return { table: p.table, tableVersion: p.tableVersion, expr };
  });
}

/** The empty metadata of every key-value transaction (never mutated; one ArrayBuffer less per commit). */
const NO_META = new Uint8Array(0);
const ascending = (a: number, b: number): number => a - b;

/** The body the transaction commits with, over its final read set `reads` (`finalReads`). */
export function commitBody(txn: ActiveTxn, reads: ReadEntry[]): TxnBody {
  const writes: WriteEntry[] = [];
  for (const [key, value] of txn.writes) writes.push({ key, value });
  sortByKey(writes);
  const preds = txn.private.size === 0 ? txn.predicates : txn.predicates.filter((p) => !txn.private.has(tablePrefix(p.table)));
  return { ts: txn.ts, shards: [...txn.shards].sort(ascending), reads, writes, deps: [...txn.deps.values()], predicates: predicatesToSend(preds, reads), meta: NO_META };
}

/**
 * Why replicas would refuse this range read's request undecoded (it would be resent until the
 * transaction is too old), or null.
 */
export function queryTooLarge(spec: QuerySpec, limits: TxnLimits | undefined): string | null {
  if (spec.sql.length > QUERY_SQL_CHARS_MAX) return `a statement of ${spec.sql.length} characters (at most ${QUERY_SQL_CHARS_MAX})`;
  if (limits !== undefined && spec.params.length > limits.valueBytesMax) return `parameters of ${Math.ceil(spec.params.length / 1024)} KiB (at most ${Math.floor(limits.valueBytesMax / 1024)} KiB)`;
  return null;
}

/** Why replicas would refuse this transaction's ST1 undecoded (ClientCoreOptions.txnLimits), or null. */
export function tooLargeFor(t: Txn, limits: TxnLimits): string | null {
  const { reads, writes } = t.body;
  if (reads.length > limits.keysMax) return `it reads ${reads.length} rows (limits.txnKeysMax: ${limits.keysMax})`;
  if (writes.length > limits.keysMax) return `it writes ${writes.length} rows (limits.txnKeysMax: ${limits.keysMax})`;
  if (t.bytes.length > limits.bodyBytesMax) return `it takes ${Math.ceil(t.bytes.length / 1024)} KiB (limits.messageBytesMax leaves ${Math.floor(limits.bodyBytesMax / 1024)} KiB)`;
  for (const w of writes) {
    if (w.key.length > limits.keyBytesMax) return `it writes a key of ${w.key.length} bytes (at most ${limits.keyBytesMax}: a primary key that long)`;
    if (w.value !== null && w.value.length > limits.valueBytesMax) return `it writes a value of ${Math.ceil(w.value.length / 1024)} KiB (at most ${Math.floor(limits.valueBytesMax / 1024)} KiB)`;
  }
  return null;
}
