/**
 * A transaction's size against the cluster's limits (ClientCoreOptions.txnLimits, decision 0072): the
 * read footprint the SQL layer checks statement by statement, and the commit that would send an ST1
 * replicas must refuse undecoded, which fails at once instead of being resent for ever.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { READ_ENTRY_FRAMING_MAX, readEntryBytes, readEntryBytesMax } from '../../protocol/codec-fast-txn.ts';
import type { ShardId } from '../../protocol/ids.ts';
import type { Message, ReadEntry } from '../../protocol/messages.ts';
import { DEFAULT_CODEC_LIMITS } from '../../protocol/codec-txn.ts';
import { ts, ZERO_TS } from '../../protocol/timestamp.ts';
import { dones, keyOn, newClient, Q, sentOf } from './client-core-fixture.ts';
import type { ClientCore } from './client-core.ts';

const rows = (from: number, to: number): ReadEntry[] =>
  Array.from({ length: to - from }, (_, i) => ({ key: keyOn(0, `r${String(from + i).padStart(4, '0')}-`), version: ts(10, 3) })).sort((a, b) => (a.key < b.key ? -1 : 1));

/** Runs one range read on shard 0 whose 3f+1 replies list `reads`. */
function rangeRead(client: ClientCore, id: number, op: number, reads: readonly ReadEntry[]): void {
  client.query(id, { shard: 0 as ShardId, sql: 'SELECT 1', params: new Uint8Array(0), ownWrites: [], recon: false }, op);
  for (const q of sentOf(client.takeEffects(), 'query')) {
    const reply: Message = { kind: 'queryReply', req: q.msg.req, retry: q.msg.retry, result: new Uint8Array([1]), reads, predicates: [], deps: [], snapshotCommitted: [], snapshotPrepared: [] };
    client.handle(q.to, reply);
  }
  assert.equal(dones(client.takeEffects())[0]?.result.kind, 'query');
}

/** The per-key and per-value limits replicas decode with. */
const KEY_VALUE = { keyBytesMax: DEFAULT_CODEC_LIMITS.keyBytesMax, valueBytesMax: DEFAULT_CODEC_LIMITS.valueBytesMax };

/** The bound the client counts. */
const bytesOf = (reads: readonly ReadEntry[]): number => reads.reduce((n, e) => n + readEntryBytesMax(e), 0);

