/**
 * The hand-written range read codec (codec-query.ts `fastEncodeQuery`, `fastDecodeQuery`) against
 * protobufjs: the same bytes out, the same queries in, and never an acceptance where the generic path
 * refuses (the contract of decision 0011, applied to queries by decision 0060).
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { decodeGeneric, decodeMessage, encodeGeneric, encodeMessage } from './codec.ts';
import { fastDecodeQuery, fastEncodeQuery } from './codec-fast.ts';
import { DecoderAgreement, mutationOf } from './mutation.testkit.ts';
import { plain } from './plain.testkit.ts';
import { DEFAULT_CODEC_LIMITS, type CodecLimits } from './codec-txn.ts';
import type { TxnDigest } from './ids.ts';
import type { Query } from './messages.ts';
import type { Timestamp } from './timestamp.ts';

const SQL = [
  'SELECT * FROM t WHERE key >= $1 AND key < $2',
  "UPDATE t SET v = v + 1 WHERE tag = 'héllo wörld'",
  'SELECT 1 -- 日本語 😀',
  '\uFEFFSELECT 1', // a leading byte-order mark stays part of the text
  'x'.repeat(300) + 'é',
  'S',
];

/** A query drawn from `seed` (xorshift32), zeros and empty fields included (proto3 leaves them out). */
function query(seed: number): Query {
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
  for (let i = int(4); i > 0; i--) keys.add(String.fromCharCode(...bytes(int(3) === 0 ? 0 : 1 + int(20))));
  const retry = int(3);
  return {
    kind: 'query',
    req: int(4) === 0 ? 0 : int(1 << 30),
    ts: ts(),
    sql: SQL[int(SQL.length)]!,
    params: bytes(int(3) === 0 ? 0 : int(60)),
    ownWrites: [...keys].sort().map((key) => ({ key, value: int(4) === 0 ? null : bytes(int(30)) })),
    recon: int(2) === 0,
    retry,
    // Only sync rounds carry a proposal (the decoders refuse one in an eager query).
    snapshot: retry === 0 ? [] : Array.from({ length: int(5) }, () => ({ digest: bytes(32) as TxnDigest, holders: Array.from({ length: int(4) }, () => int(6)) })),
    ...(int(4) === 0 ? { digestOnly: true } : {}),
    // The session's TimeZone (absent for UTC): a name, a POSIX zone, non-ASCII text.
    ...([{}, { timeZone: 'Europe/Berlin' }, { timeZone: '<+05:30>-05:30' }, { timeZone: 'Zone/Ünïcode' }][int(4)] ?? {}),
  };
}

const LIMITS: CodecLimits = { ...DEFAULT_CODEC_LIMITS, shardCount: 3, replicasPerShard: 5, entriesMax: 3, valueBytesMax: 40 };

void describe('range read codec against protobufjs', () => {
  void it('encodes queries to the same bytes', () => {
    for (let i = 0; i < 2000; i++) {
      const m = query(i);
      assert.deepEqual(Array.from(fastEncodeQuery(m)!), Array.from(encodeGeneric(m)), `query ${i}`);
    }
    // A proposal in an eager query is encoded as protobufjs writes it (and refused by both decoders).
    const eager = { ...query(3), retry: 0, snapshot: [{ digest: new Uint8Array(32) as TxnDigest, holders: [1, 300] }] };
    assert.deepEqual(Array.from(fastEncodeQuery(eager)!), Array.from(encodeGeneric(eager)));
    assert.equal(fastDecodeQuery(encodeGeneric(eager), DEFAULT_CODEC_LIMITS), undefined);
    assert.equal(decodeGeneric(encodeGeneric(eager), DEFAULT_CODEC_LIMITS).ok, false);
  });

  void it('leaves SQL text with a lone surrogate to protobufjs, which writes it its own way', () => {
    for (const sql of ['SELECT \uD800 1', 'SELECT 1 \uDC00', 'a\uDBFF']) {
      const m = { ...query(1), sql };
      assert.equal(fastEncodeQuery(m), undefined);
      assert.deepEqual(Array.from(encodeMessage(m)), Array.from(encodeGeneric(m)));
    }
    assert.notEqual(fastEncodeQuery({ ...query(1), sql: 'SELECT 😀' }), undefined, 'a surrogate pair is well formed');
  });

  void it('decodes them to the same queries, and refuses only what the generic path refuses or leaves to it', () => {
    let fast = 0;
    let refused = 0;
    for (let i = 0; i < 2000; i++) {
      const bytes = encodeGeneric(query(i));
      for (const limits of [DEFAULT_CODEC_LIMITS, LIMITS]) {
        const generic = decodeGeneric(bytes, limits);
        const f = fastDecodeQuery(bytes, limits);
        if (f === undefined) {
          assert.ok(!generic.ok, `query ${i}: the fast path refused a query the generic path took`);
          refused++;
          continue;
        }
        fast++;
        assert.ok(generic.ok, `query ${i}: accepted what the generic path refuses`);
        assert.deepEqual(plain(f), plain(generic.value), `query ${i}`);
      }
    }
    assert.ok(fast > 2000 && refused > 200, `fast ${fast}, refused by both ${refused}`);
  });

  void it('never accepts a mutated encoding the generic path refuses, and agrees when both accept', () => {
    const agreement = new DecoderAgreement();
    for (let i = 0; i < 20_000; i++) {
      const bytes = new Uint8Array(encodeGeneric(query(i)));
      const mutated = mutationOf(bytes, i);
      for (const limits of [DEFAULT_CODEC_LIMITS, LIMITS]) agreement.check(i, decodeGeneric(mutated, limits), fastDecodeQuery(mutated, limits));
    }
    agreement.assertExercised();
  });

  void it('leaves malformed UTF-8 to the generic path, and keeps a byte-order mark', () => {
    const m = { ...query(5), sql: 'SELECT 1' };
    const bytes = new Uint8Array(encodeGeneric(m));
    const at = Buffer.from(bytes).indexOf('SELECT 1');
    for (const bad of [0xff, 0xc0, 0x80]) {
      const mutated = bytes.slice();
      mutated[at + 6] = bad;
      assert.equal(fastDecodeQuery(mutated, DEFAULT_CODEC_LIMITS), undefined);
      assert.deepEqual(plain(decodeMessage(mutated)), plain(decodeGeneric(mutated)));
    }
    const bom = fastDecodeQuery(encodeGeneric({ ...m, sql: '\uFEFFSELECT 1' }), DEFAULT_CODEC_LIMITS);
    assert.ok(bom?.kind === 'query');
    assert.equal(bom.sql, '\uFEFFSELECT 1');
  });

  void it('is what decodeMessage and encodeMessage use', () => {
    for (let i = 0; i < 200; i++) {
      const m = query(i);
      const bytes = encodeMessage(m);
      assert.deepEqual(Array.from(bytes), Array.from(encodeGeneric(m)));
      assert.deepEqual(plain(decodeMessage(bytes, LIMITS)), plain(decodeGeneric(bytes, LIMITS)));
      const back = decodeMessage(bytes);
      assert.ok(back.ok);
      assert.deepEqual(plain(back.value), plain(m), `query ${i} round trip`);
    }
  });
});
