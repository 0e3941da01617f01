import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { encodeMessage, encodeTxn } from '../../protocol/codec.ts';
import { keyPairFromSeed } from '../../protocol/crypto/ed25519.ts';
import { signBatch } from '../../protocol/crypto/signed.ts';
import { digestKey, type ReplicaIndex, type ShardId, type TxnDigest } from '../../protocol/ids.ts';
import type { Certificate, FetchReply, Key, Message, Query, QueryReply, SnapshotEntry, Txn, TxnBody, WriteEntry, Writeback } from '../../protocol/messages.ts';
import { voteLeaf } from '../../protocol/statements.ts';
import { ts, type Timestamp } from '../../protocol/timestamp.ts';
import type { TableDef } from '../../sql/catalog.ts';
import { Engine } from '../../sql/engine.ts';
import { CATALOG_KEY, CatalogVersion } from '../../sql/replicated-catalog.ts';
import { primaryKeyOf } from '../../sql/memory-store.ts';
import type { Row, SqlValue } from '../../sql/types.ts';
import { decodeOutcome, encodeOutcome, encodeParams } from '../../sql/wire-values.ts';
import { decodePredicate, excusedKeys, withExcusedKeys } from '../../sql/predicate-codec.ts';
import { parseApplyFault, type ApplyFault } from './range-reads.ts';
import { ReplicaCore, type ReplicaEffect } from './replica-core.ts';
import { encodeRow } from '../../sql/row-codec.ts';
import { rowKey } from '../../sql/row-key.ts';

// f = 1: n = 6. The core trusts the shell to have verified certificates; we still sign for real.
const N = 6;
const S0 = 0 as ShardId;
const NOW = 10_000_000;
const keys = Array.from({ length: N }, (_, i) => keyPairFromSeed(new Uint8Array(32).fill(i + 1)));
const tsAt = (micros: number, client = 1): Timestamp => ts(NOW - 1_000_000 + micros, client);
const Q_TS = tsAt(500, 9);

const engine = await Engine.create();

// ---- the schema and data, in the single-node engine (the reference) and as replicated values ----

const DDL = [
  'CREATE TABLE acct (w int, id int, bal numeric(10,2), tag text, PRIMARY KEY (w, id))',
  'CREATE INDEX acct_tag ON acct (tag)',
  'CREATE TABLE log (msg text)',
];

function catalogAfter(ddl: readonly string[]): CatalogVersion {
  let v = CatalogVersion.empty;
  for (const sql of ddl) v = v.apply(engine.parse(sql).stmts[0]!).next!;
  return v;
}
const CATALOG = catalogAfter(DDL);
const acct = CATALOG.catalog.require('acct');
const logT = CATALOG.catalog.require('log');

const ref = await Engine.create();
const refSession = ref.session();
for (const sql of DDL) assert.ok(refSession.execute(sql).ok);
const tags = ["'a'", "'b'", "'ab'", 'NULL'];
for (let w = 1; w <= 3; w++) {
  const vals: string[] = [];
  for (let id = 1; id <= 10; id++) vals.push(`(${w}, ${id}, ${((w * id * 7) % 100) + 0.25}, ${tags[(w + id) % 4]})`);
  assert.ok(refSession.execute(`INSERT INTO acct VALUES ${vals.join(', ')}`).ok);
}

function refRows(table: TableDef): Row[] {
  return [...ref.store.scan({ table: ref.catalog.require(table.name), index: null, lo: '', hi: null, predicate: null, mode: 'read', reverse: false })].map((r) => r.row);
}
const keyOf = (table: TableDef, row: Row): Key => rowKey(table.id, primaryKeyOf(table, row));
const rowWrite = (table: TableDef, row: Row): WriteEntry => ({ key: keyOf(table, row), value: encodeRow(table, row) });
assert.ok(refSession.execute("INSERT INTO log VALUES ('apple'), ('banana'), ('avocado')").ok);
const LOG_ROWS: Row[] = refRows(logT);
const acctRow = (w: number, id: number): Row => refRows(acct).find((r) => r[0] === w && r[1] === id)!;

// ---- transactions and certificates ----

function txnOf(at: Timestamp, over: Partial<TxnBody> = {}): Txn {
  const writes = [...(over.writes ?? [])].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return encodeTxn({ ts: at, shards: [S0], reads: [], deps: [], predicates: [], meta: new Uint8Array(0), ...over, writes });
}

function commitCert(t: Txn): Certificate {
  return { kind: 'votes', votes: { decision: 'commit', shards: [{ shard: S0, sigs: keys.map((k, i) => signBatch([voteLeaf(t.digest, S0, 'commit')], k.secretKey, i)[0]!) }] } };
}
function abortCert(t: Txn): Certificate {
  return { kind: 'votes', votes: { decision: 'abstain', shards: [{ shard: S0, sigs: [0, 1, 2, 3].map((i) => signBatch([voteLeaf(t.digest, S0, 'abstain')], keys[i]!.secretKey, i)[0]!) }] } };
}
const committed = (t: Txn): Writeback => ({ kind: 'writeback', digest: t.digest, cert: commitCert(t), txn: t });

const DDL_TXN = txnOf(tsAt(10), { writes: [{ key: CATALOG_KEY, value: CATALOG.value() }] });
const LOAD_TXN = txnOf(tsAt(20), { writes: [...refRows(acct).map((r) => rowWrite(acct, r)), ...LOG_ROWS.map((r) => rowWrite(logT, r))] });

