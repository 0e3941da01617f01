import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { encodeTxn } from '../../protocol/codec.ts';
import { keyPairFromSeed } from '../../protocol/crypto/ed25519.ts';
import { signBatch } from '../../protocol/crypto/signed.ts';
import type { ReplicaIndex, ShardId } from '../../protocol/ids.ts';
import type { LogRecord } from '../../protocol/log-record.ts';
import type { Certificate, Key, Message, QueryReply, Txn, WriteEntry } from '../../protocol/messages.ts';
import { voteLeaf } from '../../protocol/statements.ts';
import { ts, type Timestamp } from '../../protocol/timestamp.ts';
import { STORAGE_ID_BASE, type TableDef } from '../../sql/catalog.ts';
import { Engine } from '../../sql/engine.ts';
import { primaryKeyOf } from '../../sql/memory-store.ts';
import { CATALOG_KEY, CatalogVersion } from '../../sql/replicated-catalog.ts';
import { encodeRow } from '../../sql/row-codec.ts';
import { rowKey, tablePrefix } from '../../sql/row-key.ts';
import { encodeParams } from '../../sql/wire-values.ts';
import { ReplicaCore, STORAGE_GC_SLICE_KEYS, type ReplicaEffect } from './replica-core.ts';
import { LOAD_IDLE_WINDOWS } from './storage-gc.ts';

// Storage collection (storage-gc.ts, docs/decisions/0017) driven through the replica core: loads that
// commit, abort, roll back or are still running, switches, and time passing the history window.
const S0 = 0 as ShardId;
const keys = Array.from({ length: 6 }, (_, i) => keyPairFromSeed(new Uint8Array(32).fill(i + 1)));
const SEC = 1_000_000;
const WINDOW = 5 * SEC;
const engine = await Engine.create();

const at = (seconds: number, client = 1): Timestamp => ts(Math.round(seconds * SEC), client);

function txnOf(t: Timestamp, writes: readonly WriteEntry[]): Txn {
  const sorted = [...writes].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return encodeTxn({ ts: t, shards: [S0], reads: [], writes: sorted, deps: [], predicates: [], meta: new Uint8Array(0) });
}
function cert(t: Txn, decision: 'commit' | 'abstain'): Certificate {
  const signers = decision === 'commit' ? [0, 1, 2, 3, 4, 5] : [0, 1, 2, 3];
  return { kind: 'votes', votes: { decision, shards: [{ shard: S0, sigs: signers.map((i) => signBatch([voteLeaf(t.digest, S0, decision)], keys[i]!.secretKey, i)[0]!) }] } };
}

