/**
 * Transactions on the wire (PROTOCOL §3, DESIGN §3): a client encodes a `TxnBody` exactly once and
 * the digest is BLAKE3 of those bytes; everyone else decodes the received bytes, validates them and
 * hashes *the received bytes*. Nothing ever re-encodes a transaction and hopes for equal bytes.
 *
 * Guarantees of `decodeTxn` (never throws):
 * - a timestamp is present and valid; shards are non-empty, strictly ascending and in range;
 * - reads and writes are strictly ascending by key (byte order), keys and values within `CodecLimits`,
 *   entry counts within limits; a deleted write carries no value;
 * - dependencies carry 32-byte digests, in-range shards and valid timestamps;
 * - the returned `Txn.bytes` is a view of the input (no copy): it pins the input buffer while kept.
 *
 * Keys are latin1 binary strings (messages.ts), so JS string order equals byte order and the
 * sortedness check is a plain string comparison.
 */
import { pesto } from './gen/pesto.js';
import { blake3 } from './crypto/blake3.ts';
import { fastDecodeTxn, fastEncodeBody } from './codec-fast-txn.ts';
import { InvariantError, fail, ok, type Result } from './errors.ts';
import { DIGEST_BYTES, digestKey, type ShardId, type TxnDigest } from './ids.ts';
import { isValidTimestamp, type Timestamp } from './timestamp.ts';
import type { Dependency, Key, Predicate, ReadEntry, Txn, TxnBody, WriteEntry } from './messages.ts';

/** Why bytes were refused. Closed: metrics count these. */
export type DecodeReason =
  | 'malformed'
  | 'unknown-kind'
  | 'bad-digest'
  | 'bad-signature-length'
  | 'bad-path'
  | 'too-large'
  | 'bad-timestamp'
  | 'unsorted'
  | 'duplicate-key'
  | 'bad-decision'
  | 'missing-field'
  | 'unexpected-field'
  | 'bad-shard'
  | 'bad-signer'
  | 'digest-mismatch';

export interface CodecLimits {
  /** Whole envelope, bytes. */
  readonly messageBytesMax: number;
  readonly keyBytesMax: number;
  /** Values, predicate expressions and transaction metadata, bytes. */
  readonly valueBytesMax: number;
  /** Reads, writes, dependencies, predicates and shards of one transaction, each. */
  readonly entriesMax: number;
  /** Shard ids must be below this. */
  readonly shardCount: number;
  /** Signer (replica) indexes must be below this. */
  readonly replicasPerShard: number;
}

export const DEFAULT_CODEC_LIMITS: CodecLimits = Object.freeze({
  messageBytesMax: 64 * 1024 * 1024,
  keyBytesMax: 4 * 1024,
  valueBytesMax: 1024 * 1024,
  entriesMax: 100_000,
  shardCount: 0x1_0000,
  replicasPerShard: 0x1_0000,
});

/**
 * Thrown inside the decoder only and caught at its entry points, so field checks need no per-field
 * `Result` allocation. Not an `Error`: no stack trace is captured on the (rare) bad path.
 */
export class DecodeFailure {
  constructor(readonly reason: DecodeReason, readonly detail: string) {}
}

export function reject(reason: DecodeReason, detail: string): never {
  throw new DecodeFailure(reason, detail);
}

/** Maps anything thrown while decoding to a result: our failures keep their reason, protobufjs errors are 'malformed'. */
export function failureOf(e: unknown): { readonly ok: false; readonly reason: DecodeReason; readonly detail?: string } {
  if (e instanceof DecodeFailure) return fail(e.reason, e.detail);
  if (e instanceof InvariantError) throw e;
  return fail('malformed', e instanceof Error ? e.message : 'undecodable');
}

// ---- keys ----

/** Bytes to a key (latin1 binary string, one char per byte). */
export function keyFromBytes(u8: Uint8Array): Key {
  return keyFromRange(u8, 0, u8.length);
}

/** Scratch arrays of each short key length, for `keyFromRange` (filled and read within one call). */
const charCodes: number[][] = Array.from({ length: 25 }, (_, n) => new Array<number>(n).fill(0));

/**
 * Bytes `start..end` of `buf` to a key, read in place (no view of them is made). A short key is made in
 * one `String.fromCharCode` call (a string built a character at a time left ~200 bytes of intermediate
 * strings per 9-byte key and took 2.5x as long; decision 0031).
 */
export function keyFromRange(buf: Uint8Array, start: number, end: number): Key {
  const n = end - start;
  if (n <= 24) {
    const codes = charCodes[n]!;
    for (let i = 0; i < n; i++) codes[i] = buf[start + i]!;
    return String.fromCharCode.apply(null, codes);
  }
  return Buffer.from(buf.buffer, buf.byteOffset + start, n).toString('latin1');
}

/** A key to its bytes. Invariant: every char code is below 256. */
export function keyToBytes(key: Key): Uint8Array {
  return Buffer.from(key, 'latin1');
}

