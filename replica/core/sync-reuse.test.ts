import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { encodeMessage } from '../../protocol/codec.ts';
import type { QueryReply, SnapshotEntry } from '../../protocol/messages.ts';
import { type Timestamp } from '../../protocol/timestamp.ts';
import { CATALOG_KEY } from '../../sql/replicated-catalog.ts';
import type { Row, SqlValue } from '../../sql/types.ts';
import type { ReplicaCore } from './replica-core.ts';
import { S0, tsAt, DDL, catalogAfter, acct, keyOf, rowWrite, acctRow, txnOf, abortCert, committed, DDL_TXN, drain, loadedCore, query, ask, rowsOf } from './range-reads.testkit.ts';

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
