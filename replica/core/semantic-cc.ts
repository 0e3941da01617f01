/**
 * SemanticCC: the SQL half of validation at prepare (PROTOCOL §5 steps 2, 7, 8 and the predicate part
 * of step 9; artifact notes §5.2-5.3). MVTSO (validation.ts) protects the rows a transaction read; a
 * scan's predicate protects the rows it did not read: rows of its range that failed its filter, and
 * rows that did not exist yet. Per table, the replica keeps its write history and the predicates of
 * prepared and committed transactions (table-writes.ts).
 *
 * - Step 2, write monotonicity: with `high` the highest table version a query observed here, a writer
 *   with T.micros + grace1 + grace2 <= high.micros abstains ('late-writer'); one with
 *   T.micros + grace1 <= high.micros is accepted but its table write is flagged non-monotonic, so
 *   readers look for it further back (`isNonMonotonic`). Microseconds only, as in the prototype.
 * - Step 7, reader side (`checkPredicates`): for each predicate (table version V), walk the table's
 *   writes below T newest first, down to V - grace1 (flagged writes down to V - grace1 - grace2). For
 *   each row key met (once; the history lists rows applied here, hence owned) not in the reader's read set, look at the key's newest
 *   version below T: a row (not a deletion) in the predicate's key range that satisfies its filter is a
 *   phantom ('phantom'; the prepared writer is reported so the client can finish it). A prepared
 *   non-matching version or deletion above an older matching version (down to the newest committed one)
 *   shadows it: the reader's result holds only if the prepared writer commits. The prototype turns that
 *   writer into a dependency; we abstain ('phantom-shadowed', reporting the writer), because waiting on
 *   a dependency the transaction did not declare needs the dependency machinery of replica-core.ts
 *   (step 10, waking dependents, relays) to accept undeclared dependencies.
 * - Step 8, writer side (`checkWrites`): every written row (new value; deletions cannot make a
 *   predicate match, and old rows that matched are in the reader's read set, so step 5 covers them) is
 *   checked against the stored predicates of readers above T on its table, skipping rows in that
 *   reader's read set ('semantic-write-conflict', reporting a prepared reader).
 *
 * Decisions (where we differ from the prototype, PROTOCOL §5 last paragraph):
 * - The client-claimed table version V is capped by what this replica can justify: the effective version
 *   is min(V, the newest committed write to the table below T here). Lowering V only widens the walk,
 *   and every write the wider walk finds that matches is a row below T the reader really did not read,
 *   so the cap never turns a correct verdict into a wrong one; it only stops a client (or a Byzantine
 *   replica whose low reply the client's minimum picked) from hiding writes behind a large V. A V at or
 *   above T is therefore not refused either: honest executions report the high-water mark as V
 *   (query-exec.ts), which another reader at a later T may have raised above this reader's T.
 * - The prototype skips the write at exactly V. We do not: a reader that saw that write has its matching
 *   rows in its read set anyway, and the skip would let a Byzantine replica report V = the timestamp of a
 *   write the reader missed (clients keep the minimum V) and have that write ignored.
 * - The writer side has no lower bound (as in the prototype) and no table-version skip either.
 * - Predicates are evaluated by the SQL evaluator (`evalPredicate`) on rows decoded with the table
 *   definition the reader's statements were bound against: the catalog (sql/replicated-catalog.ts) in the
 *   transaction's own write of CATALOG_KEY, else the newest version of CATALOG_KEY below T here.
 * - Conflicts found here are ABSTAIN, never ABORT: a predicate conflict with a committed transaction
 *   would need the client to re-evaluate the predicate to verify an ABORT proof, and the client's check
 *   (protocol/certificate.ts provesConflict) knows only key conflicts.
 * - Transaction bytes are untrusted: malformed predicate bytes or filters (anything but constants,
 *   columns of the table and operators; parameters, outer references, subqueries are refused), an
 *   unknown table or index, or a filter or row that throws while evaluated give an ABSTAIN with a reason,
 *   never an exception. On the writer side an evaluation error counts as a conflict.
 *
 * Caveat: the catalog key lives on shard 0 (protocol/sharding.ts); another shard has no catalog, so
 * predicates on its tables abstain ('predicate-unknown-table') until the catalog is replicated to
 * every shard.
 */