// ---- field helpers shared with codec.ts ----

type TsIn = pesto.Ts.$Properties | null | undefined;

export function tsIn(t: TsIn, what: string): Timestamp {
  if (t === null || t === undefined) return reject('missing-field', what);
  const v: Timestamp = { micros: t.micros ?? 0, clientId: t.client ?? 0 };
  if (!isValidTimestamp(v)) reject('bad-timestamp', what);
  return v;
}

export function tsOut(t: Timestamp): pesto.Ts.$Properties {
  return { micros: t.micros, client: t.clientId };
}

export function digestIn(b: Uint8Array | null | undefined, what: string): TxnDigest {
  if (b === null || b === undefined || b.length !== DIGEST_BYTES) return reject('bad-digest', what);
  return b as TxnDigest;
}

export function shardIn(s: number | null | undefined, limits: CodecLimits): ShardId {
  const v = s ?? 0;
  if (v >= limits.shardCount) reject('bad-shard', `shard ${v}`);
  return v as ShardId;
}

export function keyIn(b: Uint8Array | null | undefined, limits: CodecLimits): Key {
  if (b === null || b === undefined) return '';
  if (b.length > limits.keyBytesMax) reject('too-large', `key of ${b.length} bytes`);
  return keyFromBytes(b);
}

export function bytesIn(b: Uint8Array | null | undefined, limits: CodecLimits, what: string): Uint8Array {
  if (b === null || b === undefined) return EMPTY;
  if (b.length > limits.valueBytesMax) reject('too-large', what);
  return b;
}

/** A value field with its deletion flag: null when deleted (and then no bytes may accompany it). */
export function valueIn(b: Uint8Array | null | undefined, deleted: boolean | null | undefined, limits: CodecLimits): Uint8Array | null {
  if (deleted === true) {
    if (b !== null && b !== undefined && b.length > 0) reject('unexpected-field', 'value of a deletion');
    return null;
  }
  return bytesIn(b, limits, 'value');
}

const EMPTY = new Uint8Array(0);

export function countIn<T>(a: T[] | null | undefined, limits: CodecLimits, what: string): T[] {
  if (a === null || a === undefined) return [];
  if (a.length > limits.entriesMax) reject('too-large', `${a.length} ${what}`);
  return a;
}

// ---- TxnBody ----

function bodyIn(p: pesto.TxnBody, limits: CodecLimits): TxnBody {
  const ts = tsIn(p.ts, 'txn ts');

  const shardsIn = countIn(p.shards, limits, 'shards');
  if (shardsIn.length === 0) reject('missing-field', 'txn shards');
  let prevShard = -1;
  for (const s of shardsIn) {
    if (s >= limits.shardCount) reject('bad-shard', `shard ${s}`);
    if (s === prevShard) reject('duplicate-key', 'txn shards');
    if (s < prevShard) reject('unsorted', 'txn shards');
    prevShard = s;
  }

  const reads = readsIn(p.reads, limits);
  const writes = writesIn(p.writes, limits, 'writes');
  const deps = depsIn(p.deps, limits);
  const predicates = predicatesIn(p.predicates, limits);
  return { ts, shards: shardsIn as ShardId[], reads, writes, deps, predicates, meta: bytesIn(p.meta, limits, 'meta') };
}

/** Read entries: sorted by key, distinct. */
export function readsIn(a: pesto.ReadEntry.$Properties[] | null | undefined, limits: CodecLimits): ReadEntry[] {
  const list = countIn(a, limits, 'reads');
  const reads: ReadEntry[] = new Array<ReadEntry>(list.length);
  let prev: Key | null = null;
  for (let i = 0; i < list.length; i++) {
    const r = list[i]!;
    const key = keyIn(r.key, limits);
    if (prev !== null) checkOrder(prev, key, 'reads');
    prev = key;
    reads[i] = { key, version: tsIn(r.version, 'read version') };
  }
  return reads;
}

/** Write entries: sorted by key, distinct. */
export function writesIn(a: pesto.WriteEntry.$Properties[] | null | undefined, limits: CodecLimits, what: string): WriteEntry[] {
  const list = countIn(a, limits, what);
  const writes: WriteEntry[] = new Array<WriteEntry>(list.length);
  let prev: Key | null = null;
  for (let i = 0; i < list.length; i++) {
    const w = list[i]!;
    const key = keyIn(w.key, limits);
    if (prev !== null) checkOrder(prev, key, what);
    prev = key;
    writes[i] = { key, value: valueIn(w.value, w.deleted, limits) };
  }
  return writes;
}

export function depsIn(a: pesto.Dependency.$Properties[] | null | undefined, limits: CodecLimits): Dependency[] {
  const list = countIn(a, limits, 'deps');
  const deps: Dependency[] = new Array<Dependency>(list.length);
  for (let i = 0; i < list.length; i++) {
    const d = list[i]!;
    deps[i] = { digest: digestIn(d.digest, 'dependency'), shard: shardIn(d.shard, limits), ts: tsIn(d.ts, 'dependency ts') };
  }
  return deps;
}

