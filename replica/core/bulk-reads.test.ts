import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { encodeTxn } from '../../protocol/codec.ts';
import { keyPairFromSeed } from '../../protocol/crypto/ed25519.ts';
import { signBatch } from '../../protocol/crypto/signed.ts';
import type { ReplicaIndex, ShardId } from '../../protocol/ids.ts';
import type { Certificate, Message, ReadEntry, Txn, TxnBody } from '../../protocol/messages.ts';
import { voteLeaf } from '../../protocol/statements.ts';
import { ts, ZERO_TS, type Timestamp } from '../../protocol/timestamp.ts';
import { BULK_READS_MIN } from './bulk-reads.ts';
import { ReplicaCore, type ReplicaEffect } from './replica-core.ts';

// Step 5 (PROTOCOL §5) against readers of large read sets, recorded once per transaction (decision
// 0028), must answer what per-key records answer: every scenario runs with a read set one entry below
// the threshold (per-key records) and at it (one record).
const S0 = 0 as ShardId;
const NOW = 10_000_000;
const keys = Array.from({ length: 6 }, (_, i) => keyPairFromSeed(new Uint8Array(32).fill(i + 1)));
const at = (micros: number, client = 1): Timestamp => ts(NOW - 1_000_000 + micros, client);

function txnOf(t: Timestamp, over: Partial<TxnBody>): Txn {
  return encodeTxn({ ts: t, shards: [S0], reads: [], writes: [], deps: [], predicates: [], meta: new Uint8Array(0), ...over });
}

function cert(t: Txn, decision: 'commit' | 'abstain'): Certificate {
  const signers = decision === 'commit' ? keys : keys.slice(0, 4);
  return { kind: 'votes', votes: { decision, shards: [{ shard: S0, sigs: signers.map((k, i) => signBatch([voteLeaf(t.digest, S0, decision)], k.secretKey, i)[0]!) }] } };
}

function newCore(): ReplicaCore {
  return new ReplicaCore({ shard: S0, index: 0 as ReplicaIndex, f: 1, owns: () => true, clockSkewMaxMicros: 1_000_000, gcWindowMicros: 5_000_000 }, { nowMicros: () => NOW });
}

/** Handles `msg`, signs what the core asks to sign, returns the prepare replies. */
function run(core: ReplicaCore, msg: Message): Extract<Message, { kind: 'prepareReply' }>[] {
  core.handle(1, msg);
  const out: Extract<Message, { kind: 'prepareReply' }>[] = [];
  for (let effects: ReplicaEffect[] = core.takeEffects(); effects.length > 0; effects = core.takeEffects()) {
    for (const e of effects) {
      if (e.kind === 'sign') core.onSigned(e.ref, signBatch([e.leaf], keys[0]!.secretKey, 0)[0]!);
      if (e.kind === 'send' && e.msg.kind === 'prepareReply') out.push(e.msg);
    }
  }
  return out;
}

const vote = (core: ReplicaCore, t: Txn): Extract<Message, { kind: 'prepareReply' }> => run(core, { kind: 'prepare', req: 1, txn: t })[0]!;

/** A reader at `readerAt` of `size` keys r000.. (r010 read at version `v10`, the others at version 0). */
function reader(size: number, readerAt: Timestamp, v10: Timestamp = ZERO_TS): Txn {
  const reads: ReadEntry[] = [];
  for (let i = 0; i < size; i++) reads.push({ key: `r${String(i).padStart(3, '0')}`, version: i === 10 ? v10 : ZERO_TS });
  return txnOf(readerAt, { reads });
}

const writer = (t: Timestamp, key: string): Txn => txnOf(t, { writes: [{ key, value: new Uint8Array([1]) }] });

for (const size of [BULK_READS_MIN - 1, BULK_READS_MIN]) {
  const form = size < BULK_READS_MIN ? 'per-key records' : 'one record per transaction';
  void describe(`step 5 against a reader of ${size} keys (${form})`, () => {
    void it('aborts an older writer of a key the committed reader read, with the reader as proof; others commit', () => {
      const core = newCore();
      const r = reader(size, at(100));
      assert.equal(vote(core, r).decision, 'commit');
      run(core, { kind: 'writeback', digest: r.digest, cert: cert(r, 'commit'), txn: null });
      const older = vote(core, writer(at(50, 2), 'r040'));
      assert.equal(older.decision, 'abort');
      assert.equal(older.conflict?.txn.key, r.key);
      assert.equal(vote(core, writer(at(150, 2), 'r041')).decision, 'commit', 'a writer above the reader');
      assert.equal(vote(core, writer(at(60, 2), 'q000')).decision, 'commit', 'a key the reader did not read');
      assert.equal(vote(core, writer(at(70, 2), 'r999')).decision, 'commit', 'a key past the read set');
      const chains = core.store.get('r040');
      assert.equal(chains?.committedReads.length ?? 0, size < BULK_READS_MIN ? 1 : 0);
      assert.equal(core.store.bulkReads.size.committed, size < BULK_READS_MIN ? 0 : 1);
    });

    void it('lets a writer below the reader commit when the reader read a version above it', () => {
      const core = newCore();
      const r = reader(size, at(100), at(80, 3));
      vote(core, r);
      run(core, { kind: 'writeback', digest: r.digest, cert: cert(r, 'commit'), txn: null });
      assert.equal(vote(core, writer(at(70, 2), 'r010')).decision, 'commit', 'the reader saw a version newer than this write');
      assert.equal(vote(core, writer(at(90, 2), 'r010')).decision, 'abort', 'between the version read and the reader');
    });

    void it('makes an older writer abstain while the reader is prepared, and forgets the reader once it aborts', () => {
      const core = newCore();
      const r = reader(size, at(100));
      vote(core, r);
      const w1 = vote(core, writer(at(50, 2), 'r020'));
      assert.equal(w1.decision, 'abstain');
      assert.deepEqual(w1.conflictPrepared?.digest, r.digest, 'the prepared reader is named');
      run(core, { kind: 'writeback', digest: r.digest, cert: cert(r, 'abstain'), txn: null });
      assert.equal(vote(core, writer(at(51, 2), 'r020')).decision, 'commit');
      assert.equal(core.store.bulkReads.size.prepared, 0);
      assert.equal(core.store.get('r020')?.preparedReads.length ?? 0, 0);
    });

    void it('keeps the committed reader across a checkpoint and restore', () => {
      const core = newCore();
      const r = reader(size, at(100));
      vote(core, r);
      run(core, { kind: 'writeback', digest: r.digest, cert: cert(r, 'commit'), txn: null });
      const fresh = newCore();
      fresh.restore(core.checkpoint());
      const older = vote(fresh, writer(at(50, 2), 'r030'));
      assert.equal(older.decision, 'abort');
      assert.equal(older.conflict?.txn.key, r.key);
    });
  });
}