/** A replica core on a clock the test moves, with the log records it persisted. */
class Replica {
  now = 1 * SEC;
  readonly log: LogRecord[] = [];
  readonly core: ReplicaCore;
  constructor(restoreFrom?: readonly LogRecord[], now?: number) {
    if (now !== undefined) this.now = now;
    this.core = new ReplicaCore(
      { shard: S0, index: 0 as ReplicaIndex, f: 1, owns: () => true, clockSkewMaxMicros: SEC, gcWindowMicros: WINDOW, engine },
      { nowMicros: () => this.now },
    );
    if (restoreFrom !== undefined) this.core.restore(restoreFrom);
  }
  drain(): ReplicaEffect[] {
    const all: ReplicaEffect[] = [];
    for (let effects = this.core.takeEffects(); effects.length > 0; effects = this.core.takeEffects()) {
      all.push(...effects);
      for (const e of effects) {
        if (e.kind === 'sign') this.core.onSigned(e.ref, signBatch([e.leaf], keys[0]!.secretKey, 0)[0]!);
        if (e.kind === 'persist') this.log.push(e.record);
      }
    }
    return all;
  }
  deliver(msg: Message): void {
    this.core.handle(1, msg);
    this.drain();
  }
  commit(t: Txn): void {
    this.deliver({ kind: 'writeback', digest: t.digest, cert: cert(t, 'commit'), txn: t });
  }
  prepare(t: Txn): void {
    this.deliver({ kind: 'prepare', req: 1, txn: t });
  }
  abort(t: Txn): void {
    this.deliver({ kind: 'writeback', digest: t.digest, cert: cert(t, 'abstain'), txn: t });
  }
  /** Moves the clock and runs the periodic housekeeping (the collector included) until it is done. */
  tick(seconds: number): void {
    this.now = seconds * SEC;
    this.core.onTick();
    while (this.core.storageGc.step(STORAGE_GC_SLICE_KEYS, this.now));
  }
  query(sql: string, t: Timestamp): QueryReply {
    this.core.handle(50, { kind: 'query', req: 7, ts: t, sql, params: encodeParams([]), ownWrites: [], recon: false, retry: 0, snapshot: [] });
    const r = this.drain().flatMap((e) => (e.kind === 'send' && e.msg.kind === 'queryReply' ? [e.msg] : []));
    assert.equal(r.length, 1);
    return r[0]!;
  }
  read(key: Key, t: Timestamp): Uint8Array | null {
    this.core.handle(50, { kind: 'read', req: 1, key, ts: t, proof: false });
    const r = this.drain().flatMap((e) => (e.kind === 'send' && e.msg.kind === 'readReply' ? [e.msg] : []));
    assert.equal(r.length, 1);
    return r[0]!.committed?.value ?? null;
  }
  keysOf(storage: number): number {
    return [...this.core.store.keysInRange(tablePrefix(storage), tablePrefix(storage + 1))].length;
  }
}

const rowsFor = (def: TableDef, from: number, count: number, tag: string): WriteEntry[] =>
  Array.from({ length: count }, (_, i) => {
    const row = [from + i, `${tag}${from + i}`];
    return { key: rowKey(def.id, primaryKeyOf(def, row)), value: encodeRow(def, row) };
  });
/** The heartbeat write of a running load (client/sql/load-batches.ts): a deletion of the bare prefix. */
const heartbeat = (storage: number): WriteEntry => ({ key: tablePrefix(storage), value: null });
const catalogWrite = (cv: CatalogVersion): WriteEntry => ({ key: CATALOG_KEY, value: cv.value() });

/**
 * One history, fed to every replica of a test: table t created by DDL (id 1, 50 rows), truncated into
 * S1 and loaded (300 rows in batches, 5 rows with the publication), a load into S2 rolled back (its
 * batches committed, nothing published), a load into S3 whose publication aborted, a second TRUNCATE
 * into S4 (S1 retired, 200 rows), and a load into S5 still running (batches, then heartbeats).
 */
const S1 = STORAGE_ID_BASE;
const S2 = STORAGE_ID_BASE + 1;
const S3 = STORAGE_ID_BASE + 2;
const S4 = STORAGE_ID_BASE + 3;
const S5 = STORAGE_ID_BASE + 4;
const C1 = CatalogVersion.empty.apply(engine.parse('CREATE TABLE t (id int PRIMARY KEY, v text)').stmts[0]!).next!;
const C2 = C1.withStorage('t', S1);
const C3 = C2.withStorage('t', S4);
const C5 = C3.withStorage('t', S5);
const T0 = C1.catalog.require('t');
const T1 = C2.catalog.require('t');
const T4 = C3.catalog.require('t');
const T5 = C5.catalog.require('t');
const defOf = (id: number): TableDef => ({ ...T1, id, indexes: [] });

