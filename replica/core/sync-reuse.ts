/**
 * Cheap sync rounds (decision 0025): a replica answers a sync round from its own eager execution of the
 * same query when it can show that a snapshot execution now would produce exactly that execution.
 *
 * What it guarantees. `answer` returns a reply only when it equals, field for field, the reply
 * range-reads.ts would build from `executeAt` in snapshot mode on the proposal, against the store as it
 * is now (same result bytes, read set, predicates with table versions, dependencies and snapshot vote),
 * and it has the same effect on the store (table high-water marks raised alike). Otherwise it returns
 * null and the replica executes as before. Safety never depends on it: the client still needs 3f+1
 * matching replies, and a Byzantine replica can always lie; this only keeps a correct replica correct.
 *
 * Why the check suffices (the proof; range-reads.ts, query-exec.ts, replica-row-source.ts, store.ts):
 *
 * 1. An execution is deterministic in (statement text, parameters, T, catalog, own writes, recon) and
 *    in what its row source answers: the executor reads the store only through the source (`get` for a
 *    point lookup, `scan` for a key range; `now` is T). Same inputs and same answers, call by call, give
 *    the same calls, by induction over the calls, hence the same rows, recorded reads and predicates
 *    (bound filters, ranges, the stop point of a LIMIT), and the same touched chains.
 * 2. The source's answer to a point lookup is a function of the version the key shows; its answer to a
 *    primary-key scan is a function of the keys its walk consumes from the store's key order and the
 *    version each shows (a row is decoded from the version's value; the cached rows of decision 0019 and
 *    the prefilter of decision 0022 change how, not what). Index scans walk whole tables: not covered.
 * 3. The eager execution (`remember`) records, with `recordWalks`, every walk (keys consumed, version
 *    shown, whether it reached the end of its range) and every point lookup's version, and the catalog
 *    version read. `answer` re-walks each recorded walk in the store now and asks, for every key, which
 *    version the snapshot mode of the proposal shows (the same `visibleVersion` the snapshot execution
 *    calls, with the committed-version filter of now). It demands the same keys in the same order (and
 *    the end of the range where the eager walk hit it: no key added behind), the very same version
 *    object for each (a version lives in one chain, so it names its key; a key that showed none is
 *    recorded as its state, which it keeps while it is in the key order), never a prepared one, and no unnamed prepared version skipped; the same for point
 *    lookups and the catalog key. Then by 1-2 the snapshot execution would consume the same keys and be
 *    fed the same rows: same result, reads and predicates (ranges and filters), same touched chains.
 * 4. The parts that depend on more than the rows are recomputed now, by the functions the execution
 *    uses: predicate table versions (`tableVersionAt`: newest committed write to the table below T, the
 *    newest version read from it, the high-water mark, which is raised; no skipped prepared version, so
 *    no lowering), and the snapshot vote (`snapshotVote` over the touched chains as they are now, the
 *    catalog chain merged in, transactions without a record left out: range-reads.ts). Dependencies
 *    are empty: the execution would read no prepared version (3), the catalog version is committed, and
 *    shadowing dependencies (query-exec.ts `hidesMatch`) arise only behind a visible prepared version.
 * 5. What can change between the rounds is therefore covered without trusting any writer to announce
 *    it: commits below T (a new version shows), prepared versions aborted or applied (an eager read of a
 *    prepared version is never remembered; a new one shows or is skipped), force-materialized versions
 *    (they show in snapshot mode, or nothing changed), writes withheld or released by the apply fault
 *    (the committed-version filter of now decides what shows), version collection (the version shown is
 *    kept or the check fails), storages dropped (keys vanish from the walk), catalog changes (the
 *    catalog key's version). The statement, parameters, T, own writes and recon flag must equal the
 *    eager query's, from the same sender with the same request id.
 *
 * Records live a few seconds (`MEMO_MICROS`), at most `MEMO_MAX` of them; a record is kept only for an
 * eager execution that succeeded, read no prepared version and ran no index scan.
 */
import type { DigestKey } from '../../protocol/ids.ts';
import type { Key, Predicate, Query, ReadEntry, WriteEntry } from '../../protocol/messages.ts';
import { bytesEqual } from '../../protocol/codec.ts';
import { tsEquals, tsLess, ZERO_TS, type Timestamp } from '../../protocol/timestamp.ts';
import { tableIdOfKey } from '../../sql/row-key.ts';
import { CATALOG_KEY } from '../../sql/replicated-catalog.ts';
import { snapshotVote, tableVersionAt, type QueryExecution, type SnapshotVote } from './query-exec.ts';
import { visibleVersion, type ReadMode, type ScanWalk } from './replica-row-source.ts';
import { KeyState, type Store, type Version } from './store.ts';

