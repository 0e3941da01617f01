import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { encodeTxn } from '../../protocol/codec.ts';
import type { ReplicaIndex, ShardId } from '../../protocol/ids.ts';
import type { Certificate, Key, Message, Predicate, ReadEntry, Txn, TxnBody, WriteEntry } from '../../protocol/messages.ts';
import { ts, type Timestamp } from '../../protocol/timestamp.ts';
import { Engine } from '../../sql/engine.ts';
import type { Expr } from '../../sql/expr.ts';
import { encodeKey } from '../../sql/key-encoding.ts';
import { indexEntryPrefix } from '../../sql/memory-store.ts';
import { CATALOG_KEY, CatalogVersion } from '../../sql/replicated-catalog.ts';
import type { Row } from '../../sql/types.ts';
import { SqlArray } from '../../sql/sql-array.ts';
import { encodePredicate, type ScanPredicate } from '../../sql/predicate-codec.ts';
import { executeAt } from './query-exec.ts';
import { ReplicaCore, type ReplicaEffect } from './replica-core.ts';
import { encodeRow } from '../../sql/row-codec.ts';
import { rowKey } from '../../sql/row-key.ts';
import { ABSTAIN_REASONS } from './validation.ts';

// SemanticCC at the ReplicaCore level (PROTOCOL §5 steps 2, 7, 8, 9): real transactions, rows and
// predicate bytes, a catalog committed under CATALOG_KEY. Grace periods: the defaults, 5 ms and 20 ms.
const s0 = 0 as ShardId;
const NOW = 10_000_000;
const MS = 1000;
/** Timestamps in a window well inside the clock bound and the history window. */
const at = (micros: number, client = 1): Timestamp => ts(NOW - 1_000_000 + micros, client);

const engine = await Engine.create();
const ddl = (cv: CatalogVersion, sql: string): CatalogVersion => cv.apply(engine.parse(sql).stmts[0]!).next!;
const CATALOG = ddl(ddl(CatalogVersion.empty, 'CREATE TABLE t (id int PRIMARY KEY, v int, tag text)'), 'CREATE INDEX t_v ON t (v)');
const T = CATALOG.catalog.require('t');
const T_V = T.indexes.find((i) => i.name === 't_v')!;

const key = (id: number): Key => rowKey(T.id, encodeKey([id], T.pkTypes));
const row = (id: number, v: number, tag = 'a'): WriteEntry => ({ key: key(id), value: encodeRow(T, [id, v, tag]) });
const del = (id: number): WriteEntry => ({ key: key(id), value: null });

// Filters over t's columns (0 id, 1 v, 2 tag), as a bound scan filter looks.
const col = (i: number): Expr => ({ k: 'col', i, t: i === 2 ? 'text' : 'int4' });
const int = (v: number): Expr => ({ k: 'const', v, t: 'int4' });
const cmp = (op: '>' | '<' | '=', l: Expr, r: Expr): Expr => ({ k: 'cmp', op, l, r, ct: 'int4', t: 'bool' });
const vAbove = (n: number): Expr => cmp('>', col(1), int(n));

function pred(filter: Expr | null, tableVersion: Timestamp, over: Partial<Omit<ScanPredicate, 'keys' | 'zone'>> & { keys?: string[] | null; zone?: string } = {}, table = T.id): Predicate {
  return { table, tableVersion, expr: encodePredicate({ indexId: null, lo: '', hi: null, filter, keys: null, ...over }) };
}

function txnOf(t: Timestamp, over: Partial<TxnBody> = {}): Txn {
  const writes = [...(over.writes ?? [])].sort((a, b) => (a.key < b.key ? -1 : 1));
  const reads = [...(over.reads ?? [])].sort((a, b) => (a.key < b.key ? -1 : 1));
  return encodeTxn({ ts: t, shards: [s0], deps: [], predicates: [], meta: new Uint8Array(0), ...over, reads, writes });
}