import type { GraceConfig } from '../../protocol/config.ts';
import type { DigestKey } from '../../protocol/ids.ts';
import type { Key, Predicate, ReadEntry, TxnBody } from '../../protocol/messages.ts';
import { entryOfKey, lowerBoundKeyFrom } from '../../protocol/sorted-entries.ts';
import { tsLess, type Timestamp } from '../../protocol/timestamp.ts';
import type { IndexDef, TableDef } from '../../sql/catalog.ts';
import { CATALOG_KEY, CatalogCache, CatalogDecodeError, CatalogVersion } from '../../sql/replicated-catalog.ts';
import { decodePredicate, scanMatchesRow, type RowMatch, type ScanPredicate } from '../../sql/predicate-codec.ts';
import { TABLE_PREFIX_BYTES, tablePrefix } from '../../sql/row-key.ts';
import { newestBelow, type KeyState, type Store, type Version } from './store.ts';
import { sqlTableOfKey, type TableState, type TableWrite } from './table-writes.ts';

export const SEMANTIC_ABSTAIN_REASONS = [
  'late-writer',
  'phantom',
  'phantom-shadowed',
  'semantic-write-conflict',
  'predicate-malformed',
  'predicate-unknown-table',
  'predicate-unevaluable',
] as const;
export type SemanticAbstainReason = (typeof SEMANTIC_ABSTAIN_REASONS)[number];

/** A semantic conflict: the reason, and the undecided prepared transaction behind it when there is one. */
export interface SemanticConflict {
  readonly reason: SemanticAbstainReason;
  readonly prepared?: DigestKey;
}

/** Grace periods in microseconds. */
export interface Grace {
  readonly g1: number;
  readonly g2: number;
}

export function graceMicros(cfg: GraceConfig): Grace {
  return { g1: cfg.monotonicityMs * 1000, g2: cfg.nonMonotonicityMs * 1000 };
}

/** Step 2: a writer this far behind the table's high-water mark is refused. */
export function isLateWriter(t: Timestamp, high: Timestamp, g: Grace): boolean {
  return t.micros + g.g1 + g.g2 <= high.micros;
}

/** Step 2: a writer this far behind is accepted, but flagged so readers look for it further back. */
export function isNonMonotonic(t: Timestamp, high: Timestamp, g: Grace): boolean {
  return t.micros + g.g1 <= high.micros;
}

/** Table ids whose first key byte is 0 (sql tables; row-key.ts): 1 .. 2^24 - 1. */
const SQL_TABLE_END = 1 << 24;

/** A predicate of a transaction, decoded and bound to its table definition. */
export interface ResolvedPredicate {
  readonly table: number;
  /** The client's table version. */
  readonly claimed: Timestamp;
  /** null (with `def` null): unresolvable, conservatively covering every row of the table. */
  readonly scan: ScanPredicate | null;
  readonly def: TableDef | null;
  readonly index: IndexDef | null;
}

/** The part of a predicate that evaluation needs (resolved or stored). */
interface Evaluable {
  readonly scan: ScanPredicate | null;
  readonly def: TableDef | null;
  readonly index: IndexDef | null;
}

/** What SemanticCC reads besides the store. */
export interface SemanticContext {
  readonly store: Store;
  readonly owns: (key: Key) => boolean;
  readonly grace: Grace;
  readonly catalogs: CatalogLookup;
}

/**
 * Decoded catalogs, cached by the identity of the catalog value's bytes (a version's value is one
 * immutable array shared by its prepared and committed versions; CatalogCache.ofStored).
 */