function newCore(index = 0, over: { engine?: Engine | null; applyFault?: ApplyFault; txnKeysMax?: number; syncReuseBytesMax?: number } = {}): ReplicaCore {
  const e = over.engine === undefined ? engine : over.engine;
  return new ReplicaCore(
    {
      shard: S0,
      index: index as ReplicaIndex,
      f: 1,
      owns: () => true,
      clockSkewMaxMicros: 1_000_000,
      gcWindowMicros: 5_000_000,
      ...(e === null ? {} : { engine: e }),
      ...(over.applyFault === undefined ? {} : { applyFault: over.applyFault }),
      ...(over.syncReuseBytesMax === undefined ? {} : { syncReuseBytesMax: over.syncReuseBytesMax }),
      ...(over.txnKeysMax === undefined ? {} : { limits: { txnKeysMax: over.txnKeysMax, messageBytesMax: 4 << 20 } }),
    },
    { nowMicros: () => NOW },
  );
}

/** Signs pending `sign` effects as the shell would; returns every effect. */
function drain(core: ReplicaCore): ReplicaEffect[] {
  const all: ReplicaEffect[] = [];
  for (let effects = core.takeEffects(); effects.length > 0; effects = core.takeEffects()) {
    all.push(...effects);
    for (const e of effects) if (e.kind === 'sign') core.onSigned(e.ref, signBatch([e.leaf], keys[core.opts.index]!.secretKey, core.opts.index)[0]!);
  }
  return all;
}

/**
 * A replica holding the schema and the rows. With a fault, it restored them from its log (the fault
 * applies to writebacks from then on).
 */
function loadedCore(index = 0, over: Parameters<typeof newCore>[1] = {}): ReplicaCore {
  const core = newCore(index, over);
  if (over.applyFault !== undefined) {
    core.restore([DDL_TXN, LOAD_TXN].map((t) => ({ kind: 'writeback', writeback: committed(t), txn: t })));
    return core;
  }
  core.handle(1, committed(DDL_TXN));
  core.handle(1, committed(LOAD_TXN));
  drain(core);
  return core;
}

const sent = (effects: ReplicaEffect[]): Message[] => effects.flatMap((e) => (e.kind === 'send' ? [e.msg] : []));
const replies = (effects: ReplicaEffect[]): QueryReply[] => sent(effects).filter((m): m is QueryReply => m.kind === 'queryReply');
const toReplicas = (effects: ReplicaEffect[]): Extract<ReplicaEffect, { kind: 'sendReplica' }>[] => effects.flatMap((e) => (e.kind === 'sendReplica' ? [e] : []));

function query(sql: string, params: SqlValue[] = [], over: Partial<Query> = {}): Query {
  return { kind: 'query', req: 7, ts: Q_TS, sql, params: encodeParams(params), ownWrites: [], recon: false, retry: 0, snapshot: [], ...over };
}

/** Sends `q` and returns the one reply it got at once. */
function ask(core: ReplicaCore, q: Query): QueryReply {
  core.handle(50, q);
  const r = replies(drain(core));
  assert.equal(r.length, 1, `one reply to ${q.sql}`);
  return r[0]!;
}

/** The single-node engine's outcome bytes for the same statement (the replica's must be identical). */
function refOutcome(sql: string, params: SqlValue[] = []): Uint8Array {
  const r = refSession.execute(sql, params);
  return encodeOutcome(r.ok ? { ok: true, columns: r.columns, rows: r.rows } : { ok: false, code: r.error.code, message: r.error.message, detail: r.error.detail });
}

function rowsOf(reply: QueryReply): Row[] {
  const o = decodeOutcome(reply.result);
  if (!o.ok) assert.fail(`error outcome ${o.code}: ${o.message}`);
  return o.rows.map((r) => [...r]);
}

function errorOf(reply: QueryReply): string {
  const o = decodeOutcome(reply.result);
  assert.equal(o.ok, false, 'an error outcome');
  return o.ok ? '' : o.code;
}

const balOf = (reply: QueryReply): string[] => rowsOf(reply).map((r) => String(r[0]));

