import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { DigestKey } from '../../protocol/ids.ts';
import { ts, tsEquals, ZERO_TS, type Timestamp } from '../../protocol/timestamp.ts';
import type { TableDef } from '../../sql/catalog.ts';
import { Engine } from '../../sql/engine.ts';
import { evalPredicate } from '../../sql/eval.ts';
import { indexEntryPrefix } from '../../sql/memory-store.ts';
import type { Row, SqlType, SqlValue } from '../../sql/types.ts';
import { SqlDate } from '../../sql/datetime.ts';
import { decodeTypedParams, encodeParams } from '../../sql/wire-values.ts';
import { encodeKey } from '../../sql/key-encoding.ts';
import { executeAt, type QueryExecution } from './query-exec.ts';
import { ReplicaRowSource, type ReplicaRowVersion } from './replica-row-source.ts';
import { decodeRow, encodeRow } from '../../sql/row-codec.ts';
import { rowKey } from '../../sql/row-key.ts';
import { Store, type KeyState, type Version } from './store.ts';

const txn = (name: string): DigestKey => name as DigestKey;
const GENESIS = txn('genesis');
const LOADED_AT = ts(100, 1);
const T = ts(1000, 5);

// The single-node engine holds the reference data; the replica store gets the same rows as committed
// versions (through the store's write API), plus history and noise that must not change any result.
const engine = await Engine.create();
const session = engine.session();
session.execute('CREATE TABLE acct (w int, id int, bal numeric(10,2), tag text, PRIMARY KEY (w, id))');
session.execute('CREATE TABLE item (id int PRIMARY KEY, name text, price float8, cat int)');
session.execute('CREATE INDEX item_cat ON item (cat)');
const tags = ["'a'", "'b'", "'ab'", 'NULL'];
for (let w = 1; w <= 3; w++) {
  const vals: string[] = [];
  for (let id = 1; id <= 20; id++) vals.push(`(${w}, ${id}, ${((w * id * 7) % 100) + 0.25}, ${tags[(w + id) % 4]})`);
  session.execute(`INSERT INTO acct VALUES ${vals.join(', ')}`);
}
session.execute(`INSERT INTO item VALUES ${Array.from({ length: 30 }, (_, i) => `(${i + 1}, 'item${i + 1}', ${(i + 1) * 1.5}, ${(i + 1) % 5})`).join(', ')}`);
const catalog = engine.catalog;
const acct = catalog.require('acct');
const item = catalog.require('item');

function version(at: Timestamp, value: Uint8Array | null, by: DigestKey): Version {
  return { ts: at, value, txn: by, proof: null };
}

function engineRows(table: TableDef): { key: string; row: Row }[] {
  return [...engine.store.scan({ table, index: null, lo: '', hi: null, predicate: null, mode: 'read', reverse: false })].map((r) => ({ key: r.key, row: r.row }));
}

/** A store with the engine's rows committed at LOADED_AT, older history, deleted rows and invisible noise at or above T. */
function loadedStore(): Store {
  const store = new Store();
  for (const table of [acct, item]) {
    for (const { key, row } of engineRows(table)) {
      const k = rowKey(table.id, key);
      const old = [...row];
      old[old.length - 1] = null;
      store.commitWrite(k, version(ts(50, 1), encodeRow(table, old), txn('older')));
      store.commitWrite(k, version(LOADED_AT, encodeRow(table, row), GENESIS));
      const noise = [...row];
      noise[1] = typeof row[1] === 'number' ? 999 : 'noise';
      store.commitWrite(k, version(T, encodeRow(table, noise), txn('at-T')));
      store.prepareWrite(k, version(ts(2000, 1), null, txn('future-delete')));
    }
  }
  // Rows that existed once and were deleted before T; one is re-inserted at T (invisible).
  for (const id of [21, 22, 23]) {
    const k = rowKey(acct.id, encodeKey([1, id], acct.pkTypes));
    store.commitWrite(k, version(ts(60, 2), encodeRow(acct, [1, id, null, 'a']), txn('short-lived')));
    store.commitWrite(k, version(ts(70, 2), null, txn('deleter')));
    if (id === 22) store.prepareWrite(k, version(T, encodeRow(acct, [1, id, null, 'a']), txn('reinsert-at-T')));
  }
  return store;
}