/** How long an eager execution is kept for a sync round (the round follows within milliseconds). */
const MEMO_MICROS = 3_000_000;
/** At most this many kept (the oldest goes first)... */
const MEMO_MAX = 4096;
/**
 * ...and at most about this many bytes retained by them all (`weightOf`; the oldest go first): a
 * 10,000-row read keeps about 1.3 MB, and a client sending many large eager reads it never syncs must
 * not make a replica keep thousands of them. One heavier than a quarter of this is not kept.
 */
export const MEMO_BYTES_MAX = 64 << 20;
/** Rough bytes a kept key, version reference or read entry costs (its array slot, key string, objects). */
const ENTRY_BYTES = 64;

/** Approximate bytes an eager record retains beyond what the store keeps anyway. */
function weightOf(result: Uint8Array, walks: readonly ScanWalk[], points: number, reads: number): number {
  let keys = points + reads;
  for (const w of walks) keys += w.seen.length;
  return result.length + ENTRY_BYTES * keys;
}

const allReadable = (): boolean => true;

/** An eager execution kept for a later sync round of the same query. */
interface EagerRecord {
  readonly from: number;
  readonly msg: Query;
  readonly atMicros: number;
  /** The catalog version read (null: none below T), or undefined when the own writes carried the catalog. */
  readonly catalog: Version | null | undefined;
  readonly walks: readonly ScanWalk[];
  readonly points: ReadonlyMap<Key, Version | null>;
  readonly result: Uint8Array;
  /** The reply's read set (the catalog version included). */
  readonly reads: readonly ReadEntry[];
  /** The reply's predicates; their table versions are recomputed. */
  readonly predicates: readonly Predicate[];
  /** `weightOf` this record. */
  readonly weight: number;
}

/** What a sync round gets instead of an execution; the caller names the vote's transactions. */
export interface ReusedExecution {
  readonly result: Uint8Array;
  readonly reads: readonly ReadEntry[];
  readonly predicates: readonly Predicate[];
  /** The snapshot vote over the touched chains as they are now (catalog chain included). */
  readonly vote: SnapshotVote;
}