const history = {
  ddl: txnOf(at(1), [catalogWrite(C1)]),
  fill: txnOf(at(1.2), rowsFor(T0, 1, 50, 'old')),
  s1Batch1: txnOf(at(2.0, 2), rowsFor(T1, 1, 150, 'a')),
  s1Batch2: txnOf(at(2.1, 2), rowsFor(T1, 151, 150, 'a')),
  s1Publish: txnOf(at(2.5), [catalogWrite(C2), ...rowsFor(T1, 301, 5, 'a')]),
  s2Batch: txnOf(at(3.0, 3), rowsFor(defOf(S2), 1, 120, 'rolled-back')),
  s3Batch: txnOf(at(3.1, 4), rowsFor(defOf(S3), 1, 80, 'aborted')),
  s3Publish: txnOf(at(3.6, 4), [catalogWrite(C2.withStorage('t', S3))]),
  s4Batch: txnOf(at(3.9, 2), rowsFor(T4, 1, 200, 'b')),
  s4Publish: txnOf(at(4.0), [catalogWrite(C3)]),
  s5Batch: txnOf(at(4.2, 5), rowsFor(T5, 1, 90, 'running')),
};

/** Feeds the history up to second 5 (everything decided but S3's publication, which stays prepared). */
function fed(r: Replica): Replica {
  const h = history;
  r.core.onTick(); // up since second 1
  r.now = 4.5 * SEC;
  for (const t of [h.ddl, h.fill, h.s1Batch1, h.s1Batch2, h.s1Publish, h.s2Batch, h.s3Batch, h.s4Batch, h.s4Publish, h.s5Batch]) r.commit(t);
  r.prepare(h.s3Publish);
  return r;
}

/** What a correct client can read at `t`: the table through SQL, and its rows by key. */
function reads(r: Replica, t: Timestamp): unknown {
  const q = r.query('SELECT id, v FROM t ORDER BY id', t);
  const def = CatalogVersion.fromValue(r.read(CATALOG_KEY, t)).catalog.require('t');
  const points = [1, 2, 150, 151, 300, 305].map((id) => r.read(rowKey(def.id, primaryKeyOf(def, [id, ''])), t));
  return { result: q.result, reads: q.reads, points };
}