void describe('ReplicaCore range reads, eager round (PROTOCOL §4.2 step 2)', () => {
  const core = loadedCore();
  const queries: { sql: string; params?: SqlValue[] }[] = [
    { sql: 'SELECT * FROM acct WHERE w = 1 AND id = 2' },
    { sql: 'SELECT id, bal FROM acct WHERE w = $1 AND id BETWEEN $2 AND $3', params: [2, 3, 7] },
    { sql: "SELECT w, id FROM acct WHERE tag LIKE 'a%' ORDER BY bal DESC, w, id" },
    { sql: 'SELECT w, count(*), sum(bal) FROM acct GROUP BY w ORDER BY w' },
    { sql: 'SELECT a.id, b.id FROM acct a JOIN acct b ON a.id = b.id AND b.w = 3 WHERE a.w = 1 AND a.id < 4 ORDER BY a.id' },
    { sql: "SELECT id FROM acct WHERE tag = 'b'" },
    { sql: 'SELECT msg FROM log ORDER BY msg' },
  ];
  for (const q of queries) {
    void it(`${q.sql}: the result equals the single-node engine's, the read set holds the catalog version`, () => {
      const reply = ask(core, query(q.sql, q.params ?? []));
      assert.deepEqual(reply.result, refOutcome(q.sql, q.params ?? []));
      assert.equal(reply.retry, 0);
      assert.deepEqual(reply.reads.find((r) => r.key === CATALOG_KEY)?.version, DDL_TXN.body.ts);
      const keysRead = reply.reads.map((r) => r.key);
      assert.deepEqual(keysRead, [...new Set(keysRead)].sort(), 'reads sorted by key and distinct');
      for (const p of reply.predicates) {
        const decoded = decodePredicate(p.expr);
        assert.notEqual(decoded, null, 'predicate bytes decode');
        assert.ok(p.table === acct.id || p.table === logT.id);
      }
      assert.deepEqual(reply.deps, []);
      const snap = reply.snapshotCommitted.map((d) => digestKey(d));
      assert.ok(snap.includes(DDL_TXN.key) && snap.includes(LOAD_TXN.key), 'the snapshot vote names the catalog and data transactions');
      assert.deepEqual(snap, [...new Set(snap)].sort());
    });
  }

  void it('a range scan reports its predicate with the table version it read', () => {
    const reply = ask(core, query("SELECT id FROM acct WHERE w = 2 AND tag = 'a'"));
    assert.equal(reply.predicates.length, 1);
    const p = reply.predicates[0]!;
    assert.equal(p.table, acct.id);
    assert.deepEqual(p.tableVersion, LOAD_TXN.body.ts);
    const d = decodePredicate(p.expr)!;
    assert.equal(d.indexId, null);
    assert.notEqual(d.filter, null);
  });

  void it('identical state gives identical reply bytes; a prepared version read is a dependency and a prepared snapshot vote', () => {
    const a = loadedCore(0);
    const b = loadedCore(3);
    const p = txnOf(tsAt(100, 4), { writes: [rowWrite(acct, [1, 3, null, 'p'])] });
    for (const c of [a, b]) {
      c.handle(2, { kind: 'prepare', req: 1, txn: p });
      drain(c);
    }
    const q = query('SELECT w, id, tag FROM acct WHERE w = 1 AND id <= 4');
    const ra = ask(a, q);
    const rb = ask(b, q);
    assert.deepEqual(encodeMessage(ra), encodeMessage(rb));
    assert.deepEqual(ra.deps, [{ digest: p.digest, shard: S0, ts: p.body.ts }]);
    assert.deepEqual(ra.snapshotPrepared, [p.digest]);
    assert.deepEqual(rowsOf(ra)[2], [1, 3, 'p']);
  });

  void it('own writes are seen and never recorded', () => {
    const changed: Row = [1, 1, null, 'own'];
    const added: Row = [1, 99, null, 'new'];
    const deleted = acctRow(1, 2);
    const ownWrites: WriteEntry[] = [rowWrite(acct, changed), rowWrite(acct, added), { key: keyOf(acct, deleted), value: null }].sort((x, y) => (x.key < y.key ? -1 : 1));
    const sql = 'SELECT id, tag FROM acct WHERE w = 1 ORDER BY id';
    const reply = ask(core, query(sql, [], { ownWrites }));
    assert.ok(refSession.execute('BEGIN').ok);
    assert.ok(refSession.execute("UPDATE acct SET bal = NULL, tag = 'own' WHERE w = 1 AND id = 1").ok);
    assert.ok(refSession.execute("INSERT INTO acct VALUES (1, 99, NULL, 'new')").ok);
    assert.ok(refSession.execute('DELETE FROM acct WHERE w = 1 AND id = 2').ok);
    const expected = refOutcome(sql);
    assert.ok(refSession.execute('ROLLBACK').ok);
    assert.deepEqual(reply.result, expected);
    for (const w of ownWrites) assert.equal(reply.reads.find((r) => r.key === w.key), undefined, 'own writes stay out of the read set');
    assert.ok(reply.reads.some((r) => r.key === keyOf(acct, acctRow(1, 3))), 'other rows are read');
    // The scan saw the transaction's own version of those rows: its predicate names them with the rows
    // it read, so SemanticCC does not take their earlier writes for phantoms (the statements that wrote
    // them read them: MVTSO protects them).
    // The replica sends the predicate without those rows; the client names them from the matched
    // reply and its own writes (decision 0019).
    assert.equal(decodePredicate(reply.predicates[0]!.expr)!.keys, null, 'replies carry no excused keys');
    const excused = excusedKeys(new Set([acct.id]), reply.reads, ownWrites).get(acct.id)!;
    const named = withExcusedKeys(reply.predicates[0]!.expr, excused);
    const scanKeys = decodePredicate(named)!.keys!;
    for (const w of ownWrites) assert.ok(scanKeys.has(w.key.slice(4)), 'own writes are named by the predicate');
    assert.ok(scanKeys.has(keyOf(acct, acctRow(1, 3)).slice(4)));
    assert.equal(scanKeys.size, reply.reads.filter((r) => r.key.startsWith(keyOf(acct, acctRow(1, 3)).slice(0, 4))).length + ownWrites.length, 'the rows read plus the own writes (never read)');
    const listed = JSON.parse(new TextDecoder().decode(named)) as { kx: string[] };
    assert.deepEqual(listed.kx, [...new Set(listed.kx)].sort(), 'sorted and distinct (hex keys, decision 0015)');
    const point = ask(core, query('SELECT * FROM acct WHERE w = 1 AND id = 2', [], { ownWrites }));
    assert.deepEqual(rowsOf(point), []);
    assert.equal(point.reads.find((r) => r.key === keyOf(acct, deleted)), undefined, 'an own deletion is not read either');
  });

  void it("the transaction's own DDL wins over the stored catalog and is not read", () => {
    const mine = catalogAfter([...DDL, 'CREATE TABLE extra (k int PRIMARY KEY, v text)']);
    const extra = mine.catalog.require('extra');
    const ownWrites = [{ key: CATALOG_KEY, value: mine.value() }, rowWrite(extra, [5, 'five'])];
    const reply = ask(core, query('SELECT k, v FROM extra', [], { ownWrites }));
    assert.deepEqual(rowsOf(reply), [[5, 'five']]);
    assert.equal(reply.reads.find((r) => r.key === CATALOG_KEY), undefined);
    assert.equal(errorOf(ask(core, query('SELECT k, v FROM extra'))), '42P01', 'without it the table does not exist');
  });

  void it('recon: UPDATE and DELETE return the old full rows (hidden columns included), INSERT ... SELECT its source rows', () => {
    const upd = ask(core, query('UPDATE acct SET bal = 0 WHERE w = 2 AND id <= $1', [3], { recon: true }));
    assert.deepEqual(upd.result, refOutcome('SELECT * FROM acct WHERE w = 2 AND id <= 3'));
    assert.ok(upd.reads.some((r) => r.key === keyOf(acct, acctRow(2, 3))));
    const del = ask(core, query("DELETE FROM log WHERE msg LIKE 'a%'", [], { recon: true }));
    const o = decodeOutcome(del.result);
    assert.ok(o.ok);
    assert.deepEqual(
      o.columns.map((c) => c.name),
      logT.columns.map((c) => c.name),
    );
    assert.equal(o.columns.length, 2, 'the hidden row id column is included');
    assert.deepEqual(rowsOf(del), [LOG_ROWS[0], LOG_ROWS[2]]);
    assert.deepEqual(
      LOG_ROWS.map((r) => r[0]),
      ['apple', 'banana', 'avocado'],
    );
    const ins = ask(core, query('INSERT INTO acct SELECT w, id + 100, bal, tag FROM acct WHERE w = 3', [], { recon: true }));
    assert.deepEqual(ins.result, refOutcome('SELECT w, id + 100 AS id, bal, tag FROM acct WHERE w = 3'));
  });

  void it('SQL errors, malformed input and a missing engine become error outcomes', () => {
    const before = core.stats.queryErrors;
    assert.equal(errorOf(ask(core, query('SELECT * FROM nope'))), '42P01');
    assert.equal(errorOf(ask(core, query('SELEKT 1'))), '42601');
    assert.equal(errorOf(ask(core, query('SELECT bal / 0 FROM acct WHERE w = 1'))), '22012');
    assert.equal(errorOf(ask(core, query('SELECT 1; SELECT 2'))), '42601');
    assert.equal(errorOf(ask(core, query('DELETE FROM acct'))), '0A000', 'DML runs only as recon');
    assert.equal(errorOf(ask(core, query('CREATE TABLE t (a int)'))), '0A000');
    assert.equal(errorOf(ask(core, query('SELECT $1::int', [], { params: new Uint8Array([0, 1, 7]) }))), '08P01');
    assert.equal(errorOf(ask(core, query('SELECT * FROM acct', [], { ownWrites: [{ key: keyOf(acct, acctRow(1, 1)), value: new Uint8Array([9, 9]) }] }))), '22P03');
    assert.equal(core.stats.queryErrors, before + 8);
    const bad = ask(core, query('SELECT * FROM nope'));
    assert.deepEqual([bad.reads, bad.predicates, bad.deps, bad.snapshotCommitted], [[], [], [], []]);

    assert.equal(errorOf(ask(loadedCore(0, { engine: null }), query('SELECT 1'))), '0A000');

    const broken = newCore();
    const garbage = txnOf(tsAt(10), { writes: [{ key: CATALOG_KEY, value: new TextEncoder().encode('["not a parse tree"]') }] });
    broken.handle(1, committed(garbage));
    drain(broken);
    assert.equal(errorOf(ask(broken, query('SELECT 1'))), 'XX001');
  });

  void it("a query whose read set would not fit a transaction fails with 54000 at every replica alike", () => {
    const small = loadedCore(0, { txnKeysMax: 3 });
    const all = ask(small, query('SELECT count(*) FROM acct'));
    assert.equal(errorOf(all), '54000');
    assert.deepEqual(all.reads, []);
    assert.ok(rowsOf(ask(small, query('SELECT bal FROM acct WHERE w = 1 AND id = 1'))).length === 1, 'a narrow query still runs');
  });

  void it('queries below the low watermark or too far ahead of the clock are refused without a reply', () => {
    const before = core.stats.queriesRefused;
    core.handle(50, query('SELECT 1', [], { ts: ts(10, 1) }));
    core.handle(50, query('SELECT 1', [], { ts: ts(NOW + 5_000_000, 1) }));
    assert.deepEqual(drain(core), []);
    assert.equal(core.stats.queriesRefused, before + 2);
  });
});