/** PROTOCOL §9: every scanned row is in the read set at its version, or lies under a predicate it fails. */
function assertCovered(exec: Extract<QueryExecution, { ok: true }>): void {
  for (const s of exec.recorder.scanned) {
    const v = s.version as ReplicaRowVersion;
    const table = catalog.getById(s.tableId)!;
    const row = decodeRow(table, v.version.value!);
    const key = rowKey(s.tableId, s.key);
    const read = exec.reads.find((r) => r.key === key);
    const inReads = read !== undefined && read.version.micros === v.version.ts.micros && read.version.clientId === v.version.ts.clientId;
    const covering = exec.predicates.filter((p) => {
      if (p.tableId !== s.tableId) return false;
      const idx = p.indexId === null ? null : table.indexes.find((i) => i.id === p.indexId)!;
      const k = idx === null ? s.key : indexEntryPrefix(idx, row) + s.key;
      return k >= p.lo && (p.hi === null || k < p.hi);
    });
    for (const p of covering) {
      if (evalPredicate(p.predicate, row) && !inReads) assert.fail(`row (${row.map(String).join(', ')}) satisfies a predicate but is not in the read set`);
    }
    if (!inReads && covering.length === 0) assert.fail(`row (${row.map(String).join(', ')}) is neither read nor under a predicate`);
  }
}

function run(store: Store, sql: string, params: SqlValue[] = [], at: Timestamp = T): Extract<QueryExecution, { ok: true }> {
  const exec = executeAt(engine, sql, params, at, store, catalog);
  if (!exec.ok) assert.fail(`${sql}: ${exec.error.message}`);
  return exec;
}

const queries: { name: string; sql: string; params?: SqlValue[] }[] = [
  { name: 'point', sql: 'SELECT * FROM acct WHERE w = 1 AND id = 2' },
  { name: 'point with parameters and an extra conjunct', sql: 'SELECT bal FROM acct WHERE w = $1 AND id = $2 AND tag = $3', params: [2, 3, 'a'] },
  { name: 'point on a missing key', sql: 'SELECT * FROM acct WHERE w = 1 AND id = 99' },
  { name: 'point on a deleted key', sql: 'SELECT * FROM acct WHERE w = 1 AND id = 22' },
  { name: 'range', sql: 'SELECT id, bal FROM acct WHERE w = 2 AND id BETWEEN 3 AND 7' },
  { name: 'filtered range', sql: "SELECT id FROM acct WHERE w = 1 AND tag LIKE 'a%'" },
  { name: 'range over deleted rows', sql: 'SELECT id FROM acct WHERE w = 1 AND id > 15' },
  { name: 'full scan with a filter', sql: 'SELECT w, id FROM acct WHERE bal > $1 AND tag IN ($2, $3)', params: ['50', 'a', 'b'] },
  { name: 'reverse order with limit', sql: 'SELECT id FROM acct WHERE w = 3 ORDER BY id DESC LIMIT 4' },
  { name: 'join', sql: 'SELECT a.w, a.id, i.name FROM acct a JOIN item i ON i.id = a.id WHERE a.w = 1 AND i.price > 10 ORDER BY a.id' },
  { name: 'hash join over two full scans', sql: 'SELECT count(*) FROM acct a JOIN item i ON i.cat = a.w' },
  { name: 'aggregate', sql: 'SELECT w, count(*), sum(bal), min(tag) FROM acct GROUP BY w ORDER BY w' },
  { name: 'secondary index', sql: 'SELECT id, name FROM item WHERE cat = 3 ORDER BY id' },
  { name: 'uncorrelated subquery', sql: 'SELECT id FROM item WHERE price > (SELECT avg(price) FROM item) ORDER BY id' },
  { name: 'correlated subquery', sql: 'SELECT a.id FROM acct a WHERE a.w = 2 AND EXISTS (SELECT 1 FROM item i WHERE i.id = a.id AND i.cat = 1) ORDER BY a.id' },
  { name: 'left join', sql: 'SELECT i.id, a.w FROM item i LEFT JOIN acct a ON a.w = 3 AND a.id = i.id WHERE i.id > 15 ORDER BY i.id' },
  { name: 'union and distinct', sql: "SELECT DISTINCT tag FROM acct WHERE w = 1 UNION SELECT name FROM item WHERE id < 3 ORDER BY 1" },
  { name: 'IN list on the primary key', sql: 'SELECT name FROM item WHERE id IN (1, 5, 999) ORDER BY name' },
];