export class CatalogLookup {
  readonly #catalogs = new CatalogCache();

  /**
   * The catalog a transaction's statements were bound against: its own write of CATALOG_KEY, else the
   * newest version below T here, committed or prepared (what an eager read at T shows; validation steps
   * 3-4 already refused a reader of an older catalog version). null: the value is malformed.
   */
  forTxn(store: Store, body: TxnBody): CatalogVersion | null {
    const own = entryOfKey(body.writes, CATALOG_KEY);
    if (own !== undefined) return this.#decode(own.value);
    const ks = store.get(CATALOG_KEY);
    if (ks === undefined) return CatalogVersion.empty;
    const c = newestBelow(ks.committed, body.ts);
    const p = newestBelow(ks.prepared, body.ts);
    const v = p !== undefined && (c === undefined || tsLess(c.ts, p.ts)) ? p : c;
    return v === undefined ? CatalogVersion.empty : this.#decode(v.value);
  }

  #decode(value: Uint8Array | null): CatalogVersion | null {
    try {
      return this.#catalogs.ofStored(value);
    } catch (e) {
      if (e instanceof CatalogDecodeError) return null;
      throw e;
    }
  }
}

function inReads(reads: readonly ReadEntry[], key: Key): boolean {
  return entryOfKey(reads, key) !== undefined;
}

/** The predicate's table is one this shard validates (false for tables of other shards). */
function ownsTable(owns: (key: Key) => boolean, table: number): boolean {
  return owns(tablePrefix(table));
}

const MAX_FILTER_DEPTH = 256;

/**
 * Whether a decoded filter only uses what a stored predicate may: constants, columns of the table (below
 * `width`) and operators. Parameters, outer references, aggregates and subqueries are bound away by a
 * correct execution (sql/scan-exec.ts bindExpr; subqueries stay above scans).
 */
function wellFormedFilter(e: unknown, width: number, depth = 0): boolean {
  if (depth > MAX_FILTER_DEPTH || typeof e !== 'object' || e === null) return false;
  const x = e as Record<string, unknown>;
  // No closures here: this runs for every node of every predicate a prepare carries, and each
  // closure made per call cost more than the check (tsx's name helper included).
  const d = depth + 1;
  switch (x['k']) {
    case 'const':
      return true;
    case 'col': {
      const i = x['i'];
      return typeof i === 'number' && Number.isInteger(i) && i >= 0 && i < width;
    }
    case 'arith':
    case 'cmp':
    case 'distinct':
      return wellFormedFilter(x['l'], width, d) && wellFormedFilter(x['r'], width, d);
    case 'neg':
    case 'not':
    case 'isnull':
    case 'booltest':
    case 'cast':
      return wellFormedFilter(x['e'], width, d);
    case 'and':
    case 'or':
    case 'func':
      return wellFormedAll(x['args'], width, d);
    case 'in':
      return wellFormedFilter(x['e'], width, d) && wellFormedAll(x['list'], width, d);
    case 'anyarr':
      return wellFormedFilter(x['e'], width, d) && wellFormedFilter(x['arr'], width, d);
    case 'array':
      return wellFormedAll(x['items'], width, d);
    case 'like':
      return wellFormedFilter(x['e'], width, d) && wellFormedFilter(x['pat'], width, d);
    case 'case': {
      const whens = x['whens'];
      const els = x['els'];
      if (!Array.isArray(whens)) return false;
      for (const w of whens as unknown[]) {
        if (typeof w !== 'object' || w === null) return false;
        const cw = w as Record<string, unknown>;
        if (!wellFormedFilter(cw['when'], width, d) || !wellFormedFilter(cw['then'], width, d)) return false;
      }
      return els === null || wellFormedFilter(els, width, d);
    }
    default:
      return false;
  }
}