export class SyncReuse {
  readonly #records = new Map<string, EagerRecord>();
  /** Sync rounds answered from a record. */
  reused = 0;
  /** Set when a check's snapshot mode skipped an unnamed prepared version (one bound callback, no closure per call). */
  #skipped = false;
  readonly #onSkip = (): void => {
    this.#skipped = true;
  };

  constructor(
    private readonly store: Store,
    private readonly bytesMax: number = MEMO_BYTES_MAX,
  ) {}

  get size(): number {
    return this.#records.size;
  }

  /** Approximate bytes the kept records retain (at most `bytesMax`). */
  get weight(): number {
    return this.#weight;
  }

  #weight = 0;

  /**
   * Keeps a successful eager execution (run with `recordWalks`) for a sync round of the same query.
   * `catalog`: the catalog version it read, undefined when the own writes carried the catalog.
   */
  remember(from: number, msg: Query, nowMicros: number, exec: Extract<QueryExecution, { ok: true }>, catalog: Version | null | undefined, reply: { result: Uint8Array; reads: readonly ReadEntry[]; predicates: readonly Predicate[] }): void {
    const src = exec.source;
    if (src.walks === null || src.indexScanned || src.shownPrepared || exec.deps.length > 0) return;
    const points = new Map<Key, Version | null>();
    for (const [k, v] of src.pointVersions) points.set(k, v === null ? null : v.version);
    const id = recordId(from, msg.req);
    this.#drop(id);
    const weight = weightOf(reply.result, src.walks, points.size, reply.reads.length);
    if (4 * weight > this.bytesMax) return;
    while (this.#records.size > 0 && (this.#records.size >= MEMO_MAX || this.#weight + weight > this.bytesMax)) this.#drop(this.#records.keys().next().value!);
    this.#records.set(id, { from, msg, atMicros: nowMicros, catalog, walks: src.walks, points, result: reply.result, reads: reply.reads, predicates: reply.predicates, weight });
    this.#weight += weight;
  }

  #drop(id: string): void {
    const r = this.#records.get(id);
    if (r === undefined) return;
    this.#records.delete(id);
    this.#weight -= r.weight;
  }

  /** Drops records older than `MEMO_MICROS`. */
  expire(nowMicros: number): void {
    for (const [id, r] of this.#records) {
      if (nowMicros - r.atMicros <= MEMO_MICROS) break; // insertion order is age order
      this.#drop(id);
    }
  }

  /**
   * The snapshot execution of `msg` (mode: its proposal) from the eager record, or null when the record
   * is missing or the module comment's conditions do not hold now.
   */
  answer(from: number, msg: Query, mode: ReadMode, committedVisible: ((v: Version) => boolean) | undefined): ReusedExecution | null {
    const rec = this.#records.get(recordId(from, msg.req));
    if (rec === undefined || rec.from !== from || !sameQuery(rec.msg, msg)) return null;
    const store = this.store;
    const at = msg.ts;
    this.#skipped = false;
    let catalogChain: KeyState | undefined;
    if (rec.catalog !== undefined) {
      catalogChain = store.get(CATALOG_KEY);
      if (!this.#shows(catalogChain, rec.catalog, at, mode, committedVisible)) return null;
    }
    const touched: KeyState[] = [];
    for (const w of rec.walks) {
      const it = store.keysInRange(w.lo, w.hi, w.reverse);
      for (const seen of w.seen) {
        if (it.next().done === true) return null;
        const ks = it.current;
        // The same chain showing the same version (which names the chain), or the same chain showing none.
        if (seen instanceof KeyState) {
          if (ks !== seen || !this.#shows(ks, null, at, mode, committedVisible)) return null;
        } else {
          if (!this.#shows(ks, seen, at, mode, committedVisible)) return null;
          touched.push(ks!);
        }
      }
      if (w.ended && it.next().done !== true) return null;
    }
    for (const [key, expected] of rec.points) {
      const ks = store.get(key);
      if (!this.#shows(ks, expected, at, mode, committedVisible)) return null;
      if (expected !== null) touched.push(ks!);
    }

    // Table versions as the execution computes them (one per table, the high-water mark raised).
    const readTop = new Map<number, Timestamp>();
    for (const r of rec.reads) {
      if (r.key === CATALOG_KEY) continue;
      const t = tableIdOfKey(r.key);
      if (t !== null && tsLess(readTop.get(t) ?? ZERO_TS, r.version)) readTop.set(t, r.version);
    }
    const versions = new Map<number, Timestamp>();
    const predicates = rec.predicates.map((p) => {
      let tv = versions.get(p.table);
      if (tv === undefined) versions.set(p.table, (tv = tableVersionAt(store, p.table, at, readTop.get(p.table) ?? ZERO_TS, true)));
      return { table: p.table, tableVersion: tv, expr: p.expr };
    });
    // The catalog's chain is voted with the others (a vote is a set: one over all the chains).
    if (catalogChain !== undefined) touched.push(catalogChain);
    const vote = snapshotVote(touched, at, allReadable, committedVisible);
    this.reused++;
    return { result: rec.result, reads: rec.reads, predicates, vote };
  }

  /** Whether `ks` shows exactly `expected` (a committed version, or none) in `mode` now, skipping nothing. */
  #shows(ks: KeyState | undefined, expected: Version | null, at: Timestamp, mode: ReadMode, committedVisible: ((v: Version) => boolean) | undefined): boolean {
    const v = ks === undefined ? undefined : visibleVersion(ks, at, mode, allReadable, this.#onSkip, committedVisible);
    if (this.#skipped) return false;
    if (v === undefined) return expected === null;
    return !v.prepared && v.version === expected;
  }
}

function recordId(from: number, req: number): string {
  return `${from}/${req}`;
}

/** Same statement, parameters, timestamp, own writes and recon flag (retry and proposal aside). */
function sameQuery(a: Query, b: Query): boolean {
  return a.sql === b.sql && a.timeZone === b.timeZone && tsEquals(a.ts, b.ts) && a.recon === b.recon && bytesEqual(a.params, b.params) && sameWrites(a.ownWrites, b.ownWrites);
}

function sameWrites(a: readonly WriteEntry[], b: readonly WriteEntry[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!;
    const y = b[i]!;
    if (x.key !== y.key) return false;
    if (x.value === null || y.value === null ? x.value !== y.value : !bytesEqual(x.value, y.value)) return false;
  }
  return true;
}
