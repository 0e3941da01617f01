/**
 * The hand-written range read reply codec (codec-fast.ts `fastEncodeQueryReply`, `fastDecodeQueryReply`)
 * against protobufjs: the same bytes out, the same messages in, and never an acceptance where the
 * generic path refuses (the contract of decision 0011, applied by decision 0015).
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { decodeGeneric, decodeMessage, encodeGeneric, encodeMessage } from './codec.ts';
import { fastDecodeQueryReply, fastEncodeQueryReply } from './codec-fast.ts';
import { holdsAt } from './codec-fast-wire.ts';
import { DecoderAgreement, mutationOf } from './mutation.testkit.ts';
import { plain } from './plain.testkit.ts';
import { DEFAULT_CODEC_LIMITS, type CodecLimits } from './codec-txn.ts';
import type { ShardId, TxnDigest } from './ids.ts';
import type { QueryReply, ReadEntry } from './messages.ts';
import { encodeTxn } from './codec-txn.ts';
import { queryBodyDigest } from './query-digest.ts';
import type { Timestamp } from './timestamp.ts';

/** A reply drawn from `seed` (xorshift32), zeros and empty fields included (proto3 leaves them out). */
function reply(seed: number): QueryReply {
  let s = seed * 2654435761 + 1;
  const int = (n: number): number => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) % n;
  };
  const bytes = (n: number): Uint8Array => Uint8Array.from({ length: n }, () => int(256));
  const ts = (): Timestamp => ({ micros: int(3) === 0 ? 0 : 1_760_000_000_000_000 + int(1e9), clientId: int(3) === 0 ? 0 : int(1 << 20) });
  const keys = new Set<string>();
  for (let i = int(40); i > 0; i--) keys.add(String.fromCharCode(...bytes(int(3) === 0 ? 0 : 1 + int(20))));
  return {
    kind: 'queryReply',
    req: int(4) === 0 ? 0 : int(1 << 30),
    retry: int(3),
    result: bytes(1 + int(300)),
    reads: [...keys].sort().map((key) => ({ key, version: ts() })),
    predicates: Array.from({ length: int(3) }, () => ({ table: int(3) === 0 ? 0 : int(1000), tableVersion: ts(), expr: bytes(int(40)) })),
    deps: Array.from({ length: int(3) }, () => ({ digest: bytes(32) as TxnDigest, shard: int(3) as ShardId, ts: ts() })),
    snapshotCommitted: Array.from({ length: int(5) }, () => bytes(32) as TxnDigest),
    snapshotPrepared: Array.from({ length: int(3) }, () => bytes(32) as TxnDigest),
    // Every fifth a digest-only reply (decision 0027): its result and reads travel as their digest.
    ...(int(5) === 0 ? { digestOnly: true } : {}),
  };
}

const LIMITS: CodecLimits = { ...DEFAULT_CODEC_LIMITS, shardCount: 3, replicasPerShard: 6, entriesMax: 30 };

void describe('range read reply codec against protobufjs', () => {
  void it('encodes replies to the same bytes', () => {
    for (let i = 0; i < 2000; i++) {
      const m = reply(i);
      assert.deepEqual(Array.from(fastEncodeQueryReply(m)), Array.from(encodeGeneric(m)), `reply ${i}`);
    }
  });

  void it('decodes them to the same replies, and refuses only what the generic path refuses or leaves to it', () => {
    let fast = 0;
    for (let i = 0; i < 2000; i++) {
      const bytes = encodeGeneric(reply(i));
      for (const limits of [DEFAULT_CODEC_LIMITS, LIMITS]) {
        const generic = decodeGeneric(bytes, limits);
        const f = fastDecodeQueryReply(bytes, limits);
        if (f === undefined) {
          assert.ok(!generic.ok, `reply ${i}: the fast path refused a reply the generic path took`);
          continue;
        }
        fast++;
        assert.ok(generic.ok, `reply ${i}: accepted what the generic path refuses`);
        assert.deepEqual(plain(f), plain(generic.value), `reply ${i}`);
      }
    }
    assert.ok(fast > 2000, `only ${fast} took the fast path`);
  });

  void it('never accepts a mutated encoding the generic path refuses, and agrees when both accept', () => {
    const agreement = new DecoderAgreement();
    for (let i = 0; i < 20_000; i++) {
      const mutated = mutationOf(new Uint8Array(encodeGeneric(reply(i))), i);
      agreement.check(i, decodeGeneric(mutated, LIMITS), fastDecodeQueryReply(mutated, LIMITS));
    }
    agreement.assertExercised();
  });

  void it('is what decodeMessage and encodeMessage use', () => {
    for (let i = 0; i < 200; i++) {
      const m = reply(i);
      const bytes = encodeMessage(m);
      assert.deepEqual(Array.from(bytes), Array.from(encodeGeneric(m)));
      assert.deepEqual(plain(decodeMessage(bytes, LIMITS)), plain(decodeGeneric(bytes, LIMITS)));
    }
  });
});