export function predicatesIn(a: pesto.Predicate.$Properties[] | null | undefined, limits: CodecLimits): Predicate[] {
  const list = countIn(a, limits, 'predicates');
  const predicates: Predicate[] = new Array<Predicate>(list.length);
  for (let i = 0; i < list.length; i++) {
    const q = list[i]!;
    predicates[i] = { table: q.table ?? 0, tableVersion: tsIn(q.tableVersion, 'table version'), expr: bytesIn(q.expr, limits, 'predicate') };
  }
  return predicates;
}

export function readsOut(reads: readonly ReadEntry[]): pesto.ReadEntry.$Properties[] {
  const out: pesto.ReadEntry.$Properties[] = new Array<pesto.ReadEntry.$Properties>(reads.length);
  for (let i = 0; i < reads.length; i++) {
    const r = reads[i]!;
    out[i] = { key: keyToBytes(r.key), version: tsOut(r.version) };
  }
  return out;
}

export function writesOut(writes: readonly WriteEntry[]): pesto.WriteEntry.$Properties[] {
  const out: pesto.WriteEntry.$Properties[] = new Array<pesto.WriteEntry.$Properties>(writes.length);
  for (let i = 0; i < writes.length; i++) {
    const w = writes[i]!;
    out[i] = w.value === null ? { key: keyToBytes(w.key), deleted: true } : { key: keyToBytes(w.key), value: w.value };
  }
  return out;
}

export function depsOut(deps: readonly Dependency[]): pesto.Dependency.$Properties[] {
  return deps.map((d) => ({ digest: d.digest, shard: d.shard, ts: tsOut(d.ts) }));
}

export function predicatesOut(predicates: readonly Predicate[]): pesto.Predicate.$Properties[] {
  return predicates.map((q) => ({ table: q.table, tableVersion: tsOut(q.tableVersion), expr: q.expr }));
}

function checkOrder(prev: Key, key: Key, what: string): void {
  if (prev === key) reject('duplicate-key', what);
  if (prev > key) reject('unsorted', what);
}

/** Decodes, validates and hashes a transaction's bytes (the digest covers exactly these bytes). */
export function decodeTxn(bytes: Uint8Array, limits: CodecLimits = DEFAULT_CODEC_LIMITS): Result<Txn, DecodeReason> {
  try {
    return ok(txnIn(bytes, limits));
  } catch (e) {
    return failureOf(e);
  }
}

/** `decodeTxn` for codec.ts: throws `DecodeFailure` (or a protobufjs error) instead of returning. */
export function txnIn(bytes: Uint8Array | null | undefined, limits: CodecLimits): Txn {
  if (bytes === null || bytes === undefined || bytes.length === 0) return reject('missing-field', 'txn');
  if (bytes.length > limits.messageBytesMax) reject('too-large', 'txn');
  const fast = fastDecodeTxn(bytes, limits);
  if (fast !== undefined) return fast;
  const body = bodyIn(pesto.TxnBody.decode(bytes), limits);
  const digest = blake3(bytes) as TxnDigest;
  return { body, bytes, digest, key: digestKey(digest) };
}

/** The protobufjs form of a body (the generic encoder; codec-fast.ts writes the same bytes itself). */
export function bodyOut(b: TxnBody): pesto.TxnBody.$Properties {
  return {
    ts: tsOut(b.ts),
    shards: b.shards as readonly number[] as number[],
    reads: readsOut(b.reads),
    writes: writesOut(b.writes),
    deps: depsOut(b.deps),
    predicates: predicatesOut(b.predicates),
    meta: b.meta,
  };
}

function assertCanonical(b: TxnBody): void {
  if (b.shards.length === 0) throw new InvariantError('a transaction involves at least one shard');
  for (let i = 1; i < b.shards.length; i++) {
    if (!(b.shards[i - 1]! < b.shards[i]!)) throw new InvariantError('txn shards must be sorted and distinct');
  }
  for (let i = 1; i < b.reads.length; i++) {
    if (!(b.reads[i - 1]!.key < b.reads[i]!.key)) throw new InvariantError('txn reads must be sorted by key and distinct');
  }
  for (let i = 1; i < b.writes.length; i++) {
    if (!(b.writes[i - 1]!.key < b.writes[i]!.key)) throw new InvariantError('txn writes must be sorted by key and distinct');
  }
}

/**
 * Encodes a transaction once and digests those exact bytes. Throws `InvariantError` on a body a
 * correct client cannot produce (unsorted or duplicate reads, writes or shards): every replica
 * would refuse it.
 */
export function encodeTxn(body: TxnBody): Txn {
  assertCanonical(body);
  const bytes = fastEncodeBody(body);
  const digest = blake3(bytes) as TxnDigest;
  return { body, bytes, digest, key: digestKey(digest) };
}