// ---- sync rounds ----

const bal11 = 'SELECT bal FROM acct WHERE w = 1 AND id = 1';
const bal12 = 'SELECT bal FROM acct WHERE w = 1 AND id = 2';
const UPDATE_11 = txnOf(tsAt(100, 2), { writes: [rowWrite(acct, [1, 1, null, 'upd'])], reads: [{ key: CATALOG_KEY, version: DDL_TXN.body.ts }] });
const sync = (sql: string, snapshot: { digest: TxnDigest; holders: number[] }[], retry = 1): Query => query(sql, [], { retry, snapshot });

function fetchOf(effects: ReplicaEffect[], holder: number): Extract<Message, { kind: 'fetch' }> {
  const e = toReplicas(effects).find((x) => x.index === holder);
  assert.ok(e !== undefined && e.msg.kind === 'fetch', `a fetch to replica ${holder}`);
  return e.msg as Extract<Message, { kind: 'fetch' }>;
}

/** Replica `supplier` answers a fetch that replica `asker` sent. */
function supply(supplier: ReplicaCore, fetch: Message, asker: number): FetchReply {
  supplier.handle(60, fetch, asker);
  const out = sent(drain(supplier));
  assert.equal(out.length, 1);
  assert.equal(out[0]!.kind, 'fetchReply');
  return out[0] as FetchReply;
}