const commitCert: Certificate = { kind: 'votes', votes: { decision: 'commit', shards: [{ shard: s0, sigs: [] }] } };
const abortCert: Certificate = { kind: 'votes', votes: { decision: 'abstain', shards: [{ shard: s0, sigs: [] }] } };

/** The DDL and five rows (v = 10 .. 50), committed at GENESIS. */
const GENESIS = at(10 * MS);
const genesis = txnOf(GENESIS, { writes: [{ key: CATALOG_KEY, value: CATALOG.value() }, ...[1, 2, 3, 4, 5].map((i) => row(i, i * 10))] });
/** Every SQL transaction reads the catalog (sql/replicated-catalog.ts). */
const catalogRead: ReadEntry = { key: CATALOG_KEY, version: GENESIS };
/** A reader's active read set: the rows of `ids` at GENESIS, plus the catalog. */
const readsOf = (...ids: number[]): ReadEntry[] => [catalogRead, ...ids.map((id) => ({ key: key(id), version: GENESIS }))];

function newCore(): ReplicaCore {
  const core = new ReplicaCore({ shard: s0, index: 0 as ReplicaIndex, f: 1, owns: () => true, clockSkewMaxMicros: 1_000_000, gcWindowMicros: 5_000_000 }, { nowMicros: () => NOW });
  commit(core, genesis);
  return core;
}

function commit(core: ReplicaCore, t: Txn): void {
  core.handle(1, { kind: 'writeback', digest: t.digest, cert: commitCert, txn: t });
  core.takeEffects();
}

function abort(core: ReplicaCore, t: Txn): void {
  core.handle(1, { kind: 'writeback', digest: t.digest, cert: abortCert, txn: t });
  core.takeEffects();
}

type Reply = Extract<Message, { kind: 'prepareReply' }>;

/** Prepares `t`, signs as the shell would, and returns the vote (with its abstain reason, from the stats). */
function prepare(core: ReplicaCore, t: Txn): { decision: Reply['decision']; reason: string | null; blocker: Txn | null } {
  const before = { ...core.stats.abstainReasons };
  core.handle(7, { kind: 'prepare', req: 1, txn: t });
  const replies: Reply[] = [];
  for (let effects: ReplicaEffect[] = core.takeEffects(); effects.length > 0; effects = core.takeEffects()) {
    for (const e of effects) {
      if (e.kind === 'sign') core.onSigned(e.ref, { signer: 0, rootSignature: new Uint8Array(64), index: 0, path: new Uint8Array(0) });
      if (e.kind === 'send' && e.msg.kind === 'prepareReply') replies.push(e.msg);
    }
  }
  assert.equal(replies.length, 1, 'one vote');
  const r = replies[0]!;
  const reason = Object.entries(core.stats.abstainReasons).find(([k, n]) => n !== before[k as keyof typeof before])?.[0] ?? null;
  return { decision: r.decision, reason, blocker: r.conflictPrepared };
}

const committedVote = { decision: 'commit', reason: null, blocker: null };