function wellFormedAll(v: unknown, width: number, depth: number): boolean {
  if (!Array.isArray(v)) return false;
  for (const y of v as unknown[]) if (!wellFormedFilter(y, width, depth)) return false;
  return true;
}

type Resolved = { readonly ok: true; readonly value: ResolvedPredicate } | { readonly ok: false; readonly reason: SemanticAbstainReason };

function resolveOne(p: Predicate, catalog: () => CatalogVersion | null): Resolved {
  const scan = decodePredicate(p.expr);
  if (scan === null) return { ok: false, reason: 'predicate-malformed' };
  const cv = catalog();
  const def = cv?.catalog.storageDef(p.table);
  if (def === undefined) return { ok: false, reason: 'predicate-unknown-table' };
  let index: IndexDef | null = null;
  if (scan.indexId !== null) {
    index = def.indexes.find((i) => i.id === scan.indexId) ?? null;
    if (index === null) return { ok: false, reason: 'predicate-malformed' };
  }
  if (scan.filter !== null && !wellFormedFilter(scan.filter, def.columns.length)) return { ok: false, reason: 'predicate-malformed' };
  return { ok: true, value: { table: p.table, claimed: p.tableVersion, scan, def, index } };
}

function catalogThunk(ctx: SemanticContext, body: TxnBody): () => CatalogVersion | null {
  let cv: CatalogVersion | null | undefined;
  return () => {
    if (cv === undefined) cv = ctx.catalogs.forTxn(ctx.store, body);
    return cv;
  };
}

/**
 * Decodes and binds the transaction's predicates on tables this shard owns (validation: anything wrong
 * is an ABSTAIN reason).
 */
export function resolvePredicates(ctx: SemanticContext, body: TxnBody): { readonly ok: true; readonly preds: readonly ResolvedPredicate[] } | { readonly ok: false; readonly reason: SemanticAbstainReason } {
  if (body.predicates.length === 0) return { ok: true, preds: [] };
  const catalog = catalogThunk(ctx, body);
  const preds: ResolvedPredicate[] = [];
  for (const p of body.predicates) {
    if (p.table <= 0 || p.table >= SQL_TABLE_END) return { ok: false, reason: 'predicate-unknown-table' };
    if (!ownsTable(ctx.owns, p.table)) continue;
    const r = resolveOne(p, catalog);
    if (!r.ok) return r;
    preds.push(r.value);
  }
  return { ok: true, preds };
}

/**
 * The predicates to record for a transaction that was not validated here (log replay, or a commit
 * learnt from a certificate alone): what does not resolve is kept as covering its whole table.
 */
export function resolvePredicatesLeniently(ctx: SemanticContext, body: TxnBody): ResolvedPredicate[] {
  const catalog = catalogThunk(ctx, body);
  const preds: ResolvedPredicate[] = [];
  for (const p of body.predicates) {
    if (p.table <= 0 || p.table >= SQL_TABLE_END || !ownsTable(ctx.owns, p.table)) continue;
    const r = resolveOne(p, catalog);
    preds.push(r.ok ? r.value : { table: p.table, claimed: p.tableVersion, scan: null, def: null, index: null });
  }
  return preds;
}

/** Whether the row stored under `key` (a row key of the predicate's table) satisfies the predicate. */
function rowMatches(p: Evaluable, key: Key, value: Uint8Array | null): RowMatch {
  return scanMatchesRow(p.scan, p.def, p.index, key, value);
}

/** Step 2: whether the transaction writes a table whose high-water mark makes it a late writer. */
export function isLateWriteSet(ctx: SemanticContext, body: TxnBody): boolean {
  let last = -1;
  for (const w of body.writes) {
    const id = sqlTableOfKey(w.key);
    if (id === null || id === last || !ctx.owns(w.key)) continue;
    last = id;
    if (isLateWriter(body.ts, ctx.store.table(id).high, ctx.grace)) return true;
  }
  return false;
}

