/**
 * The hand-written codec (codec-fast.ts) against the generic protobufjs path: the same bytes out,
 * the same messages in, and never an acceptance where the generic path refuses (decision 0011).
 * Messages are generated from a seeded PRNG; the fuzz part mutates valid encodings.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { decodeGeneric, decodeMessage, encodeGeneric, encodeMessage, encodeTxn } from './codec.ts';
import { fastDecode, fastDecodeTxn, fastEncode, fastEncodeBody } from './codec-fast.ts';
import { bodyOut, DEFAULT_CODEC_LIMITS, decodeTxn, type CodecLimits } from './codec-txn.ts';
import { pesto } from './gen/pesto.js';
import type { ShardId, TxnDigest } from './ids.ts';
import type { Certificate, CommittedTxn, Message, SigProof, Txn, TxnBody, VoteCert, WriteEntry } from './messages.ts';
import type { Timestamp } from './timestamp.ts';
import { DecoderAgreement } from './mutation.testkit.ts';
import { plain } from './plain.testkit.ts';

/** mulberry32 */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

class Gen {
  readonly r: () => number;
  constructor(seed: number) {
    this.r = prng(seed);
  }
  int(n: number): number {
    return Math.floor(this.r() * n);
  }
  chance(p: number): boolean {
    return this.r() < p;
  }
  bytes(n: number): Uint8Array {
    const b = new Uint8Array(n);
    for (let i = 0; i < n; i++) b[i] = this.int(256);
    return b;
  }
  /** Small and large numbers, zero included (proto3 leaves zeros out). */
  u32(): number {
    const k = this.int(4);
    return k === 0 ? 0 : k === 1 ? this.int(128) : k === 2 ? this.int(1 << 20) : this.int(0xffff_ffff);
  }
  ts(): Timestamp {
    const k = this.int(3);
    return { micros: k === 0 ? 0 : k === 1 ? this.int(1000) : 1_760_000_000_000_000 + this.int(1e9), clientId: this.u32() };
  }
  key(): string {
    const n = this.int(3) === 0 ? 0 : 1 + this.int(40);
    let s = '';
    for (let i = 0; i < n; i++) s += String.fromCharCode(this.int(256));
    return s;
  }
  value(): Uint8Array | null {
    return this.chance(0.2) ? null : this.bytes(this.int(3) === 0 ? 0 : this.int(200));
  }
  sortedKeys(n: number): string[] {
    return [...new Set(Array.from({ length: n }, () => this.key()))].sort();
  }
  body(): TxnBody {
    const shards = [...new Set(Array.from({ length: 1 + this.int(3) }, () => this.int(4)))].sort((a, b) => a - b) as ShardId[];
    const writes: WriteEntry[] = this.sortedKeys(this.int(4)).map((key) => ({ key, value: this.value() }));
    return {
      ts: this.ts(),
      shards,
      reads: this.sortedKeys(this.int(4)).map((key) => ({ key, version: this.ts() })),
      writes,
      deps: Array.from({ length: this.int(3) }, () => ({ digest: this.bytes(32) as TxnDigest, shard: this.int(3) as ShardId, ts: this.ts() })),
      predicates: Array.from({ length: this.int(2) }, () => ({ table: this.u32(), tableVersion: this.ts(), expr: this.bytes(this.int(20)) })),
      meta: this.bytes(this.int(3) === 0 ? this.int(10) : 0),
    };
  }
  txn(): Txn {
    return encodeTxn(this.body());
  }
  sig(): SigProof {
    const base = { signer: this.int(6), rootSignature: this.bytes(64), index: this.int(40), path: this.bytes(32 * this.int(6)) };
    return this.chance(0.5) ? { ...base, macs: this.bytes(16 * 6) } : base;
  }
  voteCert(decision: 'commit' | 'abstain'): VoteCert {
    return { decision, shards: Array.from({ length: 1 + this.int(2) }, () => ({ shard: this.int(3) as ShardId, sigs: Array.from({ length: this.int(7) }, () => this.sig()) })) };
  }
  committed(): CommittedTxn {
    const txn = this.txn();
    return this.chance(0.5)
      ? { txn, cert: { kind: 'votes', votes: this.voteCert('commit') } }
      : { txn, cert: { kind: 'st2', st2: { decision: 'commit', logShard: this.int(3) as ShardId, view: this.int(3), sigs: Array.from({ length: 5 }, () => this.sig()) } } };
  }
  cert(): Certificate {
    const k = this.int(3);
    if (k === 0) return { kind: 'votes', votes: this.voteCert(this.chance(0.5) ? 'commit' : 'abstain') };
    if (k === 1) return { kind: 'st2', st2: { decision: this.chance(0.5) ? 'commit' : 'abort', logShard: this.int(3) as ShardId, view: this.u32(), sigs: Array.from({ length: this.int(6) }, () => this.sig()) } };
    return { kind: 'conflict', conflict: this.committed() };
  }
  message(): Message {
    const req = this.u32() & 0x7fff_ffff;
    switch (this.int(5)) {
      case 0:
        return { kind: 'read', req, key: this.key(), ts: this.ts(), proof: this.chance(0.3) };
      case 1: {
        const proof = this.chance(0.5) ? this.committed() : null;
        return {
          kind: 'readReply',
          req,
          key: this.key(),
          committed: this.chance(0.7) ? { version: this.ts(), value: this.value(), digest: (proof?.txn.digest ?? this.bytes(32)) as TxnDigest, proof } : null,
          prepared: this.chance(0.4) ? { version: this.ts(), value: this.value(), digest: this.bytes(32) as TxnDigest } : null,
        };
      }
      case 2:
        return { kind: 'prepare', req, txn: this.txn() };
      case 3: {
        const txn = this.txn();
        const k = this.int(4);
        const shard = this.int(3) as ShardId;
        if (k === 0) return { kind: 'prepareReply', req, digest: txn.digest, shard, decision: 'commit', sig: this.sig(), conflict: null, decided: null, conflictPrepared: null };
        if (k === 1) return { kind: 'prepareReply', req, digest: txn.digest, shard, decision: 'abstain', sig: this.sig(), conflict: null, decided: null, conflictPrepared: this.chance(0.5) ? this.txn() : null };
        if (k === 2) return { kind: 'prepareReply', req, digest: txn.digest, shard, decision: 'abort', sig: null, conflict: this.committed(), decided: null, conflictPrepared: null };
        return { kind: 'prepareReply', req, digest: txn.digest, shard, decision: 'commit', sig: null, conflict: null, decided: { kind: 'writeback', digest: txn.digest, cert: this.cert(), txn: this.chance(0.5) ? txn : null }, conflictPrepared: null };
      }
      default: {
        const txn = this.txn();
        return { kind: 'writeback', digest: txn.digest, cert: this.cert(), txn: this.chance(0.5) ? txn : null };
      }
    }
  }
}