void describe('ReplicaCore range reads, sync round (PROTOCOL §4.2 steps 4-6)', () => {
  void it('a committed transaction missing here is fetched from its holders (never itself), then the reply reflects it', () => {
    const a = loadedCore(0);
    const b = loadedCore(2);
    b.handle(1, committed(UPDATE_11));
    drain(b);
    a.handle(50, sync(bal11, [{ digest: UPDATE_11.digest, holders: [0, 2, 4] }]));
    const effects = drain(a);
    assert.deepEqual(replies(effects), [], 'the query waits for the fetch');
    assert.deepEqual(
      toReplicas(effects).map((e) => e.index),
      [2, 4],
      'fetches go to the other holders only',
    );
    assert.equal(a.stats.fetchesSent, 2);
    const f2 = fetchOf(effects, 2);
    assert.deepEqual(f2.digests, [UPDATE_11.digest]);
    const fromB = supply(b, f2, 0);
    assert.equal(fromB.decided.length, 1);
    assert.equal(fromB.decided[0]!.txn, UPDATE_11);

    // Forged supplies: from a replica that was not asked, or with a transaction that was not asked for.
    a.handle(61, fromB, 3);
    a.handle(61, { ...fromB, decided: [committed(txnOf(tsAt(120, 2), { writes: [rowWrite(acct, [1, 1, null, 'forged'])] }))] }, 2);
    assert.deepEqual(drain(a), []);
    assert.equal(a.stats.badSupplies, 2);
    assert.equal(a.txnState(UPDATE_11.key), 'unknown');

    a.handle(61, fromB, 2);
    const r = replies(drain(a));
    assert.equal(r.length, 1);
    assert.equal(r[0]!.retry, 1);
    assert.deepEqual(rowsOf(r[0]!), [[null]]);
    assert.equal(a.stats.fetchSupplies, 1);
    assert.equal(a.txnState(UPDATE_11.key), 'committed');
    assert.equal(a.stats.queriesSnapshot, 1);
    // A second, late supply for the same fetch is no longer expected.
    a.handle(61, fromB, 2);
    assert.deepEqual(drain(a), []);
    assert.equal(a.stats.badSupplies, 3);
  });

  void it('a prepared transaction supplied as its ST1 is validated here; one voted against is force-materialized', () => {
    const a = loadedCore(0);
    const b = loadedCore(2);
    const prepared = txnOf(tsAt(100, 3), { writes: [rowWrite(acct, [1, 1, null, 'prep'])] });
    const unknownDep = { digest: txnOf(tsAt(90, 7)).digest, shard: S0, ts: tsAt(90, 7) };
    const against = txnOf(tsAt(110, 3), { writes: [rowWrite(acct, [1, 2, null, 'forced'])], deps: [unknownDep] });
    for (const t of [prepared, against]) b.handle(2, { kind: 'prepare', req: 1, txn: t });
    drain(b);

    a.handle(50, sync('SELECT id, tag FROM acct WHERE w = 1 AND id <= 2', [{ digest: prepared.digest, holders: [2] }, { digest: against.digest, holders: [2] }]));
    const fetch = fetchOf(drain(a), 2);
    const fromB = supply(b, fetch, 0);
    assert.equal(fromB.prepared.length, 2);
    a.handle(61, fromB, 2);
    const effects = drain(a);
    const r = replies(effects);
    assert.equal(r.length, 1);
    assert.deepEqual(rowsOf(r[0]!), [
      [1, 'prep'],
      [2, 'forced'],
    ]);
    assert.equal(sent(effects).filter((m) => m.kind === 'prepareReply').length, 0, 'nobody waits for these votes');
    assert.equal(effects.filter((e) => e.kind === 'persist' && e.record.kind === 'vote').length, 2, 'both votes are logged');
    assert.equal(a.txnState(prepared.key), 'voted');
    assert.equal(a.range.forcedCount, 1);
    assert.deepEqual(r[0]!.deps.map((d) => digestKey(d.digest)).sort(), [prepared.key, against.key].sort());

    // Force-materialized versions are invisible to eager reads, point reads and snapshots that do not name them.
    const eager = ask(a, query('SELECT id, tag FROM acct WHERE w = 1 AND id <= 2'));
    assert.deepEqual(rowsOf(eager), [
      [1, 'prep'],
      [2, acctRow(1, 2)[3]],
    ]);
    assert.ok(!eager.snapshotPrepared.some((d) => digestKey(d) === against.key));
    a.handle(50, { kind: 'read', req: 3, key: keyOf(acct, acctRow(1, 2)), ts: Q_TS, proof: false });
    const read = sent(drain(a))[0]!;
    assert.ok(read.kind === 'readReply' && read.prepared === null);
    const other = ask(a, sync(bal12, [{ digest: prepared.digest, holders: [2] }]));
    assert.deepEqual(balOf(other), [String(acctRow(1, 2)[2])]);

    // Its abort removes the forced versions.
    a.handle(1, { kind: 'writeback', digest: against.digest, cert: abortCert(against), txn: against });
    drain(a);
    assert.equal(a.range.forcedCount, 0);
    assert.deepEqual(balOf(ask(a, sync(bal12, [{ digest: against.digest, holders: [2] }]))), [String(acctRow(1, 2)[2])]);
  });

  void it('a named transaction this replica voted against is force-materialized without a fetch', () => {
    const a = loadedCore(0);
    const unknownDep = { digest: txnOf(tsAt(90, 7)).digest, shard: S0, ts: tsAt(90, 7) };
    const against = txnOf(tsAt(110, 3), { writes: [rowWrite(acct, [1, 2, null, 'forced'])], deps: [unknownDep] });
    a.handle(2, { kind: 'prepare', req: 1, txn: against });
    const votes = sent(drain(a));
    assert.ok(votes[0]?.kind === 'prepareReply' && votes[0].decision === 'abstain');
    a.handle(50, sync('SELECT tag FROM acct WHERE w = 1 AND id = 2', [{ digest: against.digest, holders: [0, 1] }]));
    const effects = drain(a);
    assert.deepEqual(toReplicas(effects), []);
    assert.deepEqual(rowsOf(replies(effects)[0]!), [['forced']]);
  });

  void it("a snapshot execution that skips an unnamed prepared version lowers its predicates' table version below it", () => {
    const a = loadedCore(0);
    const p = txnOf(tsAt(300, 4), { writes: [rowWrite(acct, [2, 50, null, 'a'])] });
    a.handle(2, { kind: 'prepare', req: 1, txn: p });
    drain(a);
    const sql = "SELECT id FROM acct WHERE w = 2 AND tag = 'a'";
    const eager = ask(a, query(sql));
    assert.deepEqual(eager.predicates[0]!.tableVersion, p.body.ts, 'the eager round read the prepared row');
    const skipping = ask(a, sync(sql, [{ digest: LOAD_TXN.digest, holders: [1, 2] }]));
    assert.ok(!rowsOf(skipping).some((r) => r[0] === 50));
    assert.deepEqual(skipping.predicates[0]!.tableVersion, ts(p.body.ts.micros, 3));
    const naming = ask(a, sync(sql, [{ digest: p.digest, holders: [1, 2] }]));
    assert.ok(rowsOf(naming).some((r) => r[0] === 50));
    assert.deepEqual(naming.predicates[0]!.tableVersion, p.body.ts);
  });

  void it('after the fetch timeout the query runs on what arrived', () => {
    const a = loadedCore(0);
    a.handle(50, sync(bal11, [{ digest: UPDATE_11.digest, holders: [1] }]));
    const effects = drain(a);
    assert.equal(toReplicas(effects).length, 1);
    const timer = effects.find((e) => e.kind === 'timer');
    assert.ok(timer !== undefined && timer.kind === 'timer');
    assert.equal(a.range.parkedCount, 1);
    a.onTimer(timer.id);
    const r = replies(drain(a));
    assert.equal(r.length, 1);
    assert.deepEqual(balOf(r[0]!), [String(acctRow(1, 1)[2])]);
    assert.equal(a.range.parkedCount, 0);
    a.onTimer(timer.id);
    assert.deepEqual(drain(a), [], 'a timer fires once');
  });

  void it('a writeback arriving the normal way also wakes a waiting query', () => {
    const a = loadedCore(0);
    a.handle(50, sync(bal11, [{ digest: UPDATE_11.digest, holders: [1, 2] }]));
    assert.equal(replies(drain(a)).length, 0);
    a.handle(1, committed(UPDATE_11));
    const r = replies(drain(a));
    assert.equal(r.length, 1);
    assert.deepEqual(rowsOf(r[0]!), [[null]]);
  });

  void it('refuses a snapshot naming a holder outside the shard, and fetches from links that are not other replicas', () => {
    const a = loadedCore(0);
    a.handle(50, sync(bal11, [{ digest: UPDATE_11.digest, holders: [1, 6] }]));
    assert.deepEqual(drain(a), []);
    assert.equal(a.stats.rejected['query-bad-holder'], 1);
    const fetch: Message = { kind: 'fetch', req: 1, digests: [DDL_TXN.digest] };
    a.handle(50, fetch);
    a.handle(50, fetch, 0);
    a.handle(50, { kind: 'fetchReply', req: 1, decided: [], prepared: [] });
    assert.deepEqual(drain(a), []);
    assert.equal(a.stats.rejected['fetch-not-from-replica'], 3);
    a.handle(51, fetch, 4);
    const out = sent(drain(a));
    assert.equal(out.length, 1);
    assert.ok(out[0]!.kind === 'fetchReply' && out[0].decided.length === 1 && out[0].decided[0]!.txn === DDL_TXN);
  });
});