void describe('SemanticCC reader side (PROTOCOL §5 step 7)', () => {
  void it('abstains on a phantom: a prepared matching insert between the table version and T, reporting the writer', () => {
    const core = newCore();
    const writer = txnOf(at(20 * MS), { reads: [{ key: key(7), version: ts(0, 0) }, catalogRead], writes: [row(7, 70)] });
    assert.deepEqual(prepare(core, writer), committedVote);
    const reader = txnOf(at(30 * MS), { reads: readsOf(), predicates: [pred(vAbove(50), GENESIS)] });
    assert.deepEqual(prepare(core, reader), { decision: 'abstain', reason: 'phantom', blocker: writer });
  });

  void it('abstains on a phantom committed before the reader validates (no blocker to report)', () => {
    const core = newCore();
    commit(core, txnOf(at(20 * MS), { writes: [row(7, 70)] }));
    const reader = txnOf(at(30 * MS), { reads: readsOf(), predicates: [pred(vAbove(50), GENESIS)] });
    assert.deepEqual(prepare(core, reader), { decision: 'abstain', reason: 'phantom', blocker: null });
  });

  void it('commits when the insert does not satisfy the filter, or lies outside the scanned key range', () => {
    const core = newCore();
    commit(core, txnOf(at(20 * MS), { writes: [row(7, 5), row(8, 80)] }));
    const reader = txnOf(at(30 * MS), { reads: readsOf(), predicates: [pred(vAbove(50), GENESIS, { hi: encodeKey([8], T.pkTypes) })] });
    assert.deepEqual(prepare(core, reader), committedVote);
  });

  void it('a range without a filter (a range read whose WHERE became its key range): every row inside it is a phantom, none outside', () => {
    const range = { lo: encodeKey([7], T.pkTypes), hi: encodeKey([9], T.pkTypes) };
    for (const [id, reason] of [[6, null], [7, 'phantom'], [8, 'phantom'], [9, null], [100, null]] as const) {
      const core = newCore();
      commit(core, txnOf(at(20 * MS), { writes: [row(id, 1)] }));
      const reader = txnOf(at(30 * MS), { reads: readsOf(), predicates: [pred(null, GENESIS, range)] });
      assert.deepEqual(prepare(core, reader), reason === null ? committedVote : { decision: 'abstain', reason, blocker: null }, `row ${id}`);
    }
  });

  void it('ignores matching rows the reader has in its read set (MVTSO covers them)', () => {
    const core = newCore();
    const w = txnOf(at(20 * MS), { writes: [row(7, 70)] });
    commit(core, w);
    const reader = txnOf(at(30 * MS), { reads: [catalogRead, { key: key(7), version: w.body.ts }], predicates: [pred(vAbove(50), GENESIS)] });
    assert.deepEqual(prepare(core, reader), committedVote);
  });

  void it("excuses only rows the predicate's own query read: a row a later read added is still a phantom (sim SQL seed 10)", () => {
    const core = newCore();
    const w = txnOf(at(20 * MS), { writes: [row(7, 70)] });
    commit(core, w);
    const pk7 = key(7).slice(4);
    // The scan returned nothing; a point read afterwards found row 7 (written below T after the scan ran).
    const missed = txnOf(at(30 * MS), { reads: [catalogRead, { key: key(7), version: w.body.ts }], predicates: [pred(vAbove(50), GENESIS, { keys: [] })] });
    assert.equal(prepare(core, missed).reason, 'phantom');
    // The scan itself returned row 7 at that version: no phantom.
    const saw = txnOf(at(31 * MS), { reads: [catalogRead, { key: key(7), version: w.body.ts }], predicates: [pred(vAbove(50), GENESIS, { keys: [pk7] })] });
    assert.deepEqual(prepare(core, saw), committedVote);
  });

  void it('does not count a deletion as a phantom, committed or prepared over a non-matching row', () => {
    const core = newCore();
    commit(core, txnOf(at(20 * MS), { writes: [del(5)] }));
    const w = txnOf(at(21 * MS), { writes: [del(1)] });
    assert.equal(prepare(core, w).decision, 'commit');
    // The reader saw neither row 5 (deleted) nor row 1 (v = 10 fails the filter).
    const reader = txnOf(at(30 * MS), { reads: readsOf(4), predicates: [pred(vAbove(30), GENESIS)] });
    assert.deepEqual(prepare(core, reader), committedVote);
  });

  void it('abstains when a prepared deletion shadows a matching row (the result holds only if it commits)', () => {
    const core = newCore();
    const w = txnOf(at(20 * MS), { writes: [del(5)] });
    assert.equal(prepare(core, w).decision, 'commit');
    const reader = txnOf(at(30 * MS), { reads: readsOf(4), predicates: [pred(vAbove(30), GENESIS)] });
    assert.deepEqual(prepare(core, reader), { decision: 'abstain', reason: 'phantom-shadowed', blocker: w });
    // Once the deletion commits, the same shape is fine.
    commit(core, w);
    const later = txnOf(at(31 * MS), { reads: readsOf(4), predicates: [pred(vAbove(30), GENESIS)] });
    assert.deepEqual(prepare(core, later), committedVote);
  });

  void it('forgets an aborted writer', () => {
    const core = newCore();
    const w = txnOf(at(20 * MS), { writes: [row(7, 70)] });
    assert.equal(prepare(core, w).decision, 'commit');
    abort(core, w);
    assert.equal(core.store.table(T.id).writes.some((e) => e.txn === w.key), false);
    const reader = txnOf(at(30 * MS), { reads: readsOf(), predicates: [pred(vAbove(50), GENESIS)] });
    assert.deepEqual(prepare(core, reader), committedVote);
  });

  void it('evaluates IN and LIKE with the SQL evaluator, and secondary-index ranges by index entry', () => {
    const core = newCore();
    commit(core, txnOf(at(20 * MS), { writes: [row(7, 70, 'zebra'), row(8, 33, 'yak')] }));
    const like: Expr = { k: 'like', e: col(2), pat: { k: 'const', v: 'ze%', t: 'text' }, neg: false, ci: false, t: 'bool' };
    const inList: Expr = { k: 'in', e: col(1), list: [int(1), int(2)], neg: false, ct: 'int4', t: 'bool' };
    const byLike = txnOf(at(30 * MS), { reads: readsOf(), predicates: [pred(like, GENESIS)] });
    assert.equal(prepare(core, byLike).reason, 'phantom');
    const byIn = txnOf(at(30 * MS, 2), { reads: readsOf(), predicates: [pred(inList, GENESIS)] });
    assert.deepEqual(prepare(core, byIn), committedVote);
    // Index t_v over v in [30, 40): row 8 (v = 33) is in range; [60, 65) holds nothing new.
    const entry = (v: number): string => indexEntryPrefix(T_V, [0, v, null] as Row)!;
    const idx = (lo: number, hi: number, client: number): Txn =>
      txnOf(at(30 * MS, client), { reads: readsOf(3), predicates: [pred(null, GENESIS, { indexId: T_V.id, lo: entry(lo), hi: entry(hi) })] });
    assert.equal(prepare(core, idx(30, 40, 3)).reason, 'phantom');
    assert.deepEqual(prepare(core, idx(60, 65, 4)), committedVote);
  });
});