void describe('digest-only range read replies (decision 0027)', () => {
  const full = { ...reply(11), digestOnly: false };
  const digestReply: QueryReply = { ...full, digestOnly: true };

  void it('travel as the digest of the full reply\'s result and read set, predicates and votes intact', () => {
    const d = decodeMessage(encodeMessage(digestReply), LIMITS);
    assert.ok(d.ok && d.value.kind === 'queryReply');
    const m = d.value;
    assert.deepEqual(Array.from(m.bodyDigest ?? []), Array.from(queryBodyDigest(full.result, full.reads)));
    assert.equal(m.result.length, 0);
    assert.equal(m.reads.length, 0);
    assert.deepEqual(plain(m.predicates), plain(full.predicates));
    assert.deepEqual(plain(m.snapshotCommitted), plain(full.snapshotCommitted));
    // Re-encoded, a decoded digest reply gives the same bytes (the digest it carries is not recomputed).
    assert.deepEqual(Array.from(encodeMessage(m)), Array.from(encodeMessage(digestReply)));
    assert.ok(encodeMessage(m).length < encodeMessage(full).length);
  });

  void it('differ whenever the result or any read entry differs', () => {
    const base = queryBodyDigest(full.result, full.reads);
    const otherResult = full.result.slice();
    otherResult[0] = otherResult[0]! ^ 1;
    const variants: [string, Uint8Array][] = [
      ['result', queryBodyDigest(otherResult, full.reads)],
      ['a read version', queryBodyDigest(full.result, full.reads.map((e, i) => (i === 0 ? { key: e.key, version: { micros: e.version.micros + 1, clientId: e.version.clientId } } : e)))],
      ['a read dropped', queryBodyDigest(full.result, full.reads.slice(1))],
      ['result bytes moved into the read set', queryBodyDigest(full.result.subarray(1), [{ key: String.fromCharCode(full.result[0]!), version: { micros: 0, clientId: 0 } }, ...full.reads])],
    ];
    assert.ok(full.reads.length > 0);
    for (const [name, d] of variants) assert.notDeepEqual(Array.from(d), Array.from(base), name);
  });

  void it('are refused beside a result or read entries, and with a digest of the wrong length, by both paths', () => {
    const withDigest = (extra: Uint8Array): Uint8Array => {
      const b = encodeGeneric(digestReply);
      // Envelope field 13: one length varint; rewrite it around the inner message plus `extra`.
      const inner = decodeLen(b);
      return envelope(new Uint8Array([...inner, ...extra]));
    };
    const cases: [string, Uint8Array][] = [
      ['a result beside the digest', withDigest(new Uint8Array([26, 1, 7]))],
      ['a read entry beside the digest', withDigest(new Uint8Array([26, 3, 10, 1, 97]))],
      ['a digest of 31 bytes', envelope(new Uint8Array([...decodeLen(encodeGeneric({ ...full, result: new Uint8Array(0), reads: [] })), 74, 31, ...new Uint8Array(31)]))],
      ['neither digest nor result', envelope(decodeLen(encodeGeneric({ ...full, result: new Uint8Array(0), reads: [] })))],
    ];
    for (const [name, bytes] of cases) {
      assert.equal(fastDecodeQueryReply(bytes, LIMITS), undefined, name);
      assert.ok(!decodeGeneric(bytes, LIMITS).ok, name);
    }
  });
});