void describe('executeAt', () => {
  const store = loadedStore();
  for (const q of queries) {
    void it(`returns the single-node engine's rows and covers every scanned row: ${q.name}`, () => {
      const exec = run(store, q.sql, q.params);
      const want = session.execute(q.sql, q.params ?? []);
      assert.ok(want.ok);
      assert.deepEqual(exec.rows, want.rows);
      assertCovered(exec);
      assert.deepEqual(exec.deps, [], 'no prepared version below T is in this data');
      assert.ok(exec.snapshot.committed.every((t) => t === GENESIS || t === txn('deleter')), 'only versions below T are voted for');
    });
  }

  void it('runs the join of an UPDATE ... FROM as its reconnaissance read: FROM columns then the target row, the FROM range under a predicate', () => {
    const sql = 'UPDATE acct SET tag = i.name FROM item i WHERE i.cat = 2 AND acct.w = i.cat - 1 AND acct.id = i.id';
    const exec = executeAt(engine, sql, [], T, store, catalog, { recon: true });
    assert.ok(exec.ok);
    assert.deepEqual(exec.columns.map((c) => c.name), ['id', 'name', 'price', 'cat', 'w', 'id', 'bal', 'tag']);
    const want = engine.session().execute('SELECT i.*, acct.* FROM item i, acct WHERE i.cat = 2 AND acct.w = i.cat - 1 AND acct.id = i.id');
    assert.ok(want.ok && want.rows.length > 0);
    assert.deepEqual(exec.rows, want.rows);
    assertCovered(exec);
    // The FROM table's range is under a predicate (a concurrent insert into it conflicts); the target
    // keys looked up per FROM row are in the read set, found or not.
    assert.ok(exec.predicates.some((p) => p.tableId === item.id && p.indexId !== null));
    const lookups = engine.session().execute('SELECT count(*) FROM item WHERE cat = 2');
    assert.ok(lookups.ok);
    assert.equal(exec.reads.filter((r) => r.key.startsWith(rowKey(acct.id, ''))).length, lookups.rows[0]![0]);
  });

  void it('runs the join of a MERGE as its reconnaissance read: source columns then the target row or NULLs, each target key looked up in the read set', () => {
    const sql = 'MERGE INTO acct a USING item i ON a.w = 1 AND a.id = i.id WHEN MATCHED THEN DELETE WHEN NOT MATCHED THEN INSERT (w, id) VALUES (1, i.id)';
    const exec = executeAt(engine, sql, [], T, store, catalog, { recon: true });
    assert.ok(exec.ok);
    assert.deepEqual(exec.columns.map((c) => c.name), ['id', 'name', 'price', 'cat', 'w', 'id', 'bal', 'tag']);
    const want = engine.session().execute('SELECT i.*, a.* FROM item i LEFT JOIN acct a ON a.w = 1 AND a.id = i.id');
    assert.ok(want.ok && want.rows.some((r) => r[4] === null) && want.rows.some((r) => r[4] !== null));
    assert.deepEqual(exec.rows, want.rows);
    assertCovered(exec);
    // A target row that is absent is read too (version zero): a concurrent insert of it conflicts.
    assert.equal(exec.reads.filter((r) => r.key.startsWith(rowKey(acct.id, ''))).length, want.rows.length);
  });

  void it("refuses with 0A000 a statement that reads a table of another shard, by scan or by key, instead of reading it as empty", () => {
    const ownsTable = (id: number): boolean => id === acct.id;
    for (const sql of ['SELECT count(*) FROM item', 'SELECT name FROM item WHERE id = 1', 'SELECT a.id FROM acct a JOIN item i ON i.id = a.id']) {
      const exec = executeAt(engine, sql, [], T, store, catalog, { ownsTable });
      assert.equal(exec.ok ? 'ok' : exec.error.code, '0A000', sql);
      assert.match(exec.ok ? '' : exec.error.message, /"item" is stored by another shard/);
    }
    assert.ok(executeAt(engine, 'SELECT count(*) FROM acct', [], T, store, catalog, { ownsTable }).ok, 'its own tables read as before');
  });

  void it("runs in the query's TimeZone: constants folded and text written in it, plans not shared across zones, a bad zone 22023", () => {
    const sql = `SELECT '2020-01-01 12:00'::timestamptz::text, count(*) FROM item WHERE '2020-07-01 00:30+02'::timestamptz::date = date '2020-06-30'`;
    const rows = (timeZone?: string): unknown => {
      const exec = executeAt(engine, sql, [], T, store, catalog, timeZone === undefined ? {} : { timeZone });
      return exec.ok ? exec.rows : exec.error.code;
    };
    assert.deepEqual(rows(), [['2020-01-01 12:00:00+00', 30]]);
    assert.deepEqual(rows('Europe/Berlin'), [['2020-01-01 12:00:00+01', 0]]);
    assert.deepEqual(rows('<-05>+05'), [['2020-01-01 12:00:00-05', 30]]);
    assert.deepEqual(rows('UTC'), [['2020-01-01 12:00:00+00', 30]]);
    assert.equal(rows('Mars/Olympus_Mons'), '22023');
  });

  void it('types parameters the query leaves untyped as the client that sent them did (bytea values, declared types)', () => {
    const b = Uint8Array.from([0xff, 0x00]);
    const wire = (values: SqlValue[], types?: SqlType[]): { values: SqlValue[]; hints: SqlType[] } => decodeTypedParams(encodeParams(values, types));
    const sent = wire([b]);
    const exec = executeAt(engine, 'SELECT $1 AS b, length($1) AS n, id FROM item WHERE id < 3 ORDER BY id', sent.values, T, store, catalog, { paramHints: sent.hints });
    assert.ok(exec.ok, exec.ok ? '' : exec.error.message);
    assert.deepEqual(exec.columns.map((c) => c.type), ['bytea', 'int4', 'int4']);
    assert.deepEqual(exec.rows, [[b, 2, 1], [b, 2, 2]]);
    // The same text with a text parameter is lowered again, not taken from the cache.
    const text = executeAt(engine, 'SELECT $1 AS b, length($1) AS n, id FROM item WHERE id < 3 ORDER BY id', ['\\xff00'], T, store, catalog);
    assert.ok(text.ok);
    assert.deepEqual(text.rows, [['\\xff00', 6, 1], ['\\xff00', 6, 2]]);
    // A statement's declared types travel with the values: an int2 and a date stay so; without them a
    // replica would lower `$1` as text.
    const declared = wire([7, new SqlDate(0), null], ['int2', 'date', 'int8']);
    const typed = executeAt(engine, 'SELECT $1 AS s, $2 AS d, $3 AS n, id FROM item WHERE id < 2', declared.values, T, store, catalog, { paramHints: declared.hints });
    assert.ok(typed.ok, typed.ok ? '' : typed.error.message);
    assert.deepEqual(typed.columns.map((c) => c.type), ['int2', 'date', 'text', 'int4']);
    assert.deepEqual(typed.rows, [[7, new SqlDate(0), null, 1]]);
    const inferred = executeAt(engine, 'SELECT $1 AS s, id FROM item WHERE id < 2', [7], T, store, catalog);
    assert.ok(inferred.ok);
    assert.deepEqual(inferred.columns.map((c) => c.type), ['text', 'int4']);
  });

  void it('records a missing pinned key in the read set at version 0, without a predicate', () => {
    const exec = run(store, 'SELECT * FROM acct WHERE w = 1 AND id = 99');
    assert.deepEqual(exec.reads, [{ key: rowKey(acct.id, encodeKey([1, 99], acct.pkTypes)), version: ZERO_TS }]);
    assert.deepEqual(exec.predicates, []);
  });

  void it('records a pinned key whose row was deleted at the deletion version', () => {
    const exec = run(store, 'SELECT * FROM acct WHERE w = 1 AND id = 22');
    assert.deepEqual(exec.reads, [{ key: rowKey(acct.id, encodeKey([1, 22], acct.pkTypes)), version: ts(70, 2) }]);
    assert.deepEqual(exec.snapshot, { committed: [txn('deleter')], prepared: [] });
  });

  void it('records a pinned row that fails the extra conjunct in the read set', () => {
    const exec = run(store, "SELECT * FROM acct WHERE w = 1 AND id = 2 AND tag = 'zzz'");
    assert.equal(exec.rows.length, 0);
    assert.deepEqual(exec.reads, [{ key: rowKey(acct.id, encodeKey([1, 2], acct.pkTypes)), version: LOADED_AT }]);
  });

  void it('has a coverage check that notices a scanned row nobody protects', () => {
    const exec = run(store, "SELECT id FROM acct WHERE w = 1 AND tag = 'a'");
    assert.throws(() => assertCovered({ ...exec, predicates: [] }), /neither read nor under a predicate/);
    assert.throws(() => assertCovered({ ...exec, reads: [] }), /satisfies a predicate but is not in the read set/);
  });

  void it('stops walking version chains where a LIMIT stops the scan', () => {
    const exec = run(store, 'SELECT id FROM item WHERE id > 5 LIMIT 2');
    assert.deepEqual(exec.rows, [[6], [7]]);
    assert.equal(exec.recorder.scanned.length, 2);
    assert.equal(exec.predicates[0]!.hi, encodeKey([7], item.pkTypes) + '\x00');
  });

  void it('puts matching rows in the read set and leaves the rest to the predicate', () => {
    const exec = run(store, "SELECT id FROM acct WHERE w = 1 AND tag = 'a'");
    assert.equal(exec.reads.length, exec.rows.length);
    assert.equal(exec.recorder.scanned.length, 20);
    assert.equal(exec.predicates.length, 1);
    assert.deepEqual(exec.snapshot.committed, [txn('deleter'), GENESIS].sort());
  });

  void it('does not see versions at or above T, committed or prepared', () => {
    const point = 'SELECT name FROM item WHERE id = 4';
    assert.deepEqual(run(store, point).rows, [['item4']]);
    assert.deepEqual(run(store, point, [], ts(1000, 6)).rows, [['noise']]);
    assert.deepEqual(run(store, point, [], ts(2000, 2)).rows, [], 'the prepared deletion at 2000 is visible above it');
    const reinserted = 'SELECT * FROM acct WHERE w = 1 AND id = 22';
    assert.equal(run(store, reinserted).rows.length, 0);
    const later = run(store, reinserted, [], ts(1000, 6));
    assert.equal(later.rows.length, 1);
    assert.deepEqual(later.deps, [{ txn: txn('reinsert-at-T'), ts: T }]);
  });
});