void describe('SemanticCC table versions (PROTOCOL §5: the claim is checked, not trusted)', () => {
  void it('caps a claimed table version above what this replica committed, so the write it would hide is checked', () => {
    const core = newCore();
    commit(core, txnOf(at(20 * MS), { writes: [row(7, 70)] }));
    // Claims far above the write (and even above T): trusted, the walk would stop before the insert.
    for (const [i, claim] of [at(29 * MS), at(31 * MS)].entries()) {
      const reader = txnOf(at(30 * MS, 10 + i), { reads: readsOf(), predicates: [pred(vAbove(50), claim)] });
      assert.deepEqual(prepare(core, reader), { decision: 'abstain', reason: 'phantom', blocker: null });
    }
  });

  void it('does not skip the write at exactly the claimed version (a low claim cannot hide a missed write)', () => {
    const core = newCore();
    const w = txnOf(at(20 * MS), { writes: [row(7, 70)] });
    commit(core, w);
    const reader = txnOf(at(30 * MS), { reads: readsOf(), predicates: [pred(vAbove(50), w.body.ts)] });
    assert.equal(prepare(core, reader).reason, 'phantom');
  });

  void it('accepts an honest table version at or above T when nothing conflicts', () => {
    const core = newCore();
    const reader = txnOf(at(30 * MS), { reads: readsOf(), predicates: [pred(vAbove(50), at(40 * MS))] });
    assert.deepEqual(prepare(core, reader), committedVote);
  });

  void it('looks back only grace1 below the table version for unflagged writes, grace1 + grace2 for flagged ones', () => {
    // A matching write at 20 ms, then a committed non-matching one at 30 ms; the reader claims 30 ms.
    const run = (flagged: boolean): string | null => {
      const core = newCore();
      if (flagged) core.store.table(T.id).observe(at(26 * MS)); // a query saw 26 ms: the 20 ms writer is 6 ms late
      const old = txnOf(at(20 * MS), { writes: [row(7, 70)] });
      assert.equal(prepare(core, old).decision, 'commit');
      assert.equal(core.store.table(T.id).writes.find((e) => e.txn === old.key)?.nonMonotonic, flagged);
      commit(core, txnOf(at(30 * MS), { writes: [row(8, 1)] }));
      return prepare(core, txnOf(at(40 * MS), { reads: readsOf(), predicates: [pred(vAbove(50), at(30 * MS))] })).reason;
    };
    assert.equal(run(false), null, 'an unflagged write 10 ms below the version is assumed seen (the prototype window)');
    assert.equal(run(true), 'phantom');
  });
});