void describe('transaction limits at the client (decision 0072)', () => {
  void it("bounds a read entry's ST1 bytes by its key's length and READ_ENTRY_FRAMING_MAX, up to the largest keys and versions", () => {
    const versions = [ts(0, 0), ts(1, 1), ts(Date.now() * 1000, 127), ts(Number.MAX_SAFE_INTEGER, 2 ** 32 - 1)];
    for (const len of [0, 1, 100, 127, 128, 4096]) {
      for (const version of versions) {
        const e = { key: 'k'.repeat(len), version };
        assert.ok(readEntryBytes(e) <= readEntryBytesMax(e), `key of ${len} bytes at ${JSON.stringify(version)}: ${readEntryBytes(e)}`);
      }
    }
    assert.equal(readEntryBytes({ key: 'k'.repeat(4096), version: ts(Number.MAX_SAFE_INTEGER, 2 ** 32 - 1) }), 4096 + READ_ENTRY_FRAMING_MAX, 'the bound is tight');
  });

  void it('counts what reads add to the ST1, and counts a key two range reads share once when asked to be exact', () => {
    const client = newClient();
    const id = client.begin();
    const a = rows(0, 30);
    const b = rows(20, 50);
    rangeRead(client, id, 1, a);
    rangeRead(client, id, 2, b);
    assert.deepEqual(client.readFootprint(id), { entries: 60, bytes: bytesOf(a) + bytesOf(b) });
    const distinct = rows(0, 50);
    assert.deepEqual(client.readFootprint(id, true), { entries: 50, bytes: bytesOf(distinct) });
    // The merged run is what the commit sends: the same 50 reads.
    client.commit(id, 3);
    const prepare = sentOf(client.takeEffects(), 'prepare')[0]!;
    assert.deepEqual(prepare.msg.txn.body.reads.map((e) => e.key), distinct.map((e) => e.key));
    assert.equal(client.readFootprint(id), null, 'not active once committing');
  });

  void it('fails a commit past limits.txnKeysMax or the body budget at once, sending nothing', () => {
    const tooMany = newClient({ txnLimits: { keysMax: 2, bodyBytesMax: 1 << 20, ...KEY_VALUE } });
    const id = tooMany.begin();
    for (const k of ['x1', 'x2', 'x3']) tooMany.write(id, keyOn(0, k), new Uint8Array([1]));
    tooMany.commit(id, 1);
    const effects = tooMany.takeEffects();
    assert.deepEqual(sentOf(effects, 'prepare'), []);
    assert.deepEqual(dones(effects), [{ op: 1, result: { kind: 'failed', reason: 'too-large', detail: 'it writes 3 rows (limits.txnKeysMax: 2)' } }]);

    const reads = newClient({ txnLimits: { keysMax: 10, bodyBytesMax: 1 << 20, ...KEY_VALUE } });
    const r = reads.begin();
    rangeRead(reads, r, 1, rows(0, 11));
    reads.commit(r, 2);
    assert.match(String((dones(reads.takeEffects())[0]?.result as { detail?: string }).detail), /^it reads 11 rows/);

    const big = newClient({ txnLimits: { keysMax: 10, bodyBytesMax: 2048, ...KEY_VALUE } });
    const w = big.begin();
    big.write(w, keyOn(0, 'y'), new Uint8Array(4096));
    big.commit(w, 1);
    const out = big.takeEffects();
    assert.deepEqual(sentOf(out, 'prepare'), []);
    assert.match(String((dones(out)[0]?.result as { detail?: string }).detail), /^it takes 5 KiB \(limits\.messageBytesMax leaves 2 KiB\)$/);
    assert.equal(big.stats.abandoned, 1);

    // Within the limits the same commit goes out to every replica.
    const fits = newClient({ txnLimits: { keysMax: 10, bodyBytesMax: 8192, ...KEY_VALUE } });
    const f = fits.begin();
    fits.write(f, keyOn(0, 'y'), new Uint8Array(4096));
    fits.commit(f, 1);
    assert.equal(sentOf(fits.takeEffects(), 'prepare').length, Q.n);
  });

  void it('fails a commit writing a key or a value replicas would refuse, sending nothing', () => {
    const c = newClient({ txnLimits: { keysMax: 10, bodyBytesMax: 1 << 20, keyBytesMax: 64, valueBytesMax: 1024 } });
    const long = c.begin();
    c.write(long, keyOn(0, 'k'.repeat(70)), new Uint8Array([1]));
    c.commit(long, 1);
    let out = c.takeEffects();
    assert.deepEqual(sentOf(out, 'prepare'), []);
    assert.match(String((dones(out)[0]?.result as { detail?: string }).detail), /^it writes a key of \d+ bytes \(at most 64/);
    const big = c.begin();
    c.write(big, keyOn(0, 'v'), new Uint8Array(2048));
    c.commit(big, 2);
    out = c.takeEffects();
    assert.deepEqual(sentOf(out, 'prepare'), []);
    assert.match(String((dones(out)[0]?.result as { detail?: string }).detail), /^it writes a value of 2 KiB \(at most 1 KiB\)$/);
  });

  void it('fails a range read whose statement or parameters replicas would refuse, sending nothing', () => {
    const c = newClient({ txnLimits: { keysMax: 10, bodyBytesMax: 1 << 20, keyBytesMax: 64, valueBytesMax: 1024 } });
    const id = c.begin();
    c.query(id, { shard: 0 as ShardId, sql: 'x'.repeat((1 << 20) + 1), params: new Uint8Array(0), ownWrites: [], recon: false }, 1);
    c.query(id, { shard: 0 as ShardId, sql: 'SELECT 1', params: new Uint8Array(2048), ownWrites: [], recon: false }, 2);
    const out = c.takeEffects();
    assert.deepEqual(sentOf(out, 'query'), []);
    assert.deepEqual(dones(out).map((d) => (d.result as { detail?: string }).detail), ['a statement of 1048577 characters (at most 1048576)', 'parameters of 2 KiB (at most 1 KiB)']);
  });

  void it('reads a key too long to be written as absent, asking no replica and recording no read', () => {
    const c = newClient({ txnLimits: { keysMax: 10, bodyBytesMax: 1 << 20, keyBytesMax: 64, valueBytesMax: 1024 } });
    const id = c.begin();
    c.read(id, keyOn(0, 'k'.repeat(70)), 1);
    const out = c.takeEffects();
    assert.deepEqual(sentOf(out, 'read'), []);
    assert.deepEqual(dones(out), [{ op: 1, result: { kind: 'read', value: null, version: ZERO_TS } }]);
    assert.deepEqual(c.readFootprint(id), { entries: 0, bytes: 0 });
  });
});