const LIMITS: CodecLimits = { ...DEFAULT_CODEC_LIMITS, shardCount: 3, replicasPerShard: 6 };

void describe('codec-fast against protobufjs', () => {
  void it('encodes every commit-path message to the same bytes', () => {
    const g = new Gen(1);
    for (let i = 0; i < 3000; i++) {
      const m = g.message();
      assert.deepEqual(Array.from(fastEncode(m)!), Array.from(encodeGeneric(m)), `message ${i} (${m.kind})`);
    }
  });

  void it('encodes transaction bodies to the same bytes', () => {
    const g = new Gen(2);
    for (let i = 0; i < 3000; i++) {
      const b = g.body();
      assert.deepEqual(Array.from(fastEncodeBody(b)), Array.from(pesto.TxnBody.encode(bodyOut(b)).finish()), `body ${i}`);
    }
  });

  void it('decodes them to the same messages', () => {
    const g = new Gen(3);
    let fast = 0;
    for (let i = 0; i < 3000; i++) {
      const bytes = encodeGeneric(g.message());
      for (const limits of [DEFAULT_CODEC_LIMITS, LIMITS]) {
        const generic = decodeGeneric(bytes, limits);
        const f = fastDecode(bytes, limits);
        if (f === undefined) {
          assert.ok(!generic.ok || limits === LIMITS, `message ${i}: the fast path refused a message the generic path took`);
          continue;
        }
        fast++;
        assert.ok(generic.ok, `message ${i}: fast path accepted what the generic path refuses (${generic.ok ? '' : generic.reason})`);
        assert.deepEqual(plain(f), plain(generic.value), `message ${i}`);
      }
    }
    assert.ok(fast > 3000, `only ${fast} took the fast path`);
  });

  void it('never accepts a mutated encoding the generic path refuses, and agrees when both accept', () => {
    const g = new Gen(4);
    const agreement = new DecoderAgreement();
    for (let i = 0; i < 20_000; i++) {
      const bytes = new Uint8Array(encodeGeneric(g.message()));
      const k = g.int(4);
      let mutated: Uint8Array;
      if (k === 0) mutated = bytes.subarray(0, g.int(bytes.length + 1));
      else if (k === 1) {
        mutated = bytes.slice();
        for (let j = 0; j < 1 + g.int(3); j++) mutated[g.int(mutated.length)] = g.int(256);
      } else if (k === 2) {
        mutated = bytes.slice();
        const at = g.int(mutated.length);
        mutated[at] = mutated[at]! ^ (1 << g.int(8));
      } else {
        // an extra field after the body: an unknown one, or a second body
        mutated = new Uint8Array([...bytes, 0x08 + 8 * g.int(12), g.int(128)]);
      }
      agreement.check(i, decodeGeneric(mutated, LIMITS), fastDecode(mutated, LIMITS));
    }
    agreement.assertExercised();
  });

  void it('decodes transactions like the generic path', () => {
    const g = new Gen(5);
    for (let i = 0; i < 2000; i++) {
      const t = g.txn();
      const f = fastDecodeTxn(t.bytes, DEFAULT_CODEC_LIMITS);
      assert.ok(f !== undefined);
      assert.deepEqual(plain(f), plain(t));
      const back = decodeTxn(t.bytes);
      assert.ok(back.ok);
      assert.equal(back.value.key, t.key);
    }
  });

  void it('shares one timestamp between neighbouring read entries of equal versions, and only then', () => {
    const v = (micros: number, clientId: number): Timestamp => ({ micros, clientId });
    const reads = [v(5, 1), v(5, 1), v(5, 2), v(5, 2), v(7, 2), v(5, 2)].map((version, i) => ({ key: `k${i}`, version }));
    const t = encodeTxn({ ts: v(9, 3), shards: [0 as ShardId], reads, writes: [], deps: [], predicates: [], meta: new Uint8Array(0) });
    const got = fastDecodeTxn(t.bytes, DEFAULT_CODEC_LIMITS)!.body.reads.map((r) => r.version);
    assert.deepEqual(got, reads.map((r) => r.version));
    assert.equal(got[0], got[1]);
    assert.equal(got[2], got[3]);
    assert.notEqual(got[1], got[2]);
    assert.notEqual(got[3], got[4]);
    assert.notEqual(got[4], got[5]);
  });

  void it('is what decodeMessage and encodeMessage use', () => {
    const g = new Gen(6);
    for (let i = 0; i < 200; i++) {
      const m = g.message();
      const bytes = encodeMessage(m);
      const back = decodeMessage(bytes, LIMITS);
      const generic = decodeGeneric(bytes, LIMITS);
      assert.deepEqual(plain(back), plain(generic));
    }
  });
});