void describe('SemanticCC writer side (PROTOCOL §5 step 8)', () => {
  void it('abstains a writer whose new row matches a newer prepared reader predicate, reporting the reader', () => {
    const core = newCore();
    const reader = txnOf(at(30 * MS), { reads: readsOf(), predicates: [pred(vAbove(50), GENESIS)] });
    assert.deepEqual(prepare(core, reader), committedVote);
    const writer = txnOf(at(20 * MS), { writes: [row(7, 70)] });
    assert.deepEqual(prepare(core, writer), { decision: 'abstain', reason: 'semantic-write-conflict', blocker: reader });
  });

  void it('abstains against a committed reader too, and forgets an aborted one', () => {
    const core = newCore();
    const committed = txnOf(at(30 * MS), { reads: readsOf(), predicates: [pred(vAbove(50), GENESIS)] });
    commit(core, committed);
    assert.deepEqual(prepare(core, txnOf(at(20 * MS), { writes: [row(7, 70)] })), { decision: 'abstain', reason: 'semantic-write-conflict', blocker: null });

    const core2 = newCore();
    const aborted = txnOf(at(30 * MS), { reads: readsOf(), predicates: [pred(vAbove(50), GENESIS)] });
    assert.equal(prepare(core2, aborted).decision, 'commit');
    abort(core2, aborted);
    assert.deepEqual(prepare(core2, txnOf(at(20 * MS), { writes: [row(7, 70)] })), committedVote);
  });

  void it('lets through non-matching rows, deletions, rows in the reader read set, and readers below T', () => {
    const core = newCore();
    const reader = txnOf(at(30 * MS), { reads: readsOf(4, 5), predicates: [pred(vAbove(30), GENESIS)] });
    assert.equal(prepare(core, reader).decision, 'commit');
    const early = txnOf(at(10 * MS + 1), { reads: readsOf(1, 2, 3, 4, 5), predicates: [pred(vAbove(0), GENESIS)] });
    assert.equal(prepare(core, early).decision, 'commit');
    assert.deepEqual(prepare(core, txnOf(at(20 * MS), { writes: [row(7, 5), del(1)] })), committedVote);
    // Row 4 is in the reader's read set: step 5 judges it (read at GENESIS < 21 ms: abstain there).
    assert.deepEqual(prepare(core, txnOf(at(21 * MS), { writes: [row(4, 99)] })), { decision: 'abstain', reason: 'write-prepared-read-conflict', blocker: reader });
    // Above the reader: not its concern.
    assert.deepEqual(prepare(core, txnOf(at(35 * MS), { writes: [row(9, 99)] })), committedVote);
  });

  void it('rebuilds recorded predicates from the log after a restart', () => {
    const core = newCore();
    const reader = txnOf(at(30 * MS), { reads: readsOf(), predicates: [pred(vAbove(50), GENESIS)] });
    assert.equal(prepare(core, reader).decision, 'commit');
    const fresh = new ReplicaCore({ shard: s0, index: 0 as ReplicaIndex, f: 1, owns: () => true, clockSkewMaxMicros: 1_000_000, gcWindowMicros: 5_000_000 }, { nowMicros: () => NOW });
    fresh.restore(core.checkpoint());
    assert.equal(prepare(fresh, txnOf(at(20 * MS), { writes: [row(7, 70)] })).reason, 'semantic-write-conflict');
  });
});