/** The inner bytes of a QueryReply envelope (tag 106, then a varint length). */
function decodeLen(b: Uint8Array): Uint8Array {
  assert.equal(b[0], 106);
  let len = 0;
  let p = 1;
  for (let shift = 0; ; shift += 7) {
    const x = b[p++]!;
    len |= (x & 0x7f) << shift;
    if (x < 0x80) break;
  }
  return b.subarray(p, p + len);
}

function envelope(inner: Uint8Array): Uint8Array {
  const len: number[] = [];
  let v = inner.length;
  while (v > 0x7f) {
    len.push((v & 0x7f) | 0x80);
    v >>>= 7;
  }
  len.push(v);
  return new Uint8Array([106, ...len, ...inner]);
}

void describe('range read reply codec, large read sets', () => {
  /** A reply with `n` read entries (sorted keys) and the rest of `reply(seed)`. */
  const large = (seed: number, n: number, change?: (reads: { key: string; version: Timestamp }[]) => void): QueryReply => {
    const reads = Array.from({ length: n }, (_, i) => ({ key: `k${String(i).padStart(6, '0')}`, version: { micros: 1_760_000_000_000_000 + i, clientId: i % 7 } }));
    change?.(reads);
    return { ...reply(seed), reads, digestOnly: false };
  };
  const BIG: CodecLimits = { ...DEFAULT_CODEC_LIMITS, shardCount: 3, replicasPerShard: 6, entriesMax: 5000 };
  const fastDecode = (m: QueryReply | Uint8Array): QueryReply => {
    const f = fastDecodeQueryReply(m instanceof Uint8Array ? m : encodeGeneric(m), BIG);
    assert.ok(f !== undefined && f.kind === 'queryReply');
    return f;
  };

  void it('gives replies with the same read entry bytes one shared read array, and others their own', () => {
    const a = fastDecode(large(1, 1000));
    const same = fastDecode(large(2, 1000)); // other result, predicates, votes; same reads
    assert.equal(same.reads, a.reads);
    const variants: [string, QueryReply][] = [
      ['a version changed in the middle', large(3, 1000, (r) => (r[500]!.version = { micros: 5, clientId: 0 }))],
      ['one read more at the end', large(4, 1001)],
      ['one read fewer', large(5, 999)],
      ['a key changed at the start', large(6, 1000, (r) => (r[0]!.key = 'a'))],
    ];
    for (const [name, m] of variants) {
      const f = fastDecode(m);
      assert.notEqual(f.reads, a.reads, name);
      const generic = decodeGeneric(encodeGeneric(m), BIG);
      assert.ok(generic.ok);
      assert.deepEqual(plain(f), plain(generic.value), name);
      // The reply before it still decodes to its own entries after the kept set changed.
      assert.deepEqual(plain(fastDecode(large(1, 1000)).reads), plain(a.reads), `after ${name}`);
    }
  });

  void it('agrees with the generic path on mutated encodings while a read set is kept', () => {
    const original = new Uint8Array(encodeGeneric(large(7, 600)));
    let both = 0;
    for (let i = 0; i < 3000; i++) {
      fastDecode(original); // keeps the original's read set
      const at = (i * 7919) % original.length;
      const mutated = original.slice();
      if (i % 2 === 0) mutated[at] = (mutated[at]! + 1 + (i % 255)) & 0xff;
      else mutated[at] = mutated[at]! ^ (1 << (i % 8));
      const generic = decodeGeneric(mutated, BIG);
      const f = fastDecodeQueryReply(mutated, BIG);
      if (f === undefined) continue;
      assert.ok(generic.ok, `mutation ${i}: accepted what the generic path refuses`);
      assert.deepEqual(plain(f), plain(generic.value), `mutation ${i}`);
      both++;
    }
    assert.ok(both > 1000, `both ${both}`);
  });
});