void describe('executeAt over prepared versions', () => {
  void it('reads a newer prepared version below T and records it as a dependency', () => {
    const store = loadedStore();
    const k = rowKey(item.id, encodeKey([4], item.pkTypes));
    store.prepareWrite(k, version(ts(500, 3), encodeRow(item, [4, 'changed', 6, 4]), txn('p1')));
    const exec = run(store, 'SELECT name FROM item WHERE id BETWEEN 3 AND 5 ORDER BY id');
    assert.deepEqual(exec.rows, [['item3'], ['changed'], ['item5']]);
    assert.deepEqual(exec.deps, [{ txn: txn('p1'), ts: ts(500, 3) }]);
    assert.deepEqual(exec.reads.find((r) => r.key === k)?.version, ts(500, 3));
    assert.deepEqual(exec.snapshot, { committed: [GENESIS], prepared: [txn('p1')] });
    assertCovered(exec);
  });

  void it('depends on a prepared version that fails the predicate but hides a committed row that satisfies it', () => {
    // PROTOCOL §5 step 7 at query time: the result (no row 4) holds only if p2 commits. Without the
    // dependency, p2 aborting after the query would leave row 4 a phantom validation cannot see (sim seed 122).
    const store = loadedStore();
    const k = rowKey(item.id, encodeKey([4], item.pkTypes));
    store.prepareWrite(k, version(ts(500, 3), encodeRow(item, [4, 'cheap', 0.5, 4]), txn('p2')));
    const exec = run(store, 'SELECT id FROM item WHERE id < 10 AND price > 1');
    assert.ok(!exec.rows.some((r) => r[0] === 4));
    assert.ok(!exec.reads.some((r) => r.key === k));
    assert.deepEqual(exec.deps, [{ txn: txn('p2'), ts: ts(500, 3) }]);
    assert.deepEqual(exec.snapshot.prepared, [txn('p2')]);
    assertCovered(exec);
  });

  void it('depends on a prepared deletion of a row a scan would return', () => {
    const store = loadedStore();
    const k = rowKey(item.id, encodeKey([4], item.pkTypes));
    store.prepareWrite(k, version(ts(500, 3), null, txn('pdel')));
    const exec = run(store, 'SELECT count(*) FROM item WHERE id BETWEEN 2 AND 6');
    assert.deepEqual(exec.rows, [[4]]);
    assert.deepEqual(exec.deps, [{ txn: txn('pdel'), ts: ts(500, 3) }]);
  });

  void it('votes for a prepared version a scan touched without depending on it when neither it nor the row it hides satisfies the predicate', () => {
    const store = loadedStore();
    const k = rowKey(item.id, encodeKey([2], item.pkTypes));
    store.prepareWrite(k, version(ts(500, 3), encodeRow(item, [2, 'still cheap', 4, 2]), txn('p6')));
    const exec = run(store, 'SELECT id FROM item WHERE id < 10 AND price > 5');
    assert.ok(!exec.rows.some((r) => r[0] === 2));
    assert.deepEqual(exec.deps, []);
    assert.deepEqual(exec.snapshot.prepared, [txn('p6')]);
    assertCovered(exec);
  });

  void it('ignores prepared versions older than the newest committed one', () => {
    const store = loadedStore();
    const k = rowKey(item.id, encodeKey([4], item.pkTypes));
    store.getOrCreate(k).addPrepared(version(ts(80, 3), encodeRow(item, [4, 'stale', 1, 4]), txn('p3')));
    const exec = run(store, 'SELECT name FROM item WHERE id = 4');
    assert.deepEqual(exec.rows, [['item4']]);
    assert.deepEqual(exec.deps, []);
    assert.deepEqual(exec.snapshot.prepared, []);
  });

  void it('reads only committed versions in committed mode, only proposed prepared ones in snapshot mode', () => {
    const store = loadedStore();
    const k4 = rowKey(item.id, encodeKey([4], item.pkTypes));
    const k5 = rowKey(item.id, encodeKey([5], item.pkTypes));
    store.prepareWrite(k4, version(ts(500, 3), encodeRow(item, [4, 'p4', 6, 4]), txn('p4')));
    store.prepareWrite(k5, version(ts(400, 3), encodeRow(item, [5, 'p5', 6, 4]), txn('p5')));
    const sql = 'SELECT name FROM item WHERE id IN (4, 5) ORDER BY id';
    const committed = executeAt(engine, sql, [], T, store, catalog, { mode: { kind: 'committed' } });
    assert.ok(committed.ok);
    assert.deepEqual(committed.rows, [['item4'], ['item5']]);
    assert.deepEqual(committed.deps, []);
    const snap = executeAt(engine, sql, [], T, store, catalog, { mode: { kind: 'snapshot', txns: new Set([txn('p4')]) } });
    assert.ok(snap.ok);
    assert.deepEqual(snap.rows, [['p4'], ['item5']]);
    assert.deepEqual(snap.lowestSkippedPrepared, ts(400, 3));
    const unreadable = executeAt(engine, sql, [], T, store, catalog, { readable: (v) => v.txn !== txn('p5') });
    assert.ok(unreadable.ok);
    assert.deepEqual(unreadable.rows, [['p4'], ['item5']]);
    assert.deepEqual(unreadable.snapshot.prepared, [txn('p4')]);
  });
});