void describe('SemanticCC on write skew', () => {
  // Each inserts a row into the range the other scanned and found empty: at most one may commit.
  const shape = (): [Txn, Txn] => [
    txnOf(at(20 * MS), { reads: readsOf(), predicates: [pred(vAbove(50), GENESIS)], writes: [row(8, 80)] }),
    txnOf(at(30 * MS), { reads: readsOf(), predicates: [pred(vAbove(50), GENESIS)], writes: [row(9, 90)] }),
  ];

  void it('older first: the newer one abstains on the phantom', () => {
    const core = newCore();
    const [older, newer] = shape();
    assert.equal(prepare(core, older).decision, 'commit');
    assert.deepEqual(prepare(core, newer), { decision: 'abstain', reason: 'phantom', blocker: older });
  });

  void it('newer first: the older one abstains as a writer', () => {
    const core = newCore();
    const [older, newer] = shape();
    assert.equal(prepare(core, newer).decision, 'commit');
    assert.deepEqual(prepare(core, older), { decision: 'abstain', reason: 'semantic-write-conflict', blocker: newer });
  });
});

void describe('write monotonicity (PROTOCOL §5 step 2)', () => {
  void it('abstains a writer older than high - (grace1 + grace2), accepts and flags one older than high - grace1', () => {
    const core = newCore();
    core.store.table(T.id).observe(at(50 * MS));
    assert.deepEqual(prepare(core, txnOf(at(25 * MS), { writes: [row(7, 1)] })), { decision: 'abstain', reason: 'late-writer', blocker: null });
    const flagged = txnOf(at(26 * MS), { writes: [row(8, 1)] });
    assert.deepEqual(prepare(core, flagged), committedVote);
    const fresh = txnOf(at(46 * MS), { writes: [row(9, 1)] });
    assert.deepEqual(prepare(core, fresh), committedVote);
    const writes = core.store.table(T.id).writes;
    assert.equal(writes.find((e) => e.txn === flagged.key)?.nonMonotonic, true);
    assert.equal(writes.find((e) => e.txn === fresh.key)?.nonMonotonic, false);
    // Key-value keys and the catalog have no table: no monotonicity, no history.
    core.store.table(0).observe(at(50 * MS));
    assert.deepEqual(prepare(core, txnOf(at(1 * MS), { writes: [{ key: 'kv-key', value: new Uint8Array([1]) }, { key: CATALOG_KEY, value: CATALOG.value() }] })), committedVote);
    assert.equal(core.store.table(0).writes.length, 0);
  });

  void it('is raised by query executions (query-exec.ts records the version it reports)', () => {
    const core = newCore();
    const exec = executeAt(engine, 'SELECT * FROM t WHERE v > 20', [], at(40 * MS), core.store, CATALOG.catalog);
    assert.ok(exec.ok);
    assert.deepEqual(core.store.table(T.id).high, GENESIS);
    // GENESIS is 10 ms: a writer at 10 ms - 25 ms would be late; one at 10 ms - 24 ms is only flagged.
    assert.equal(prepare(core, txnOf(ts(GENESIS.micros - 25 * MS, 3), { writes: [row(7, 1)] })).reason, 'late-writer');
    assert.equal(prepare(core, txnOf(ts(GENESIS.micros - 24 * MS, 3), { writes: [row(8, 1)] })).decision, 'commit');
  });
});

