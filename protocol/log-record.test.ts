import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { decodeMessage, encodeMessage, encodeTxn } from './codec.ts';
import { pesto } from './gen/pesto.js';
import type { ShardId } from './ids.ts';
import { decodeLogRecord, encodeLogRecord, logRecordFields, type LogRecord, type RecordRoom } from './log-record.ts';
import type { Txn, Writeback } from './messages.ts';
import { ts } from './timestamp.ts';

const s0 = 0 as ShardId;
const txnAt = (micros: number): Txn =>
  encodeTxn({ ts: ts(micros, 1), shards: [s0], reads: [], writes: [{ key: 'k', value: new Uint8Array([micros & 0xff]) }], deps: [], predicates: [], meta: new Uint8Array(0) });
const sig = { signer: 1, rootSignature: new Uint8Array(64).fill(3), index: 0, path: new Uint8Array(32).fill(4) };
const wbOf = (t: Txn, withTxn: boolean): Writeback => ({ kind: 'writeback', digest: t.digest, cert: { kind: 'st2', st2: { decision: 'commit', logShard: s0, view: 0, sigs: [sig] } }, txn: withTxn ? t : null });

function roundTrip(r: LogRecord): LogRecord {
  const back = decodeLogRecord(encodeLogRecord(r));
  assert.ok(back.ok, back.ok ? '' : back.reason);
  return back.value;
}

void describe('log records', () => {
  void it('keep a writeback that arrived without its transaction, with the transaction beside it', () => {
    const t = txnAt(10);
    const back = roundTrip({ kind: 'writeback', writeback: wbOf(t, false), txn: t });
    assert.ok(back.kind === 'writeback');
    assert.equal(back.txn.key, t.key);
    assert.equal(back.writeback.txn, null);
    assert.equal(encodeMessage(back.writeback).length, encodeMessage(wbOf(t, false)).length);
  });

  void it('keep a writeback that carried its transaction', () => {
    const t = txnAt(11);
    const back = roundTrip({ kind: 'writeback', writeback: wbOf(t, true), txn: t });
    assert.ok(back.kind === 'writeback');
    assert.equal(back.txn.key, t.key);
    assert.equal(back.writeback.txn?.key, t.key);
  });

  void it('decode whatever the replica logged, past the default codec limits (a 120,000-row transaction of limits.txnKeysMax 250,000)', () => {
    const writes = Array.from({ length: 120_000 }, (_, i) => ({ key: `row${String(i).padStart(6, '0')}`, value: new Uint8Array([i & 0xff]) }));
    const t = encodeTxn({ ts: ts(20, 1), shards: [s0], reads: [], writes, deps: [], predicates: [], meta: new Uint8Array(0) });
    for (const withTxn of [false, true]) {
      const back = roundTrip({ kind: 'writeback', writeback: wbOf(t, withTxn), txn: t });
      assert.ok(back.kind === 'writeback');
      assert.equal(back.txn.body.writes.length, 120_000);
    }
    const vote = roundTrip({ kind: 'vote', txn: t, decision: 'commit', conflict: null });
    assert.equal(vote.txn.key, t.key);
  });

  void it('log a received writeback with the bytes it came in', () => {
    const t = txnAt(12);
    const wire = encodeMessage(wbOf(t, false));
    const decoded = decodeMessage(wire);
    assert.ok(decoded.ok);
    assert.equal(encodeMessage(decoded.value), wire, 'no re-encoding');
  });

  void it('are written byte for byte as protobufjs writes them', () => {
    const t = txnAt(20);
    const records: LogRecord[] = [
      { kind: 'vote', txn: t, decision: 'commit', conflict: null },
      { kind: 'vote', txn: t, decision: 'abstain', conflict: null },
      { kind: 'vote', txn: t, decision: 'abort', conflict: { txn: txnAt(21), cert: { kind: 'st2', st2: { decision: 'commit', logShard: s0, view: 0, sigs: [sig] } } } },
      { kind: 'st2', txn: t, decision: 'abort', view: 300, logShard: 2 as ShardId },
      { kind: 'st2', txn: t, decision: 'commit', view: 0, logShard: s0 },
      { kind: 'writeback', writeback: wbOf(t, false), txn: t },
      { kind: 'writeback', writeback: wbOf(t, true), txn: t },
    ];
    for (const r of records) assert.deepEqual(Array.from(encodeLogRecord(r)), Array.from(pesto.LogRecord.encode(logRecordFields(r)).finish()), r.kind);
  });

  void it('are the same bytes when written into a reused room holding stale bytes, records large and small in turn', () => {
    let buf = Buffer.alloc(64, 0xee);
    const scratch: RecordRoom = {
      room(size: number): Buffer {
        if (size > buf.length) buf = Buffer.alloc(size + 100, 0xee);
        return buf;
      },
    };
    const big = encodeTxn({ ts: ts(30, 1), shards: [s0], reads: [], writes: [{ key: 'big', value: new Uint8Array(9000).fill(5) }], deps: [], predicates: [], meta: new Uint8Array(0) });
    const records: LogRecord[] = [
      { kind: 'vote', txn: txnAt(31), decision: 'commit', conflict: null },
      { kind: 'writeback', writeback: wbOf(big, true), txn: big },
      { kind: 'st2', txn: txnAt(32), decision: 'abort', view: 7, logShard: s0 },
      { kind: 'writeback', writeback: wbOf(txnAt(33), false), txn: txnAt(33) },
    ];
    for (const r of records) assert.deepEqual(Array.from(encodeLogRecord(r, scratch)), Array.from(encodeLogRecord(r)), r.kind);
  });

  void it('refuse a writeback logged beside another transaction', () => {
    const t = txnAt(13);
    const bytes = pesto.LogRecord.encode({ kind: 3, txn: txnAt(14).bytes, message: encodeMessage(wbOf(t, false)) }).finish();
    const back = decodeLogRecord(bytes);
    assert.ok(!back.ok);
    assert.equal(back.reason, 'digest-mismatch');
  });
});