/** The table version validation uses: the claim, capped by the newest committed write below T here. */
export function effectiveTableVersion(tbl: TableState, claimed: Timestamp, at: Timestamp): Timestamp {
  const justified = tbl.committedVersionBelow(at);
  return tsLess(claimed, justified) ? claimed : justified;
}

/** Step 7, the reader side (see the module comment). `self`: the reader's own key, never a conflict. */
export function checkPredicates(ctx: SemanticContext, body: TxnBody, preds: readonly ResolvedPredicate[], self: DigestKey | null): SemanticConflict | null {
  const t = body.ts;
  const { g1, g2 } = ctx.grace;
  for (const rp of preds) {
    const tbl = ctx.store.table(rp.table);
    const writes = tbl.writes;
    const start = tbl.firstWriteAtOrAbove(t);
    if (start === 0) continue;
    const v = effectiveTableVersion(tbl, rp.claimed, t).micros;
    const range = storeKeyRange(rp);
    const walked: TableWrite[] = [];
    for (let i = start - 1; i >= 0; i--) {
      const w = writes[i]!;
      if (w.ts.micros + g1 + g2 < v) break;
      if ((w.ts.micros + g1 < v && !w.nonMonotonic) || w.txn === self) continue;
      walked.push(w);
    }
    // A key two walked writes share is examined once; within one write the keys are distinct (and sorted,
    // so their places among the reads are found by galloping from the previous one's: a bulk write of
    // the table costs its later readers a merge, not a set insert and a binary search per row).
    const seen = walked.length > 1 ? new Set<Key>() : null;
    const reads = body.reads;
    for (const w of walked) {
      let r = 0;
      for (const key of w.keys) {
        // A row outside a primary-key range matches in no version (scanMatchesRow): not looked up.
        if (range !== null && (key < range.lo || (range.hi !== null && key >= range.hi))) continue;
        if (seen !== null) {
          if (seen.has(key)) continue;
          seen.add(key);
        }
        // Rows a history lists were applied here, so they are owned here (table-writes.ts).
        r = lowerBoundKeyFrom(reads, key, r);
        if (r < reads.length && reads[r]!.key === key && scanned(rp, key)) continue;
        const c = examineKey(ctx.store.get(key), key, t, rp);
        if (c !== null) return c;
      }
    }
  }
  return null;
}

/**
 * A resolved primary-key range predicate's range as store keys (its table's prefix added), so rows of
 * the table's history are compared without slicing; null for an index or unresolved predicate.
 */
function storeKeyRange(rp: ResolvedPredicate): { readonly lo: Key; readonly hi: Key | null } | null {
  const scan = rp.scan;
  if (scan === null || rp.def === null || scan.indexId !== null || rp.index !== null) return null;
  const prefix = tablePrefix(rp.table);
  return { lo: prefix + scan.lo, hi: scan.hi === null ? null : prefix + scan.hi };
}

/**
 * Whether the predicate's own query read `key` (ScanPredicate.keys): only such read-set rows are
 * protected by MVTSO as far as this scan goes. A row a later read of the transaction put in the read set
 * may be exactly the phantom this scan missed (a write below T that landed after the scan ran).
 */
function scanned(rp: ResolvedPredicate, key: Key): boolean {
  const keys = rp.scan?.keys ?? null;
  return keys === null || keys.has(key.slice(TABLE_PREFIX_BYTES));
}

/** Index of the newest version in `chain` below `t`, or -1. */
function newestIndexBelow(chain: readonly Version[], t: Timestamp): number {
  let i = chain.length - 1;
  while (i >= 0 && !tsLess(chain[i]!.ts, t)) i--;
  return i;
}

/**
 * A key the reader did not read: its newest version below T must not match; if that version is prepared
 * (and does not match), no older version down to the newest committed one may match either.
 */