void describe('SemanticCC end to end with a replica execution', () => {
  void it("a reader built from executeAt's read set and predicates commits alone and abstains after a phantom", () => {
    const core = newCore();
    const t = at(40 * MS);
    const exec = executeAt(engine, "SELECT id FROM t WHERE v > 25 AND tag LIKE 'a%'", [], t, core.store, CATALOG.catalog);
    assert.ok(exec.ok);
    assert.deepEqual(exec.rows, [[3], [4], [5]]);
    const reader = (client: number): Txn =>
      txnOf(ts(t.micros, client), {
        reads: [catalogRead, ...exec.reads],
        predicates: exec.predicates.map((p) => ({ table: p.tableId, tableVersion: p.tableVersion, expr: encodePredicate({ indexId: p.indexId, lo: p.lo, hi: p.hi, filter: p.predicate, keys: null }) })),
      });
    assert.deepEqual(prepare(core, reader(1)), committedVote);
    commit(core, txnOf(at(30 * MS), { writes: [row(6, 60, 'ab')] }));
    assert.equal(prepare(core, reader(2)).reason, 'phantom');
  });

  void it('a reader of v = ANY($1) or v > ALL($1) records the bound array: a writer matching it is a phantom, others are not', () => {
    for (const [sql, matching, other] of [
      ['SELECT id FROM t WHERE v = ANY($1)', 77, 78],
      ['SELECT id FROM t WHERE v > ALL($1)', 100, 40],
    ] as const) {
      for (const [v, reason] of [[matching, 'phantom'], [other, null]] as const) {
        const core = newCore();
        const t = at(40 * MS);
        const exec = executeAt(engine, sql, [new SqlArray('int4', [77, 50, null].filter((x) => sql.includes('=') || x !== null))], t, core.store, CATALOG.catalog);
        assert.ok(exec.ok, sql);
        const reader = txnOf(t, {
          reads: [catalogRead, ...exec.reads],
          predicates: exec.predicates.map((p) => ({ table: p.tableId, tableVersion: p.tableVersion, expr: encodePredicate({ indexId: p.indexId, lo: p.lo, hi: p.hi, filter: p.predicate, keys: null }) })),
        });
        commit(core, txnOf(at(30 * MS), { writes: [row(9, v)] }));
        assert.equal(prepare(core, reader).reason, reason, `${sql} with a writer of v = ${v}`);
      }
    }
  });
});

void describe('SemanticCC on Byzantine predicates (abstain with a reason, never throw)', () => {
  const cases: { name: string; p: Predicate; reason: string; setup?: (core: ReplicaCore) => void }[] = [
    { name: 'garbage bytes', p: { table: T.id, tableVersion: GENESIS, expr: new Uint8Array([0xff, 0x00, 0x7b]) }, reason: 'predicate-malformed' },
    { name: 'JSON of the wrong shape', p: { table: T.id, tableVersion: GENESIS, expr: new TextEncoder().encode('{"i":"x","lo":1}') }, reason: 'predicate-malformed' },
    { name: 'an unknown table', p: pred(null, GENESIS, {}, 77), reason: 'predicate-unknown-table' },
    { name: 'the catalog table', p: pred(null, GENESIS, {}, 0), reason: 'predicate-unknown-table' },
    { name: 'an unknown index', p: pred(null, GENESIS, { indexId: 999 }), reason: 'predicate-malformed' },
    { name: 'a column outside the table', p: pred(cmp('>', col(99), int(1)), GENESIS), reason: 'predicate-malformed' },
    { name: 'an unbound parameter', p: pred(cmp('>', { k: 'param', i: 0, t: 'int4' }, int(1)), GENESIS), reason: 'predicate-malformed' },
    { name: 'an unknown node kind', p: pred({ k: 'nope' } as unknown as Expr, GENESIS), reason: 'predicate-malformed' },
    {
      name: 'a filter that throws on a row it must check (division by zero)',
      p: pred(cmp('>', { k: 'arith', op: '/', l: int(1), r: col(1), t: 'int4' }, int(0)), GENESIS),
      setup: (core) => commit(core, txnOf(at(20 * MS), { writes: [row(7, 0)] })),
      reason: 'predicate-unevaluable',
    },
  ];
  for (const c of cases) {
    void it(c.name, () => {
      const core = newCore();
      c.setup?.(core);
      assert.deepEqual(prepare(core, txnOf(at(30 * MS), { reads: readsOf(), predicates: [c.p] })), { decision: 'abstain', reason: c.reason, blocker: null });
    });
  }

  void it('treats a row a stored predicate cannot evaluate as a conflict on the writer side', () => {
    const core = newCore();
    const reader = txnOf(at(30 * MS), { reads: readsOf(), predicates: [pred(cmp('>', { k: 'arith', op: '/', l: int(1), r: col(1), t: 'int4' }, int(0)), GENESIS)] });
    assert.equal(prepare(core, reader).decision, 'commit');
    assert.equal(prepare(core, txnOf(at(20 * MS), { writes: [row(7, 0)] })).reason, 'semantic-write-conflict');
    assert.equal(prepare(core, txnOf(at(21 * MS), { writes: [{ key: key(8), value: new Uint8Array([9, 9]) }] })).reason, 'semantic-write-conflict');
  });

  void it('lists every semantic reason for the metrics', () => {
    for (const r of ['late-writer', 'phantom', 'phantom-shadowed', 'semantic-write-conflict', 'predicate-malformed', 'predicate-unknown-table', 'predicate-unevaluable']) {
      assert.ok((ABSTAIN_REASONS as readonly string[]).includes(r), r);
    }
  });
});