void describe('holdsAt', () => {
  void it('agrees with a byte-by-byte comparison at every offset and length, unaligned views included', () => {
    const buf = Uint8Array.from({ length: 64 }, (_, i) => (i * 37) & 0xff);
    for (let at = 0; at < 20; at++) {
      for (let n = 0; n < 23; n++) {
        const copy = new Uint8Array(n + 3).subarray(3); // unaligned
        copy.set(buf.subarray(at, at + n));
        assert.equal(holdsAt(buf, at, copy), true, `${at}/${n}`);
        for (let k = 0; k < n; k++) {
          copy[k]! ^= 1;
          assert.equal(holdsAt(buf, at, copy), false, `${at}/${n} differs at ${k}`);
          copy[k]! ^= 1;
        }
      }
    }
    assert.equal(holdsAt(buf, 60, buf.subarray(0, 8)), false, 'past the end');
  });
});

void describe("a replica's read set coming back in a Prepare (decision 0042)", () => {
  const BIG: CodecLimits = { ...DEFAULT_CODEC_LIMITS, shardCount: 3, replicasPerShard: 6, entriesMax: 5000 };
  /** `n` sorted read entries; `change` edits a fresh copy. */
  const readsOf = (n: number, change?: (reads: ReadEntry[]) => void): ReadEntry[] => {
    const reads = Array.from({ length: n }, (_, i) => ({ key: `k${String(i).padStart(6, '0')}`, version: { micros: 1_760_000_000_000_000 + i, clientId: i % 7 } }));
    change?.(reads);
    return reads;
  };
  const prepareOf = (reads: readonly ReadEntry[]): Uint8Array =>
    encodeMessage({ kind: 'prepare', req: 9, txn: encodeTxn({ ts: { micros: 1_770_000_000_000_000, clientId: 3 }, shards: [0 as ShardId], reads, writes: [], deps: [], predicates: [], meta: new Uint8Array(0) }) });
  const bodyReads = (bytes: Uint8Array, limits = BIG): readonly ReadEntry[] => {
    const d = decodeMessage(bytes, limits);
    assert.ok(d.ok && d.value.kind === 'prepare');
    const g = decodeGeneric(bytes, limits);
    assert.ok(g.ok && g.value.kind === 'prepare');
    assert.deepEqual(plain(d.value.txn.body), plain(g.value.txn.body), 'what the generic path decodes');
    return d.value.txn.body.reads;
  };

  void it('decodes to the very entries the reply was encoded from', () => {
    const mine = readsOf(1000);
    fastEncodeQueryReply({ ...reply(1), reads: mine, digestOnly: false });
    // The client's copy: other objects, the same entries, so the same bytes.
    assert.equal(bodyReads(prepareOf(readsOf(1000))), mine);
  });

  void it('decodes any other run itself, and still reuses the kept one afterwards', () => {
    const mine = readsOf(1000);
    fastEncodeQueryReply({ ...reply(2), reads: mine, digestOnly: false });
    const variants: [string, ReadEntry[]][] = [
      ['a version changed in the middle', readsOf(1000, (r) => (r[500] = { key: r[500]!.key, version: { micros: 5, clientId: 0 } }))],
      ['one read more at the end', readsOf(1001)],
      ['one read fewer', readsOf(999)],
      ['one read more at the start', [{ key: 'a', version: { micros: 1, clientId: 0 } }, ...readsOf(1000)]],
    ];
    for (const [name, reads] of variants) {
      const got = bodyReads(prepareOf(reads));
      assert.notEqual(got, mine, name);
      assert.deepEqual(plain(got), plain(reads), name);
      assert.equal(bodyReads(prepareOf(readsOf(1000))), mine, `after ${name}`);
    }
  });

  void it('keeps the decoding side\'s key-size limit', () => {
    fastEncodeQueryReply({ ...reply(3), reads: readsOf(1000), digestOnly: false });
    const small: CodecLimits = { ...BIG, keyBytesMax: 4 };
    assert.equal(decodeMessage(prepareOf(readsOf(1000)), small).ok, false);
    assert.equal(decodeGeneric(prepareOf(readsOf(1000)), small).ok, false);
  });
});