void describe('table versions', () => {
  void it('are the newest committed table write below T, raised to prepared versions read and to the high-water mark', () => {
    const store = loadedStore();
    const sql = 'SELECT id FROM item WHERE price > 40';
    assert.deepEqual(run(store, sql).predicates.map((p) => p.tableVersion), [LOADED_AT]);
    assert.deepEqual(store.table(item.id).high, LOADED_AT);
    store.prepareWrite(rowKey(item.id, encodeKey([29], item.pkTypes)), version(ts(600, 1), encodeRow(item, [29, 'x', 100, 1]), txn('p6')));
    assert.deepEqual(run(store, sql).predicates.map((p) => p.tableVersion), [ts(600, 1)]);
    // An earlier reader still reports the watermark other queries raised.
    assert.deepEqual(run(store, sql, [], ts(300, 0)).predicates.map((p) => p.tableVersion), [ts(600, 1)]);
    assert.deepEqual(store.table(item.id).high, ts(600, 1));
  });

  void it('forget aborted writes and turn committed ones into the table version', () => {
    const store = loadedStore();
    const k = rowKey(item.id, encodeKey([3], item.pkTypes));
    store.prepareWrite(k, version(ts(700, 1), encodeRow(item, [3, 'y', 1, 3]), txn('a')));
    store.abortWrite(k, txn('a'), ts(700, 1));
    store.prepareWrite(k, version(ts(800, 1), encodeRow(item, [3, 'z', 1, 3]), txn('c')));
    store.commitWrite(k, version(ts(800, 1), encodeRow(item, [3, 'z', 1, 3]), txn('c')));
    assert.deepEqual(store.get(k)!.prepared.map((v) => v.txn), [txn('future-delete')]);
    const exec = executeAt(engine, 'SELECT name FROM item WHERE cat = 3', [], T, store, catalog, { observeTableVersions: false });
    assert.ok(exec.ok);
    assert.deepEqual(exec.rows, [['z'], ['item8'], ['item13'], ['item18'], ['item23'], ['item28']]);
    assert.deepEqual(exec.predicates.map((p) => p.tableVersion), [ts(800, 1)]);
    assert.deepEqual(store.table(item.id).high, ZERO_TS);
  });
});