void describe('table histories in the real path (PROTOCOL §5 step 9, §6)', () => {
  void it('notes prepared writes, marks them committed, and drops aborted ones', () => {
    const core = newCore();
    const hist = (): { txn: string; committed: boolean }[] => core.store.table(T.id).writes.map((e) => ({ txn: e.txn, committed: e.committed }));
    assert.deepEqual(hist(), [{ txn: genesis.key, committed: true }]);
    const a = txnOf(at(20 * MS), { writes: [row(7, 1), row(8, 1)] });
    const b = txnOf(at(21 * MS), { writes: [row(9, 1)] });
    prepare(core, a);
    prepare(core, b);
    assert.deepEqual(hist(), [
      { txn: genesis.key, committed: true },
      { txn: a.key, committed: false },
      { txn: b.key, committed: false },
    ]);
    commit(core, a);
    abort(core, b);
    assert.deepEqual(hist(), [
      { txn: genesis.key, committed: true },
      { txn: a.key, committed: true },
    ]);
    assert.deepEqual(core.store.table(T.id).committedVersionBelow(at(99 * MS)), a.body.ts);
    assert.equal(core.store.get(key(9))?.prepared.length, 0);
  });

  void it('records predicates at prepare, marks them committed at commit, and records them at a commit never prepared here', () => {
    const core = newCore();
    const p = txnOf(at(30 * MS), { reads: readsOf(1, 2, 3, 4, 5), predicates: [pred(vAbove(50), GENESIS), pred(null, GENESIS)] });
    assert.deepEqual(prepare(core, p), committedVote);
    const preds = (): { txn: string; committed: boolean; tableVersion: Timestamp }[] => core.store.table(T.id).predicates.map((x) => ({ txn: x.txn, committed: x.committed, tableVersion: x.tableVersion }));
    assert.deepEqual(preds(), [
      { txn: p.key, committed: false, tableVersion: GENESIS },
      { txn: p.key, committed: false, tableVersion: GENESIS },
    ]);
    commit(core, p);
    assert.ok(preds().every((x) => x.committed));
    const q = txnOf(at(31 * MS), { reads: readsOf(), predicates: [pred(vAbove(0), at(99 * MS))] });
    commit(core, q);
    assert.deepEqual(preds()[2], { txn: q.key, committed: true, tableVersion: GENESIS });
  });
});