void describe('ReplicaCore apply fault (issue 4)', () => {
  void it('omit: committed writes stay hidden from range reads until a fetch supplies them; votes and point reads are unaffected', () => {
    const a = loadedCore(0, { applyFault: { kind: 'omit' } });
    const b = loadedCore(2);
    for (const c of [a, b]) {
      c.handle(1, committed(UPDATE_11));
      drain(c);
    }
    assert.equal(a.txnState(UPDATE_11.key), 'committed');
    const stale = ask(a, query(bal11));
    assert.notDeepEqual(stale.result, ask(b, query(bal11)).result, 'eager results disagree');
    assert.ok(!stale.snapshotCommitted.some((d) => digestKey(d) === UPDATE_11.key));
    a.handle(50, { kind: 'read', req: 3, key: keyOf(acct, acctRow(1, 1)), ts: Q_TS, proof: false });
    const read = sent(drain(a))[0]!;
    assert.ok(read.kind === 'readReply' && read.committed !== null);
    assert.deepEqual(read.committed.version, UPDATE_11.body.ts, 'point reads see the write');

    // Validation still sees the write: a later writer that read the old version is refused.
    const stalereader = txnOf(tsAt(200, 5), { reads: [{ key: keyOf(acct, acctRow(1, 1)), version: LOAD_TXN.body.ts }], writes: [rowWrite(acct, [1, 5, null, 'x'])] });
    a.handle(2, { kind: 'prepare', req: 1, txn: stalereader });
    const vote = sent(drain(a))[0]!;
    assert.ok(vote.kind === 'prepareReply' && vote.decision !== 'commit');

    a.handle(50, sync(bal11, [{ digest: UPDATE_11.digest, holders: [0, 2] }]));
    const fetch = fetchOf(drain(a), 2);
    a.handle(61, supply(b, fetch, 0), 2);
    const r = replies(drain(a));
    assert.deepEqual(rowsOf(r[0]!), [[null]]);
    assert.deepEqual(ask(a, query(bal11)).result, ask(b, query(bal11)).result, 'once supplied, eager reads see it too');
  });

  void it('omit: a withheld catalog makes eager reads fail; the sync round fetches it with the rows', () => {
    const a = newCore(0, { applyFault: { kind: 'omit' } });
    const b = loadedCore(2);
    a.handle(1, committed(DDL_TXN));
    a.handle(1, committed(LOAD_TXN));
    drain(a);
    assert.equal(errorOf(ask(a, query(bal11))), '42P01');
    const healthy = ask(b, query(bal11));
    const snapshot = [...healthy.snapshotCommitted].map((digest) => ({ digest, holders: [2, 3] }));
    assert.equal(snapshot.length, 2, 'the catalog and the row');
    a.handle(50, sync(bal11, snapshot));
    const effects = drain(a);
    a.handle(61, supply(b, fetchOf(effects, 2), 0), 2);
    const r = replies(drain(a));
    assert.equal(r.length, 1);
    assert.deepEqual(r[0]!.result, healthy.result);
    assert.deepEqual(r[0]!.reads, healthy.reads);
  });

  void it('delay: committed writes become visible to range reads after the delay', () => {
    const a = loadedCore(0, { applyFault: { kind: 'delay', ms: 50 } });
    a.handle(1, committed(UPDATE_11));
    const effects = drain(a);
    const timer = effects.find((e) => e.kind === 'timer');
    assert.ok(timer !== undefined && timer.kind === 'timer' && timer.afterMs === 50);
    assert.deepEqual(balOf(ask(a, query(bal11))), [String(acctRow(1, 1)[2])]);
    a.onTimer(timer.id);
    assert.deepEqual(rowsOf(ask(a, query(bal11))), [[null]]);
    assert.equal(a.range.hiddenCount, 0);
  });

  void it('parses PESTO_FAULT_APPLY', () => {
    assert.equal(parseApplyFault(undefined, 0, 1), undefined);
    assert.deepEqual(parseApplyFault('omit', 0, 1), { kind: 'omit' });
    assert.deepEqual(parseApplyFault('delay:250', 0, 1), { kind: 'delay', ms: 250 });
    assert.deepEqual(parseApplyFault('omit@s0r4,s0r5', 0, 5), { kind: 'omit' });
    assert.equal(parseApplyFault('omit@s0r4,s0r5', 0, 1), undefined);
    assert.equal(parseApplyFault('delay:9@s1r4', 0, 4), undefined);
    assert.throws(() => parseApplyFault('sometimes', 0, 1));
    assert.throws(() => parseApplyFault('delay:x', 0, 1));
  });
});