void describe('storage collection (docs/decisions/0017)', () => {
  void it('keeps every storage a catalog in the history window names, and every load younger than the idle bound', () => {
    const r = fed(new Replica());
    r.tick(5);
    assert.equal(r.core.storageGc.stats.storagesCollected, 0);
    for (const [s, n] of [[1, 50], [S1, 305], [S2, 120], [S3, 80], [S4, 200], [S5, 90]] as const) assert.equal(r.keysOf(s), n, `storage ${s}`);
  });

  void it('collects a storage retired below the low watermark, and only then; reads in the window are unchanged', () => {
    const r = fed(new Replica());
    const twin = fed(new Replica()); // same history, never ticked: nothing collected
    // The switch to S4 (second 4) is inside the window until second 9.
    r.tick(8.9);
    assert.equal(r.keysOf(S1), 305, 'a reader at second 3.9 may still read S1');
    r.tick(9.5);
    assert.equal(r.keysOf(S1), 0, 'S1 retired at second 4, now below the watermark');
    assert.equal(r.keysOf(1), 0, "t's first storage (DDL counter id 1) was retired at second 2.5");
    assert.equal(r.core.store.tableIfAny(S1), undefined, 'its write history and predicates went too');
    assert.equal(r.core.store.tableIfAny(1), undefined);
    assert.equal(r.keysOf(S2), 120, 'rolled-back load: not idle long enough yet');
    assert.equal(r.keysOf(S4), 200);
    assert.deepEqual(r.core.storageGc.stats, { storagesCollected: 2, rowsCollected: 355, latePublications: 0 });
    twin.now = r.now;
    for (const s of [4.6, 6, 9.4]) assert.deepEqual(reads(r, at(s, 9)), reads(twin, at(s, 9)), `reads at second ${s}`);
  });

  void it('collects rolled-back and aborted loads once idle for the bound, never a running or unresolved one', () => {
    const r = fed(new Replica());
    const idle = LOAD_IDLE_WINDOWS * WINDOW / SEC;
    // The running load into S5 keeps beating (client/sql/load-batches.ts) every second.
    for (let s = 5; s <= 3.1 + idle + 1; s++) {
      r.commit(txnOf(at(s, 5), [heartbeat(S5)]));
      r.tick(s + 0.5);
    }
    assert.equal(r.keysOf(S2), 0, 'rolled back: its batch is older than the bound');
    assert.equal(r.keysOf(S3), 80, "S3's publication is still prepared: a catalog in flight names it");
    assert.equal(r.keysOf(S5), 91, 'the running load: 90 rows and its heartbeat key');
    assert.equal(r.keysOf(S4), 200, "the table's storage, last written long ago, stays");
    r.abort(history.s3Publish);
    r.tick(3.1 + idle + 2);
    assert.equal(r.keysOf(S3), 0, 'its publication aborted: collected at the next tick');
    // The load into S5 commits: its rows are the table now.
    r.commit(txnOf(at(r.now / SEC - 0.2), [catalogWrite(C5)]));
    r.tick(r.now / SEC + 0.5);
    assert.equal(r.keysOf(S5), 91);
    const rows = r.query('SELECT count(*) FROM t', at(r.now / SEC - 0.1, 9));
    const twin = fed(new Replica());
    for (let s = 5; s <= 3.1 + idle + 1; s++) twin.commit(txnOf(at(s, 5), [heartbeat(S5)]));
    twin.abort(history.s3Publish);
    twin.commit(txnOf(at(r.now / SEC - 0.7), [catalogWrite(C5)]));
    twin.now = r.now;
    assert.deepEqual(rows.result, twin.query('SELECT count(*) FROM t', at(r.now / SEC - 0.1, 9)).result, 'the published load reads as 90 rows, as without collection');
    assert.equal(r.core.storageGc.stats.latePublications, 0);
  });

  void it('collects a table dropped below the low watermark (its DDL counter id), and only then', () => {
    const CU = C1.apply(engine.parse('CREATE TABLE u (id int PRIMARY KEY, v text)').stmts[0]!).next!;
    const U = CU.catalog.require('u');
    const CD = CU.apply(engine.parse('DROP TABLE u').stmts[0]!).next!;
    assert.ok(U.id < STORAGE_ID_BASE && U.id !== T0.id);
    const feed = (r: Replica): Replica => {
      r.core.onTick();
      r.now = 2.5 * SEC;
      for (const t of [txnOf(at(1), [catalogWrite(C1)]), txnOf(at(1.1), rowsFor(T0, 1, 10, 't')), txnOf(at(1.2), [catalogWrite(CU)]), txnOf(at(1.5), rowsFor(U, 1, 40, 'u')), txnOf(at(2), [catalogWrite(CD)])]) r.commit(t);
      return r;
    };
    const r = feed(new Replica());
    const twin = feed(new Replica());
    r.tick(6.9);
    assert.equal(r.keysOf(U.id), 40, 'the DROP (second 2) is inside the window until second 7');
    r.tick(7.5);
    assert.equal(r.keysOf(U.id), 0, 'dropped below the watermark');
    assert.equal(r.core.store.tableIfAny(U.id), undefined);
    assert.equal(r.keysOf(T0.id), 10, 'the live table stays');
    assert.deepEqual(r.core.storageGc.stats, { storagesCollected: 1, rowsCollected: 40, latePublications: 0 });
    twin.now = r.now;
    const q = (x: Replica): unknown => x.query('SELECT id, v FROM t ORDER BY id', at(2.6, 9)).result;
    assert.deepEqual(q(r), q(twin));
  });

  void it('drops a large storage in bounded slices', () => {
    const r = new Replica();
    r.now = 2 * SEC;
    r.core.onTick(); // up since second 2
    r.commit(history.ddl);
    for (let i = 0; i < 3; i++) r.commit(txnOf(at(1.5, 10 + i), rowsFor(defOf(S2), 1 + i * 4000, 4000, 'x')));
    r.now = 30 * SEC;
    r.core.onTick();
    assert.equal(r.keysOf(S2), 12_000 - STORAGE_GC_SLICE_KEYS, 'one slice per tick');
    assert.equal(r.core.storageGc.pending, true);
    assert.equal(r.core.storageGc.step(1000, r.now), true);
    assert.equal(r.keysOf(S2), 12_000 - STORAGE_GC_SLICE_KEYS - 1000);
    while (r.core.storageGc.step(1000, r.now));
    assert.equal(r.keysOf(S2), 0);
    assert.equal(r.core.storageGc.stats.storagesCollected, 1);
    assert.equal(r.core.storageGc.stats.rowsCollected, 12_000);
    assert.equal(r.core.storageGc.takeCompactionWanted(), true, 'far more dropped than left: compact the log');
    assert.equal(r.core.storageGc.takeCompactionWanted(), false, 'once');
  });

  void it('asks for a log compaction only when it dropped at least a quarter of what the store still holds', () => {
    const r = new Replica();
    r.core.onTick(); // up since second 1
    r.commit(history.ddl);
    r.commit(txnOf(at(1.1), Array.from({ length: 2000 }, (_, i) => ({ key: `kv/${i}`, value: new Uint8Array([1]) }))));
    r.commit(txnOf(at(1.2, 3), rowsFor(defOf(S2), 1, 120, 'rolled-back')));
    r.tick(25);
    assert.equal(r.keysOf(S2), 0);
    assert.equal(r.core.storageGc.takeCompactionWanted(), false, '120 keys dropped, 2,001 left: not worth a rewrite yet');
    r.commit(txnOf(at(26, 3), rowsFor(defOf(S3), 1, 400, 'rolled-back')));
    r.tick(50);
    assert.equal(r.keysOf(S3), 0);
    assert.equal(r.core.storageGc.takeCompactionWanted(), true, '520 dropped since the last compaction');
    assert.equal(r.core.storageGc.takeCompactionWanted(), false, 'once');
  });

  void it('after a restart from the log or from a checkpoint, collected rows stay gone and live rows stay', () => {
    const r = fed(new Replica());
    r.abort(history.s3Publish);
    r.tick(40);
    assert.deepEqual([S1, S2, S3, S4, S5].map((s) => r.keysOf(s)), [0, 0, 0, 200, 0]);
    const live = (x: Replica): unknown => x.query('SELECT id, v FROM t ORDER BY id', at(39, 9)).result;
    // From the compacted log (a checkpoint): nothing of the collected storages comes back.
    const compacted = new Replica(r.core.checkpoint(), 40 * SEC);
    assert.deepEqual([1, S1, S2, S3, S4, S5].map((s) => compacted.keysOf(s)), [0, 0, 0, 0, 200, 0]);
    assert.equal(compacted.core.store.size, r.core.store.size);
    assert.deepEqual(live(compacted), live(r));
    // From the whole log: retired storages go before the replica serves; abandoned loads only once it
    // has been up for the idle bound (it may have missed a running load's heartbeats while down).
    const replayed = new Replica(r.log, 40 * SEC);
    assert.deepEqual([1, S1, S2, S3, S4, S5].map((s) => replayed.keysOf(s)), [0, 0, 120, 80, 200, 90]);
    assert.deepEqual(live(replayed), live(r));
    replayed.tick(40 + LOAD_IDLE_WINDOWS * WINDOW / SEC - 1);
    assert.deepEqual([S2, S3, S5].map((s) => replayed.keysOf(s)), [120, 80, 90]);
    replayed.tick(40 + LOAD_IDLE_WINDOWS * WINDOW / SEC + 1);
    assert.deepEqual([1, S1, S2, S3, S4, S5].map((s) => replayed.keysOf(s)), [0, 0, 0, 0, 200, 0]);
    assert.equal(replayed.core.store.size, r.core.store.size);
    // A checkpoint taken after collection holds no transaction that wrote only collected storages.
    const written = r.core.checkpoint().flatMap((rec) => (rec.kind === 'writeback' ? rec.txn.body.writes.map((w) => w.key) : []));
    assert.ok(!written.some((k) => k.startsWith(tablePrefix(S2)) || k.startsWith(tablePrefix(S3))), 'no aborted load is in the checkpoint');
  });
});
