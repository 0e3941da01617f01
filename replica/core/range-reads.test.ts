import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { encodeMessage } from '../../protocol/codec.ts';
import { digestKey, type TxnDigest } from '../../protocol/ids.ts';
import type { FetchReply, Message, Query, Txn, WriteEntry } from '../../protocol/messages.ts';
import { ts } from '../../protocol/timestamp.ts';
import { CATALOG_KEY } from '../../sql/replicated-catalog.ts';
import type { Row, SqlValue } from '../../sql/types.ts';
import { decodeOutcome } from '../../sql/wire-values.ts';
import { decodePredicate, excusedKeys, withExcusedKeys } from '../../sql/predicate-codec.ts';
import { parseApplyFault } from './range-reads.ts';
import type { ReplicaCore} from './replica-core.ts';
import { type ReplicaEffect } from './replica-core.ts';
import { S0, NOW, tsAt, Q_TS, DDL, catalogAfter, acct, logT, refSession, keyOf, rowWrite, LOG_ROWS, acctRow, txnOf, abortCert, committed, DDL_TXN, LOAD_TXN, newCore, drain, loadedCore, sent, replies, toReplicas, query, ask, refOutcome, rowsOf, errorOf, balOf } from './range-reads.testkit.ts';

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
      assert.equal(new Set(snap).size, snap.length, 'the snapshot vote is distinct (a set: in no particular order)');
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

  void it('a filter the session zone decides is left out of the predicate outside UTC (SemanticCC evaluates in UTC)', () => {
    const sql = "SELECT id FROM acct WHERE w = 2 AND tag <> to_char(timestamptz '2026-03-28 12:00+00' + bal * interval '1 day', 'HH24')";
    const filterOf = (timeZone?: string): unknown => decodePredicate(ask(core, query(sql, [], timeZone === undefined ? {} : { timeZone })).predicates[0]!.expr)!.filter;
    assert.notEqual(filterOf(), null, 'in UTC the filter stays');
    assert.equal(filterOf('Europe/Berlin'), null, 'in another zone the whole range is the predicate');
    // An immutable filter stays in any zone.
    const plain = ask(core, query("SELECT id FROM acct WHERE w = 2 AND tag = 'a'", [], { timeZone: 'Europe/Berlin' }));
    assert.notEqual(decodePredicate(plain.predicates[0]!.expr)!.filter, null);
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
    assert.deepEqual([bad.reads, bad.predicates, bad.deps], [[], [], []]);
    // A statement that fails on the catalog the replica shows at T still votes the catalog's chain: a
    // replica that lacks a table's DDL (apply fault, or not applied yet) can then be sent it in a sync
    // round instead of failing every round (sim sql seed 713).
    const good = ask(core, query('SELECT * FROM acct'));
    const hex = (d: Uint8Array): string => Buffer.from(d).toString('hex');
    assert.ok(bad.snapshotCommitted.length > 0, 'the catalog chain is voted');
    assert.ok(bad.snapshotCommitted.every((d) => good.snapshotCommitted.some((g) => hex(g) === hex(d))), 'the same catalog versions a successful query votes');
    const unparsable = ask(core, query('SELEKT 1'));
    assert.ok(unparsable.snapshotCommitted.length > 0);

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

  void it('a query whose result and read set together would not fit one message fails with 54000', () => {
    // 64 KiB of room beside them, and 200 bytes: one row's reply fits, all of acct's rows do not.
    const small = loadedCore(0, { messageBytesMax: (64 << 10) + 200 });
    const all = ask(small, query('SELECT * FROM acct'));
    assert.equal(errorOf(all), '54000');
    assert.ok(rowsOf(ask(small, query('SELECT bal FROM acct WHERE w = 1 AND id = 1'))).length === 1, 'a narrow query still runs');
    assert.ok(rowsOf(ask(loadedCore(0), query('SELECT * FROM acct'))).length > 2, 'within the default limit');
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
    assert.equal(fromB.decided[0]!.txn?.key, UPDATE_11.key);

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

  void it('answers a fetch with as many transactions as fit one message, at least one', () => {
    const a = newCore(0, { messageBytesMax: 512 << 10 });
    const big = (micros: number, key: string): Txn => txnOf(tsAt(micros), { writes: [{ key, value: new Uint8Array(200 << 10).fill(micros & 0xff) }] });
    const [t1, t2, t3] = [big(30, 'big-1'), big(31, 'big-2'), big(32, 'big-3')];
    for (const t of [t1, t2, t3]) a.handle(2, { kind: 'prepare', req: 1, txn: t });
    drain(a);
    const asked = (...ts: Txn[]): string[] => {
      const r = supply(a, { kind: 'fetch', req: 1, digests: ts.map((t) => t.digest) }, 4);
      return r.prepared.map((t) => t.key);
    };
    assert.deepEqual(asked(t1, t2, t3), [t1.key], 'two of 200 KiB and more do not fit 512 KiB');
    assert.deepEqual(asked(t3), [t3.key]);
    const huge = newCore(0, { messageBytesMax: 256 << 10 });
    huge.handle(2, { kind: 'prepare', req: 1, txn: t1 });
    drain(huge);
    assert.deepEqual(supply(huge, { kind: 'fetch', req: 1, digests: [t1.digest] }, 4).prepared.map((t) => t.key), [t1.key], 'one always');
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
    assert.ok(out[0]!.kind === 'fetchReply' && out[0].decided.length === 1 && out[0].decided[0]!.txn?.key === DDL_TXN.key);
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

  void it('the fault turned on and off at run time: off shows every withheld write at once', () => {
    const a = loadedCore(0);
    a.range.setApplyFault({ kind: 'omit' });
    a.handle(1, committed(UPDATE_11));
    drain(a);
    assert.deepEqual(balOf(ask(a, query(bal11))), [String(acctRow(1, 1)[2])], 'withheld while on');
    assert.equal(a.range.hiddenCount, 1);
    a.range.setApplyFault(null);
    assert.equal(a.range.applyFault, null);
    assert.equal(a.range.hiddenCount, 0);
    assert.deepEqual(rowsOf(ask(a, query(bal11))), [[null]], 'visible once off');
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