void describe('ReplicaCore cheap sync rounds: a sync round answered from the eager execution (decision 0025)', () => {
  const SQL = 'SELECT id, bal, tag FROM acct WHERE w = $1 AND id BETWEEN $2 AND $3';
  const PARAMS: SqlValue[] = [1, 2, 6];
  const proposalOf = (r: QueryReply): SnapshotEntry[] => [...r.snapshotCommitted, ...r.snapshotPrepared].map((digest) => ({ digest, holders: [1, 2] }));

  /**
   * Replica `a` runs the eager round, and its twin `b` the same under another request id (the same state
   * and table high-water marks, but nothing to reuse); then `between` happens at both, then both get the
   * same sync round (proposal: `a`'s eager vote unless given). The twin's reply is what a snapshot
   * execution gives: `a`'s must be identical, reused or not.
   */
  function rounds(between: (c: ReplicaCore) => void, opts: { sql?: string; params?: SqlValue[]; syncSql?: string; proposal?: SnapshotEntry[]; before?: (c: ReplicaCore) => void } = {}): { a: ReplicaCore; eager: QueryReply; reply: QueryReply } {
    const sql = opts.sql ?? SQL;
    const params = opts.params ?? PARAMS;
    const a = loadedCore(0);
    const b = loadedCore(0);
    for (const c of [a, b]) {
      opts.before?.(c);
      drain(c);
    }
    const eager = ask(a, query(sql, params));
    assert.deepEqual(ask(b, query(sql, params, { req: 8 })).result, eager.result);
    for (const c of [a, b]) {
      between(c);
      drain(c);
    }
    const q = query(opts.syncSql ?? sql, params, { retry: 1, snapshot: opts.proposal ?? proposalOf(eager) });
    const reply = ask(a, q);
    assert.deepEqual(encodeMessage(reply), encodeMessage(ask(b, q)), "the reply equals the twin's snapshot execution");
    assert.equal(b.stats.queriesSnapshotReused, 0);
    return { a, eager, reply };
  }
  const commitRow = (row: Row, at: Timestamp) => (c: ReplicaCore): void => {
    c.handle(1, committed(txnOf(at, { writes: [rowWrite(acct, row)] })));
  };

  void it('keeps eager executions within a byte budget, the oldest going first, and none heavier than a quarter of it', () => {
    const one = loadedCore(0);
    ask(one, query(SQL, PARAMS, { req: 1 }));
    const weight = one.range.reuseKept.bytes;
    assert.ok(weight > 0, 'an eager execution is kept');
    // Room for four records of this weight: the fifth and later push the oldest out.
    const c = loadedCore(0, { syncReuseBytesMax: 4 * weight + 1 });
    for (let req = 1; req <= 20; req++) ask(c, query(SQL, PARAMS, { req }));
    assert.deepEqual(c.range.reuseKept, { records: 4, bytes: 4 * weight });
    // The newest are the ones kept: a sync round of request 20 is answered from its record, one of request 1 is executed.
    const proposal = proposalOf(ask(c, query(SQL, PARAMS, { req: 21 })));
    ask(c, query(SQL, PARAMS, { req: 20, retry: 1, snapshot: proposal }));
    assert.equal(c.stats.queriesSnapshotReused, 1);
    ask(c, query(SQL, PARAMS, { req: 1, retry: 1, snapshot: proposal }));
    assert.equal(c.stats.queriesSnapshotReused, 1);
    // A budget below four times one record keeps none.
    const small = loadedCore(0, { syncReuseBytesMax: 4 * weight - 1 });
    ask(small, query(SQL, PARAMS, { req: 1 }));
    assert.deepEqual(small.range.reuseKept, { records: 0, bytes: 0 });
  });

  void it('reuses the eager execution when nothing the query sees changed', () => {
    const { a, eager, reply } = rounds(() => {});
    assert.equal(a.stats.queriesSnapshotReused, 1);
    assert.equal(a.stats.queriesSnapshot, 1);
    assert.equal(reply.retry, 1);
    assert.deepEqual(reply.result, eager.result);
    assert.deepEqual(reply.reads, eager.reads);
  });

  void it('reuses it past commits outside the range or above T, with table versions and votes as of now', () => {
    const outside = rounds(commitRow([2, 4, null, 'elsewhere'], tsAt(300, 4)));
    assert.equal(outside.a.stats.queriesSnapshotReused, 1);
    assert.deepEqual(outside.reply.predicates[0]!.tableVersion, tsAt(300, 4), 'the table version counts the commit below T');
    assert.notDeepEqual(outside.reply.predicates[0]!.tableVersion, outside.eager.predicates[0]!.tableVersion);
    const above = rounds(commitRow([1, 3, null, 'later'], tsAt(600, 4)));
    assert.equal(above.a.stats.queriesSnapshotReused, 1);
    assert.deepEqual(above.reply.result, above.eager.result);
  });

  void it('executes again after a commit below T into the read range', () => {
    const { a, reply } = rounds(commitRow([1, 3, null, 'newer'], tsAt(300, 4)));
    assert.equal(a.stats.queriesSnapshotReused, 0);
    assert.ok(rowsOf(reply).some((r) => r[2] === 'newer'));
  });

  void it('executes again after a row is added to the range, or at its end', () => {
    const inside = rounds(commitRow([1, 5, null, 'x'], tsAt(300, 4)), { before: (c) => c.handle(1, committed(txnOf(tsAt(30), { writes: [{ key: keyOf(acct, acctRow(1, 5)), value: null }] }))) });
    assert.equal(inside.a.stats.queriesSnapshotReused, 0);
    assert.ok(rowsOf(inside.reply).some((r) => r[0] === 5));
    const atEnd = rounds(commitRow([1, 11, null, 'end'], tsAt(300, 4)), { sql: 'SELECT id FROM acct WHERE w = $1 AND id >= $2', params: [1, 9] });
    assert.equal(atEnd.a.stats.queriesSnapshotReused, 0);
    assert.deepEqual(rowsOf(atEnd.reply), [[9], [10], [11]]);
  });

  void it('never keeps an eager execution that read a prepared version (here aborted before the sync round)', () => {
    const p = txnOf(tsAt(300, 4), { writes: [rowWrite(acct, [1, 3, null, 'prepared'])] });
    const { a, eager, reply } = rounds(
      (c) => c.handle(1, { kind: 'writeback', digest: p.digest, cert: abortCert(p), txn: p }),
      { before: (c) => c.handle(2, { kind: 'prepare', req: 1, txn: p }) },
    );
    assert.deepEqual(eager.deps.map((d) => d.digest), [p.digest]);
    assert.equal(a.stats.queriesSnapshotReused, 0);
    assert.ok(!rowsOf(reply).some((r) => r[2] === 'prepared'));
  });

  void it('executes again when a prepared version appeared in the range that the proposal skips or names', () => {
    const p = txnOf(tsAt(300, 4), { writes: [rowWrite(acct, [1, 4, null, 'prepared'])] });
    const skipped = rounds((c) => c.handle(2, { kind: 'prepare', req: 1, txn: p }));
    assert.equal(skipped.a.stats.queriesSnapshotReused, 0);
    assert.ok(tsLessThan(skipped.reply.predicates[0]!.tableVersion, p.body.ts), 'the skipped version lowers the table version');
    const eagerProposal = (c: ReplicaCore): SnapshotEntry[] => proposalOf(ask(c, query(SQL, PARAMS, { req: 99 })));
    const named = rounds((c) => c.handle(2, { kind: 'prepare', req: 1, txn: p }), { proposal: [...eagerProposal(loadedCore(0)), { digest: p.digest, holders: [1, 2] }] });
    assert.equal(named.a.stats.queriesSnapshotReused, 0);
    assert.ok(rowsOf(named.reply).some((r) => r[2] === 'prepared'));
  });

  void it('executes again when the proposal names a transaction this replica voted against (force-materialized)', () => {
    const unknownDep = { digest: txnOf(tsAt(90, 7)).digest, shard: S0, ts: tsAt(90, 7) };
    const against = txnOf(tsAt(310, 3), { writes: [rowWrite(acct, [1, 2, null, 'forced'])], deps: [unknownDep] });
    const eagerOnly = ask(loadedCore(0), query(SQL, PARAMS));
    const { a, reply } = rounds((c) => c.handle(2, { kind: 'prepare', req: 1, txn: against }), { proposal: [...proposalOf(eagerOnly), { digest: against.digest, holders: [1, 2] }] });
    assert.equal(a.stats.queriesSnapshotReused, 0);
    assert.equal(a.range.forcedCount, 1);
    assert.ok(rowsOf(reply).some((r) => r[2] === 'forced'));
  });

  void it('executes again after a catalog change below T', () => {
    const next = catalogAfter([...DDL, 'CREATE TABLE extra (x int PRIMARY KEY)']);
    const ddl = txnOf(tsAt(300, 4), { reads: [{ key: CATALOG_KEY, version: DDL_TXN.body.ts }], writes: [{ key: CATALOG_KEY, value: next.value() }] });
    const { a, reply } = rounds((c) => c.handle(1, committed(ddl)));
    assert.equal(a.stats.queriesSnapshotReused, 0);
    assert.deepEqual(reply.reads.find((r) => r.key === CATALOG_KEY)?.version, ddl.body.ts);
  });

  void it('executes a different statement sent under the same request id, and index scans', () => {
    const other = rounds(() => {}, { syncSql: 'SELECT id, bal, tag FROM acct WHERE w = $1 AND id BETWEEN $2 AND $3 ORDER BY id DESC' });
    assert.equal(other.a.stats.queriesSnapshotReused, 0);
    const indexed = rounds(() => {}, { sql: "SELECT id FROM acct WHERE tag = 'b'", params: [] });
    assert.equal(indexed.a.stats.queriesSnapshotReused, 0);
  });
});

function tsLessThan(x: Timestamp, y: Timestamp): boolean {
  return x.micros < y.micros || (x.micros === y.micros && x.clientId < y.clientId);
}