void describe('rows kept for later scans (decision 0019)', () => {
  // Scanned twice each time: a replica keeps a version's row from its second scan on.
  const scanItems = (store: Store, at: Timestamp, cat = catalog): Extract<QueryExecution, { ok: true }> => {
    const once = executeAt(engine, 'SELECT * FROM item WHERE id >= 2 AND id < 5', [], at, store, cat, { observeTableVersions: false });
    const exec = executeAt(engine, 'SELECT * FROM item WHERE id >= 2 AND id < 5', [], at, store, cat, { observeTableVersions: false });
    assert.ok(once.ok && exec.ok);
    assert.deepEqual(exec.rows, once.rows);
    return exec;
  };

  void it('shows a newer committed version, not the row kept from an earlier scan', () => {
    const store = loadedStore();
    assert.deepEqual(scanItems(store, T).rows[1], [3, 'item3', 4.5, 3]);
    const k = rowKey(item.id, encodeKey([3], item.pkTypes));
    store.commitWrite(k, version(ts(900, 1), encodeRow(item, [3, 'new', 1, 3]), txn('w')));
    const exec = scanItems(store, T);
    assert.deepEqual(exec.rows[1], [3, 'new', 1, 3]);
    assert.deepEqual(exec.reads.find((r) => r.key === k)?.version, ts(900, 1));
    // An older reader still sees the older version (the kept row is per version).
    assert.deepEqual(scanItems(store, ts(800, 1)).rows[1], [3, 'item3', 4.5, 3]);
  });

  void it('shows the kept row of a chain of committed versions as its newest version below T, voted and read at it', () => {
    // Chains of committed versions only: from the third scan on, rows come from the kept row without a
    // visit to the version (decision 0041), which must show, vote and record exactly what the version would.
    const store = new Store();
    const key = (id: number): string => rowKey(item.id, encodeKey([id], item.pkTypes));
    for (const id of [2, 3, 4]) store.commitWrite(key(id), version(ts(100, 1), encodeRow(item, [id, `n${id}`, 1.5, id]), txn(`w${id}`)));
    const scan = (at: Timestamp): Extract<QueryExecution, { ok: true }> => {
      const exec = executeAt(engine, 'SELECT * FROM item WHERE id >= 2 AND id < 5', [], at, store, catalog, { observeTableVersions: false });
      assert.ok(exec.ok);
      return exec;
    };
    const first = scan(T);
    scan(T);
    for (let round = 0; round < 2; round++) {
      const kept = scan(T);
      assert.deepEqual(kept.rows, first.rows);
      assert.deepEqual(kept.reads, first.reads);
      assert.deepEqual([...kept.snapshot.committed].sort(), [txn('w2'), txn('w3'), txn('w4')].sort());
    }
    // A newer committed version on one chain: shown, read and voted instead of the kept row's.
    store.commitWrite(key(3), version(ts(900, 1), encodeRow(item, [3, 'newer', 2, 3]), txn('w3b')));
    for (let round = 0; round < 3; round++) {
      const exec = scan(T);
      assert.deepEqual(exec.rows.map((r) => r[1]), ['n2', 'newer', 'n4']);
      assert.deepEqual(exec.reads.find((r) => r.key === key(3))?.version, ts(900, 1));
      assert.deepEqual([...exec.snapshot.committed].sort(), [txn('w2'), txn('w3b'), txn('w4')].sort());
    }
    // Readers below the kept versions see what they saw then: the older version, or no row at all.
    assert.deepEqual(scan(ts(500, 1)).rows.map((r) => r[1]), ['n2', 'n3', 'n4']);
    assert.deepEqual(scan(ts(100, 1)).rows, []);
  });

  void it('records a version that was read prepared and is now committed as committed', () => {
    const store = loadedStore();
    const k = rowKey(item.id, encodeKey([3], item.pkTypes));
    const v = version(ts(900, 1), encodeRow(item, [3, 'p', 1, 3]), txn('p'));
    store.prepareWrite(k, v);
    assert.deepEqual(scanItems(store, T).deps.map((d) => d.txn), [txn('p')]);
    store.commitWrite(k, v);
    const exec = scanItems(store, T);
    assert.deepEqual(exec.rows[1], [3, 'p', 1, 3]);
    assert.deepEqual(exec.deps, []);
  });

  void it('decodes again under a new table definition (a column added with a default)', async () => {
    const store = loadedStore();
    assert.equal(scanItems(store, T).rows[0]!.length, 4);
    const altered = await Engine.create();
    const s2 = altered.session();
    s2.execute('CREATE TABLE acct (w int, id int, bal numeric(10,2), tag text, PRIMARY KEY (w, id))');
    s2.execute('CREATE TABLE item (id int PRIMARY KEY, name text, price float8, cat int)');
    s2.execute("ALTER TABLE item ADD COLUMN extra text DEFAULT 'dflt'");
    assert.equal(altered.catalog.require('item').id, item.id);
    const exec = executeAt(altered, 'SELECT * FROM item WHERE id >= 2 AND id < 5', [], T, store, altered.catalog, { observeTableVersions: false });
    assert.ok(exec.ok);
    assert.deepEqual(exec.rows[0], [2, 'item2', 3, 2, 'dflt']);
    assert.equal(scanItems(store, T).rows[0]!.length, 4);
  });
});