function examineKey(ks: KeyState | undefined, key: Key, t: Timestamp, p: Evaluable): SemanticConflict | null {
  if (ks === undefined) return null;
  const c = ks.committed;
  const pr = ks.prepared;
  let ci = newestIndexBelow(c, t);
  let pi = newestIndexBelow(pr, t);
  let shadowing: Version | null = null;
  while (ci >= 0 || pi >= 0) {
    const fromPrepared = pi >= 0 && (ci < 0 || tsLess(c[ci]!.ts, pr[pi]!.ts));
    const v = fromPrepared ? pr[pi--]! : c[ci--]!;
    const m = rowMatches(p, key, v.value);
    if (shadowing === null) {
      if (m === 'error') return { reason: 'predicate-unevaluable' };
      if (m === 'yes') return fromPrepared ? { reason: 'phantom', prepared: v.txn } : { reason: 'phantom' };
      if (!fromPrepared) return null;
      shadowing = v;
      continue;
    }
    if (m !== 'no') return { reason: 'phantom-shadowed', prepared: shadowing.txn };
    if (!fromPrepared) return null;
  }
  return null;
}

/** Step 8, the writer side (see the module comment). */
export function checkWrites(ctx: SemanticContext, body: TxnBody, self: DigestKey | null): SemanticConflict | null {
  const writes = body.writes;
  let i = 0;
  while (i < writes.length) {
    const id = sqlTableOfKey(writes[i]!.key);
    if (id === null) {
      i++;
      continue;
    }
    const hi = tablePrefix(id + 1);
    let end = i + 1;
    while (end < writes.length && writes[end]!.key < hi) end++;
    const tbl = ctx.store.table(id);
    const preds = tbl.predicates;
    for (let k = tbl.firstPredicateAbove(body.ts); k < preds.length; k++) {
      const p = preds[k]!;
      if (p.txn === self) continue;
      for (let x = i; x < end; x++) {
        const w = writes[x]!;
        if (w.value === null || !ctx.owns(w.key) || inReads(p.reads, w.key)) continue;
        if (rowMatches(p, w.key, w.value) !== 'no') return p.committed ? { reason: 'semantic-write-conflict' } : { reason: 'semantic-write-conflict', prepared: p.txn };
      }
    }
    i = end;
  }
  return null;
}

/** Step 9: records the transaction's predicates (prepared, or committed when learnt at commit). */
export function recordPredicates(store: Store, txn: DigestKey, body: TxnBody, preds: readonly ResolvedPredicate[], committed: boolean, watermark: Timestamp): void {
  let last = -1;
  for (const rp of preds) {
    const tbl = store.table(rp.table);
    tbl.addPredicate({
      readerTs: body.ts,
      txn,
      tableVersion: effectiveTableVersion(tbl, rp.claimed, body.ts),
      scan: rp.scan,
      def: rp.def,
      index: rp.index,
      reads: body.reads,
      committed,
    });
    if (rp.table !== last) tbl.collect(watermark);
    last = rp.table;
  }
}

/** The tables a transaction may have recorded predicates on here. */
function predicateTables(body: TxnBody, owns: (key: Key) => boolean): Set<number> {
  const out = new Set<number>();
  for (const p of body.predicates) if (p.table > 0 && p.table < SQL_TABLE_END && ownsTable(owns, p.table)) out.add(p.table);
  return out;
}

// Both return at once without predicates (key-value transactions): no Set per commit and abort.
export function commitPredicates(store: Store, txn: DigestKey, body: TxnBody, owns: (key: Key) => boolean): void {
  if (body.predicates.length === 0) return;
  for (const id of predicateTables(body, owns)) store.table(id).commitPredicates(body.ts, txn);
}

export function dropPredicates(store: Store, txn: DigestKey, body: TxnBody, owns: (key: Key) => boolean): void {
  if (body.predicates.length === 0) return;
  for (const id of predicateTables(body, owns)) store.table(id).dropPredicates(body.ts, txn);
}