void describe('executeAt with rows left out by the filter (keepScanned false)', () => {
  /** loadedStore plus prepared versions below T: one failing the filter that hides a matching row, one deleting, one matching. */
  const preparedStore = (): Store => {
    const store = loadedStore();
    const at = (id: number): string => rowKey(item.id, encodeKey([id], item.pkTypes));
    store.prepareWrite(at(4), version(ts(500, 3), encodeRow(item, [4, 'cheap', 0.5, 4]), txn('p-fails')));
    store.prepareWrite(at(6), version(ts(510, 3), null, txn('p-deletes')));
    store.prepareWrite(at(8), version(ts(520, 3), encodeRow(item, [8, 'dear', 80, 3]), txn('p-matches')));
    return store;
  };
  const filtered = [
    ...queries,
    { name: 'price filter over prepared versions', sql: 'SELECT * FROM item WHERE id < 20 AND price > 5' },
    { name: 'filter on a later column with a parameter', sql: 'SELECT id FROM item WHERE id >= $1 AND cat = $2', params: [2, 3] },
    { name: 'filter with a limit', sql: 'SELECT id FROM item WHERE id > 1 AND cat = 1 ORDER BY id LIMIT 2' },
  ];
  const modes = [
    { name: 'eager', mode: { kind: 'eager' as const } },
    { name: 'snapshot', mode: { kind: 'snapshot' as const, txns: new Set([txn('p-matches')]) } },
  ];
  for (const { name, mode } of modes) {
    for (const q of filtered) {
      void it(`reports what the full scan reports, ${name} mode: ${q.name}`, () => {
        const full = executeAt(engine, q.sql, q.params ?? [], T, preparedStore(), catalog, { mode, observeTableVersions: false });
        const store = preparedStore();
        for (let round = 0; round < 3; round++) {
          // Rounds 2 and 3 meet rows kept from earlier scans (decision 0019).
          const lean = executeAt(engine, q.sql, q.params ?? [], T, store, catalog, { mode, observeTableVersions: false, keepScanned: false });
          assert.ok(full.ok && lean.ok);
          assert.deepEqual(lean.rows, full.rows);
          assert.deepEqual(lean.reads, full.reads);
          assert.deepEqual(lean.predicates, full.predicates);
          assert.deepEqual(lean.deps, full.deps);
          assert.deepEqual(lean.snapshot, full.snapshot);
          assert.deepEqual(lean.lowestSkippedPrepared, full.lowestSkippedPrepared);
        }
      });
    }
  }

  void it('builds no row for a version that fails the filter on its first scan, and keeps rows from the second scan on', () => {
    const store = loadedStore();
    const chain = (id: number): KeyState => store.get(rowKey(acct.id, encodeKey([1, id], acct.pkTypes)))!;
    const visible = (id: number): Version => chain(id).committed.find((v) => tsEquals(v.ts, LOADED_AT))!;
    const source = new ReplicaRowSource({ store, at: T, mode: { kind: 'eager' } });
    const tagIsA = { columns: [3], accepts: (row: Row): boolean => row[3] === 'a' };
    const scan = (): number[] =>
      [...source.scan({ table: acct, index: null, lo: encodeKey([1], [acct.pkTypes[0]!]), hi: encodeKey([2], [acct.pkTypes[0]!]), predicate: null, prefilter: tagIsA, mode: 'read', reverse: false })].map((r) => r.row[1] as number);
    // First scan: only rows whose tag is 'a' come back; the rest are touched and noted, not built.
    const first = scan();
    assert.deepEqual(first, [3, 7, 11, 15, 19]);
    assert.equal(chain(2).scanned, visible(2), 'row (1, 2) (tag NULL): version noted');
    assert.equal(source.touchedCount, 23, 'every chain in the range is touched (ids 21-23 were deleted)');
    // Second scan: every row is built and kept (the executor filters), as without a filter.
    assert.equal(scan().length, 20);
    assert.ok(chain(2).scanned !== null && chain(2).scanned !== visible(2), 'row (1, 2) kept');
    assert.equal(scan().length, 20, 'kept rows are reused as they are');
  });

  void it('raises the error a failing filter raises on every row', () => {
    const store = loadedStore();
    const exec = executeAt(engine, 'SELECT id FROM item WHERE id >= 1 AND 10 / (cat - 1) > 0', [], T, store, catalog, { keepScanned: false });
    assert.ok(!exec.ok);
    assert.equal(exec.error.code, '22012');
  });
});

void describe('executeAt refuses', () => {
  void it('writes, with a feature-not-supported error', () => {
    const exec = executeAt(engine, 'DELETE FROM item WHERE id = 1', [], T, loadedStore(), catalog);
    assert.ok(!exec.ok);
    assert.equal(exec.error.code, '0A000');
  });

  void it('unknown tables, with the engine error', () => {
    const exec = executeAt(engine, 'SELECT * FROM nope', [], T, loadedStore(), catalog);
    assert.ok(!exec.ok);
    assert.equal(exec.error.code, '42P01');
  });
});
